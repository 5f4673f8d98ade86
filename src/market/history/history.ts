// Daily history: the portal sends a symbol's whole series newest first (its date fields are
// ignored), so the range is cut here from the cached series.
import { BadRequestError, NotFoundError } from '../../errors.ts';
import type { HistoryRow } from '../../exchange/types.ts';
import { flagAnomalies } from '../anomalies.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { HistoricalRowT } from '../models/resources.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

export interface HistoryQuery {
  /** Inclusive, YYYY-MM-DD. */
  start?: string;
  /** Inclusive, YYYY-MM-DD. */
  end?: string;
  order?: 'asc' | 'desc';
  /** The newest N rows of the range, still in the chosen order. */
  limit?: number;
}

/** Oldest first, flagged once per cached series. */
export const historyRows = memoByDataset((newestFirst: readonly HistoryRow[]): HistoricalRowT[] =>
  flagAnomalies([...newestFirst].reverse()).map((row) => ({
    date: row.date,
    open: row.open,
    high: row.high,
    low: row.low,
    close: row.close,
    volume: row.volume === null ? null : Math.round(row.volume),
    is_anomaly: row.is_anomaly,
    anomaly_reasons: row.anomaly_reasons,
  })),
);

export async function historical(
  datasets: Datasets,
  rawSymbol: string,
  query: HistoryQuery,
  ctx: RequestContext,
): Promise<Answer<HistoricalRowT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  if (query.start && query.end && query.start > query.end) {
    throw new BadRequestError(`start (${query.start}) is after end (${query.end})`);
  }
  const cached = await datasets.history(symbol, ctx);
  const all = historyRows(cached.value.rows);
  if (all.length === 0 && !(await isKnownSymbol(datasets, symbol, ctx))) {
    throw new NotFoundError(`${symbol} not found`);
  }
  const key = answerKey('historical', symbol, { ...query, order: query.order ?? 'asc' });
  return answerFrom(cached, selectRange(all, query), key);
}

/** The query's range, limit and order over rows sorted oldest first. */
export function selectRange<R extends { date: string }>(all: R[], query: HistoryQuery): R[] {
  const from = lowerBound(all, query.start);
  const to = upperBound(all, query.end);
  // The whole series (the common request) is the cached array itself: no per-request copy of
  // 2,000+ rows, which a burst of 1,000 waiting requests would otherwise make 1,000 times.
  let rows = from === 0 && to === all.length ? all : all.slice(from, to);
  if (query.limit !== undefined && rows.length > query.limit) rows = rows.slice(rows.length - query.limit);
  if (query.order === 'desc') rows = rows === all ? [...all].reverse() : rows.reverse();
  return rows;
}

/** First index whose date is ≥ start (rows are sorted oldest first; ISO dates sort as strings). */
function lowerBound(rows: { date: string }[], start: string | undefined): number {
  if (!start) return 0;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.date < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose date is > end. */
function upperBound(rows: { date: string }[], end: string | undefined): number {
  if (!end) return rows.length;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.date <= end) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
