// Karachi calendar arithmetic, the one place for it. Asia/Karachi is UTC+5 all year (Pakistan has
// kept no daylight saving since 2009), so plain arithmetic on epoch days replaces Intl and Date
// objects: the parsers convert every row of a 2,000-row page, the anomaly checks every day.
// Days are counted from 1970-01-01 (day 0); conversions after Howard Hinnant's `days_from_civil`
// and `civil_from_days` (proleptic Gregorian).

export const KARACHI_OFFSET_MS = 5 * 3_600_000;
/** The offset as ISO 8601 writes it. */
export const KARACHI_OFFSET = '+05:00';
export const DAY_MS = 86_400_000;

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a civil date (no validation: see parseIsoDay). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const yy = month <= 2 ? year - 1 : year;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The civil date of a day since 1970-01-01, as `YYYY-MM-DD`. */
export function formatDay(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` → days since 1970-01-01, or NaN when it is not a real calendar date. */
export function parseIsoDay(date: string): number {
  if (date.length !== 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) return NaN;
  const y = digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3);
  const m = digit(date, 5) * 10 + digit(date, 6);
  const d = digit(date, 8) * 10 + digit(date, 9);
  // A non-digit made one of them NaN, and every comparison with NaN is false.
  if (!(y >= 0 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m))) return NaN;
  return daysFromCivil(y, m, d);
}

/** The Karachi day (since 1970-01-01) an instant in epoch ms falls on. */
export function karachiDay(epochMs: number): number {
  return Math.floor((epochMs + KARACHI_OFFSET_MS) / DAY_MS);
}

/** The instant (epoch ms) Karachi day `day` begins. */
export function karachiMidnight(day: number): number {
  return day * DAY_MS - KARACHI_OFFSET_MS;
}

/** The instant (epoch ms) of Karachi wall-clock minute `minute` (after midnight) on `YYYY-MM-DD`. */
export function karachiInstant(date: string, minute = 0): number {
  return karachiMidnight(parseIsoDay(date)) + minute * 60_000;
}

/** An instant in epoch ms as `YYYY-MM-DDTHH:MM:SS+05:00`, to the second (the fraction is dropped). */
export function karachiTime(epochMs: number): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000 + KARACHI_OFFSET_MS).toISOString().slice(0, 19)}${KARACHI_OFFSET}`;
}

/** A Karachi date and wall-clock time (`HH:MM`) as `YYYY-MM-DDTHH:MM:00+05:00`. */
export function karachiDateTimeOf(date: string, hhmm: string): string {
  return `${date}T${hhmm}:00${KARACHI_OFFSET}`;
}

/**
 * The start (epoch ms) of the period of `periodMs` holding `epochMs`, periods counted from Karachi
 * midnight (a 5-minute bar starts at 09:35 Karachi, not at a UTC multiple).
 */
export function karachiPeriodStart(epochMs: number, periodMs: number): number {
  return Math.floor((epochMs + KARACHI_OFFSET_MS) / periodMs) * periodMs - KARACHI_OFFSET_MS;
}

/** `YYYY-MM-DD` plus `n` calendar days (n < 0 steps back). */
export function addDays(date: string, n: number): string {
  return formatDay(parseIsoDay(date) + n);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return parseIsoDay(to) - parseIsoDay(from);
}

/** The weekday of a day since 1970-01-01: 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}
