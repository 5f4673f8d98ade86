// Number and time formatting in one place, so every view writes prices, changes, sizes and times
// the same way.

const price = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const DASH = '—';

export type Direction = 'up' | 'down' | 'flat';

export function direction(change: number | null | undefined): Direction {
  if (change === null || change === undefined || change === 0) return 'flat';
  return change > 0 ? 'up' : 'down';
}

/** ▲/▼ as well as colour, so the direction does not depend on seeing colour. */
export function arrow(change: number | null | undefined): string {
  return { up: '▲', down: '▼', flat: '■' }[direction(change)];
}

export const SPOKEN_DIRECTION: Record<Direction, string> = { up: 'up', down: 'down', flat: 'unchanged' };

export const fmtPrice = (v: number | null | undefined): string => (v == null ? DASH : price.format(v));
export const fmtWhole = (v: number | null | undefined): string => (v == null ? DASH : whole.format(v));
export const fmtCompact = (v: number | null | undefined): string => (v == null ? DASH : compact.format(v));
/** PKR in billions, one decimal: the unit is in the column heading. */
export const fmtBillions = (v: number | null | undefined): string =>
  v == null ? DASH : oneDecimal.format(v / 1e9);

/** A P/E: no earnings means no ratio, shown as a dash (never 0.00). */
export const fmtRatio = (v: number | null | undefined): string =>
  v == null || v <= 0 ? DASH : price.format(v);

export function fmtSigned(v: number | null | undefined): string {
  if (v == null) return DASH;
  return `${v > 0 ? '+' : ''}${price.format(v)}`;
}

export function fmtPct(v: number | null | undefined, signed = true): string {
  if (v == null) return DASH;
  return `${signed && v > 0 ? '+' : ''}${price.format(v)}%`;
}

// The exchange's clock: every time on the page is Karachi time, whatever the reader's zone.
const KARACHI = 'Asia/Karachi';
const timeOnly = new Intl.DateTimeFormat('en-GB', {
  timeZone: KARACHI,
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const dayAndTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: KARACHI,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const dayKey = new Intl.DateTimeFormat('en-CA', {
  timeZone: KARACHI,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `14:05` when the instant is today in Karachi, else `Fri 20 Nov, 16:35`; always PKT. */
export function fmtWhen(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return DASH;
  const sameDay = dayKey.format(t) === dayKey.format(now);
  return `${(sameDay ? timeOnly : dayAndTime).format(t)} PKT`;
}

const fullDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: KARACHI,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** `Tue 22 Mar 2016`: the Karachi day of an instant, or of a `YYYY-MM-DD` date. */
export function fmtDay(isoOrDate: string): string {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(isoOrDate) ? `${isoOrDate}T12:00:00+05:00` : isoOrDate);
  if (Number.isNaN(t)) return isoOrDate;
  // en-GB puts a comma after the weekday once a year is asked for; the page writes days without.
  return fullDay
    .formatToParts(t)
    .filter((p) => p.type !== 'literal')
    .map((p) => p.value)
    .join(' ');
}
