// The date ranges of the market-wide feeds: defaults from the Karachi clock, at most a year.
import { BadRequestError } from '../../errors.ts';
import { formatDay, parseIsoDay } from '../../time/karachi.ts';
import { karachiDate } from '../../time/market-clock.ts';

/** At most this many days from `from` to `to` inclusive: one year, a leap year included. */
export const MAX_RANGE_DAYS = 366;

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The range asked for, with defaults: a missing `to` is `from` + `spanDays` or today, a missing
 * `from` is `to` − `spanDays` (direction `'past'`) or today (`'future'`). 400 when `from` is
 * after `to` or the range is longer than a year.
 */
export function dateRange(
  from: string | undefined,
  to: string | undefined,
  now: number,
  spanDays: number,
  direction: 'past' | 'future',
): DateRange {
  const today = karachiDate(now);
  const shift = (date: string, days: number) => formatDay(parseIsoDay(date) + days);
  let start = from;
  let end = to;
  if (direction === 'past') {
    end ??= start === undefined ? today : shift(start, spanDays);
    start ??= shift(end, -spanDays);
  } else {
    start ??= end === undefined ? today : shift(end, -spanDays);
    end ??= shift(start, spanDays);
  }
  checkRange(start, end);
  return { from: start, to: end };
}

export function checkRange(from: string, to: string): void {
  if (from > to) throw new BadRequestError(`from (${from}) is after to (${to})`);
  const days = parseIsoDay(to) - parseIsoDay(from) + 1;
  if (days > MAX_RANGE_DAYS) {
    throw new BadRequestError(
      `the range ${from} to ${to} spans ${days} days; at most ${MAX_RANGE_DAYS} days (one year) per request`,
    );
  }
}
