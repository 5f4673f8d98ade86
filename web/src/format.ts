// Number formatting in one place, so every view writes prices, changes and sizes the same way.

const price = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const DASH = '—';

export type Direction = 'up' | 'down' | 'flat';

export function direction(change: number | null | undefined): Direction {
  if (change === null || change === undefined || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/** ▲/▼ as well as colour, so the direction does not depend on seeing colour. */
export function arrow(change: number | null | undefined): string {
  return { up: '▲', down: '▼', flat: '■' }[direction(change)];
}

export const fmtPrice = (v: number | null | undefined): string => (v == null ? DASH : price.format(v));
export const fmtWhole = (v: number | null | undefined): string => (v == null ? DASH : whole.format(v));
export const fmtCompact = (v: number | null | undefined): string => (v == null ? DASH : compact.format(v));

export function fmtSigned(v: number | null | undefined): string {
  if (v == null) return DASH;
  return `${v > 0 ? '+' : ''}${price.format(v)}`;
}

export function fmtPct(v: number | null | undefined, signed = true): string {
  if (v == null) return DASH;
  return `${signed && v > 0 ? '+' : ''}${price.format(v)}%`;
}
