// The return periods and where each starts. A period ends on the series' last row (E). Its start
// is the last row dated on or before a calendar target measured back from E's date; a period whose
// target lies before the first row has no start: it is null with the reason, never a shorter
// period in disguise.
import { lastOnOrBefore, minusDays, minusMonths, previousYearEnd } from './dates.ts';
import type { Period } from './params.ts';

export { PERIODS, type Period } from './params.ts';

/**
 * The calendar target of each period from the last date E (null: not a calendar period).
 * 1D is the previous trading row; ALL is the first row.
 */
export function periodTarget(period: Period, end: string): string | null {
  switch (period) {
    case '1D':
    case 'ALL':
      return null;
    case '1W':
      return minusDays(end, 7);
    case '1M':
      return minusMonths(end, 1);
    case '3M':
      return minusMonths(end, 3);
    case '6M':
      return minusMonths(end, 6);
    case 'YTD':
      return previousYearEnd(end);
    case '1Y':
      return minusMonths(end, 12);
    case '3Y':
      return minusMonths(end, 36);
    case '5Y':
      return minusMonths(end, 60);
  }
}

export type PeriodStart = { index: number; target: string | null } | { index: null; reason: string };

/** The start row of `period` over `dates` (oldest first, at least one row), ending at the last row. */
export function periodStart(period: Period, dates: readonly string[]): PeriodStart {
  const n = dates.length;
  if (n === 0) return { index: null, reason: 'no rows' };
  if (period === 'ALL') {
    return n >= 2 ? { index: 0, target: null } : { index: null, reason: 'only one row: no return yet' };
  }
  if (period === '1D') {
    return n >= 2 ? { index: n - 2, target: null } : { index: null, reason: 'only one row: no previous day' };
  }
  const target = periodTarget(period, dates[n - 1]!)!;
  const index = lastOnOrBefore(dates, target);
  if (index < 0) {
    return {
      index: null,
      reason: `the history starts on ${dates[0]}, after the period's start (the last trading day on or before ${target})`,
    };
  }
  return { index, target };
}
