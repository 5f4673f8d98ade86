// The daily series the analytics read, from the cached datasets: a stock's rows (adjusted by
// default, through the adjusted-history service and its evidence rules) and an index's levels.
// Each series keeps its array identity per dataset version, which is what the analytics memoise on.
import { lastOnOrBefore } from '../../analytics/dates.ts';
import { withClose, type Bar } from '../../analytics/series.ts';
import { BadRequestError, NotFoundError } from '../../errors.ts';
import { adjustedHistorical, type AdjustmentMeta } from '../corporate-actions/adjusted-history.ts';
import type { Answer } from '../answer.ts';
import { memoByDataset } from '../../cache/memo.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { historical } from '../history/history.ts';
import { indexHistorical } from '../history/index-history.ts';

export interface Series {
  answer: Answer<unknown>;
  /** Rows with a close, oldest first; the same array while the dataset version is the same. */
  bars: readonly Bar[];
  dates: readonly string[];
  adjustment: AdjustmentMeta | null;
}

interface Dated {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

const barsOf = memoByDataset((rows: readonly Dated[]) => {
  const bars: Bar[] = withClose(rows);
  return { bars, dates: bars.map((b) => b.date) };
});

export interface StockSeriesOptions {
  adjusted: boolean;
  dividends: boolean;
}

export async function stockSeries(
  datasets: Datasets,
  symbol: string,
  opts: StockSeriesOptions,
  ctx: RequestContext,
): Promise<Series> {
  const answer = opts.adjusted
    ? await adjustedHistorical(datasets, symbol, { dividends: opts.dividends }, ctx)
    : await historical(datasets, symbol, {}, ctx);
  const { bars, dates } = barsOf(answer.data as Dated[]);
  const adjustment = (answer.meta?.adjustment as AdjustmentMeta | undefined) ?? null;
  return { answer, bars, dates, adjustment };
}

export async function indexSeriesOf(datasets: Datasets, name: string, ctx: RequestContext): Promise<Series> {
  const answer = await indexHistorical(datasets, name, {}, ctx);
  const { bars, dates } = barsOf(answer.data as Dated[]);
  return { answer, bars, dates, adjustment: null };
}

/** `end=` checked against today in Karachi: a day after today has no close yet. */
export function checkEnd(end: string, today: string): void {
  if (end > today) {
    throw new BadRequestError(`end ${end} is in the future (today in Karachi is ${today})`);
  }
}

/**
 * The series as of `end` (inclusive): its rows dated on or before it, or the series itself when
 * none is later. `at` is the index of its last row, -1 when it has none (which the caller names).
 */
export function cutAt<S extends { bars: readonly Bar[]; dates: readonly string[] }>(
  s: S,
  end: string | undefined,
): S & { at: number } {
  const n = s.bars.length;
  if (end === undefined || n === 0 || s.dates[n - 1]! <= end) return { ...s, at: n - 1 };
  const at = lastOnOrBefore(s.dates, end);
  return { ...s, bars: s.bars.slice(0, at + 1), dates: s.dates.slice(0, at + 1), at };
}

/** A 404 for a series with no row on or before `end`, naming where it starts. */
export function noRowBy(name: string, dates: readonly string[], end: string): NotFoundError {
  return new NotFoundError(
    dates.length === 0
      ? `${name} has no daily history`
      : `${name} has no close on or before ${end}: its daily history starts on ${dates[0]}`,
  );
}
