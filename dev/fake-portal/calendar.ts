// The fake market's calendar and rules: weekdays as trading days (no holiday calendar exists as
// data), the boards' `As of` time and label, and the circuit-breaker fraction of a date.

export const DAY_MS = 86_400_000;

export function parseDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const calendarCache = new Map<string, string[]>();

/** `n` weekdays ending at `end` (inclusive), newest first. No holiday calendar exists as data. */
export function tradingDays(end: string, n: number): string[] {
  const key = `${end}:${n}`;
  const cached = calendarCache.get(key);
  if (cached) return cached;
  const out: string[] = [];
  let t = parseDay(end);
  while (out.length < n) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) out.push(formatDay(t));
    t -= DAY_MS;
  }
  calendarCache.set(key, out);
  return out;
}

/** Moves a weekend day to the following Monday (filings are posted on working days). */
export function nextWorkingDay(ms: number): number {
  const wd = new Date(ms).getUTCDay();
  return wd === 6 ? ms + 2 * DAY_MS : wd === 0 ? ms + DAY_MS : ms;
}

/** The circuit-breaker fraction for a date, taking the lower bound while it stepped up. */
export function priceLimitFraction(date: string): number {
  if (date < '2020-03-20') return 0.05;
  if (date < '2024-05-27') return 0.075;
  if (date < '2024-06-10') return 0.08;
  if (date < '2024-06-24') return 0.085;
  if (date < '2024-07-08') return 0.09;
  if (date < '2024-07-22') return 0.095;
  return 0.1;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Five minutes after the day's last close: 15:35 Monday to Thursday, 16:35 on Friday. */
export function defaultAsOfTime(date: string): string {
  return new Date(parseDay(date)).getUTCDay() === 5 ? '16:35' : '15:35';
}

/** The portal's `Nov 20, 2026 4:35 PM`. */
export function asOfLabelOf(date: string, time: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${MONTHS[m - 1]} ${d}, ${y} ${h12}:${String(mm).padStart(2, '0')} ${hh < 12 ? 'AM' : 'PM'}`;
}
