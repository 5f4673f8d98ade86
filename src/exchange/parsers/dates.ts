// Dates on the portal are Asia/Karachi (src/time/karachi.ts has the calendar arithmetic); this
// file reads the portal's spellings of them.
import { daysInMonth, formatDay, KARACHI_OFFSET, karachiDay } from '../../time/karachi.ts';

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

const FIRST_DAY = -354_285; // 1000-01-01
const LAST_DAY = 2_932_896; // 9999-12-31

/** The Karachi calendar date of an instant given in epoch seconds, as `YYYY-MM-DD`. */
export function karachiDateFromEpoch(epochSeconds: number): string | null {
  if (!Number.isFinite(epochSeconds)) return null;
  const day = karachiDay(epochSeconds * 1000);
  // isoDate's years, 1000–9999.
  if (day < FIRST_DAY || day > LAST_DAY) return null;
  return formatDay(day);
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

const AS_OF =
  /As of\s+(?:[A-Za-z]{3,9},?\s+)?([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?/;

/**
 * A page's `As of …` line (Asia/Karachi) → ISO 8601 with +05:00: `As of Sep 30, 2026 3:50 PM` on the
 * index-levels page, `As of Wed, Sep 30, 2026 3:47 PM` (with the weekday) on the company page.
 */
export function parseAsOfLine(text: string): string | null {
  const match = AS_OF.exec(text);
  if (match === null) return null;
  const month = monthNumber(match[1] as string);
  if (month === null) return null;
  let hour = Number(match[4]);
  const meridiem = match[7]?.toLowerCase();
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  return karachiDateTime(
    Number(match[3]),
    month,
    Number(match[2]),
    hour,
    Number(match[5]),
    Number(match[6] ?? 0),
  );
}
