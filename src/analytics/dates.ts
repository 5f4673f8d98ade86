// Calendar arithmetic on trading dates written YYYY-MM-DD (the exchange's day, Asia/Karachi). Pure:
// a date string in, a date string out; no clock, no time zone (the day is already the market's).
import { addDays, daysFromCivil, daysInMonth, formatDay } from '../time/karachi.ts';

function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** `date` minus `days` calendar days. */
export function minusDays(date: string, days: number): string {
  return addDays(date, -days);
}

/**
 * `date` minus `months` calendar months, the day clamped to the target month's last day
 * (2026-03-31 − 1 month = 2026-02-28; 2024-02-29 − 12 months = 2023-02-28).
 */
export function minusMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) - months;
  const ty = Math.floor(index / 12);
  const tm = (index % 12) + 1;
  return formatDay(daysFromCivil(ty, tm, Math.min(d, daysInMonth(ty, tm))));
}

/** The last calendar day of the year before `date`'s year. */
export function previousYearEnd(date: string): string {
  return `${String(Number(date.slice(0, 4)) - 1).padStart(4, '0')}-12-31`;
}

/** Index of the last row dated on or before `date` in rows sorted oldest first; -1 when none. */
export function lastOnOrBefore(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
