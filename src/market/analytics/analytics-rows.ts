// The daily series the analytics read, from the cached datasets: a stock's rows (adjusted by
// default, through the adjusted-history service and its evidence rules) and an index's levels.
// Each series keeps its array identity per dataset version, which is what the analytics memoise on.
import { withClose, type Bar } from '../../analytics/series.ts';
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
