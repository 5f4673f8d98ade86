// Dates on the portal are Asia/Karachi: UTC+5 all year (Pakistan has kept no daylight saving since
// 2009), so plain arithmetic replaces Intl here.
const KARACHI_OFFSET_SECONDS = 5 * 3600;
const KARACHI_OFFSET = '+05:00';

const TWO_DIGITS: readonly string[] = Array.from({ length: 61 }, (_, i) => String(i).padStart(2, '0'));

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function twoDigits(value: number): string {
  return TWO_DIGITS[value] ?? String(value).padStart(2, '0');
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `YYYY-MM-DD`, or null for an impossible date. */
export function isoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || year < 1000 || year > 9999) return null;
  if (!Number.isInteger(month) || month < 1 || month > 12) return null;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return null;
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** `YYYY-MM-DDTHH:MM:SS+05:00`, or null for an impossible date or time. */
export function karachiDateTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): string | null {
  const date = isoDate(year, month, day);
  if (date === null || hour > 23 || minute > 59 || second > 59) return null;
  return `${date}T${twoDigits(hour)}:${twoDigits(minute)}:${twoDigits(second)}${KARACHI_OFFSET}`;
}

/** Month number from `Jan`, `January`, `Sept`…; null when unknown. */
export function monthNumber(name: string): number | null {
  return MONTHS[name.slice(0, 3).toLowerCase()] ?? null;
}

/**
 * The Karachi calendar date of an instant given in epoch seconds, as `YYYY-MM-DD`.
 * Days-to-civil conversion after H. Hinnant's `civil_from_days`: no Date object per row.
 */
export function karachiDateFromEpoch(epochSeconds: number): string | null {
  if (!Number.isFinite(epochSeconds)) return null;
  const days = Math.floor((epochSeconds + KARACHI_OFFSET_SECONDS) / 86400);
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return isoDate(year, month, day);
}

const MONTH_FIRST = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$/;
const DAY_FIRST_NAMED = /^(\d{1,2})[\s-]+([A-Za-z]{3,9})\.?,?[\s-]+(\d{4})$/;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DAY_FIRST_NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;

/**
 * A calendar date from the forms the portal writes: `Jan 3, 2025`, `January 3, 2025`,
 * `3 Jan 2025`, `03-Jan-2025`, `2025-01-03`, and day-first numeric `03/01/2025` (Pakistan writes
 * day before month). Returns `YYYY-MM-DD`, or null when the text is not one of these.
 */
export function parseDisplayDate(text: string): string | null {
  const value = text.trim();
  let match = MONTH_FIRST.exec(value);
  if (match !== null) {
    const month = monthNumber(match[1] as string);
    return month === null ? null : isoDate(Number(match[3]), month, Number(match[2]));
  }
  match = ISO.exec(value);
  if (match !== null) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]));
  match = DAY_FIRST_NUMERIC.exec(value);
  if (match !== null) return isoDate(Number(match[3]), Number(match[2]), Number(match[1]));
  match = DAY_FIRST_NAMED.exec(value);
  if (match !== null) {
    const month = monthNumber(match[2] as string);
    return month === null ? null : isoDate(Number(match[3]), month, Number(match[1]));
  }
  return null;
}
