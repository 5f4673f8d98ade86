// Screener figures derived from a symbol's generated history, so the demo tells one story: the
// 1-year change and the 30-day average volume a client reads on /screener and a quote can be
// checked against /historical. The functions take the history rows (newest first, as generated and
// as the portal serves them) and nothing else, so any change to how histories are generated
// (corporate actions, a moving market) flows into the screener by itself.
import type { HistoryRow } from '../../src/exchange/types.ts';

/** Rows enough to reach back one year (~261 weekdays) and cover 30 days: histories are generated
 * newest first, so the first N rows of a long history are the N-row history. */
export const SCREENER_HISTORY_ROWS = 300;

/** `YYYY-MM-DD` one year earlier (29 February → 28 February). */
function yearBefore(date: string): string {
  const [y, m, d] = date.split('-') as [string, string, string];
  const day = m === '02' && d === '29' ? '28' : d;
  return `${Number(y) - 1}-${m}-${day}`;
}

/**
 * The screener's 1-YEAR CHANGE (percent): the newest close against the last close on or before the
 * same day a year earlier. 0 when the history does not reach back a year, as the portal prints it
 * for a symbol listed less than a year (the service reports that 0 as null).
 */
export function change1yPct(history: readonly HistoryRow[]): number {
  const newest = history[0];
  if (newest?.close == null) return 0;
  const target = yearBefore(newest.date);
  const then = history.find((r) => r.date <= target);
  if (then?.close == null || then.close === 0) return 0;
  return (newest.close / then.close - 1) * 100;
}

/** The screener's 30-day average volume: the mean of the newest 30 trading days' volumes. */
export function volumeAvg30d(history: readonly HistoryRow[]): number {
  const days = history.slice(0, 30);
  if (days.length === 0) return 0;
  const total = days.reduce((sum, r) => sum + (r.volume ?? 0), 0);
  return Math.round((total / days.length) * 100) / 100;
}
