// The charts' colours, the same as styles.css's (a canvas cannot read CSS variables cheaply).
export const COLORS = {
  up: '#0a6b35',
  down: '#b42318',
  flag: '#9a4d00',
  action: '#5b3cc4',
  text: '#1f2933',
  muted: '#52606d',
  grid: '#e6eaee',
  panel: '#ffffff',
};

/** Pixels for the volume pane under a price pane. */
export const VOLUME_PANE_HEIGHT = 70;
