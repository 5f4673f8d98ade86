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

/** The indicator chart's lines (indicator-chart.ts), also the swatches of its toggles. */
export const INDICATOR_COLORS: Record<string, string> = {
  sma_20: '#1d4ed8',
  ema_50: '#b45309',
  bb_upper_20_2: '#7c3aed',
  bb_middle_20_2: '#a78bfa',
  bb_lower_20_2: '#7c3aed',
  rsi_14: '#0f766e',
  macd_12_26_9: '#1d4ed8',
  macd_signal_12_26_9: '#b45309',
};
