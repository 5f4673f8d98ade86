// Daily index levels from the exchange's EOD series for the index code: about
// five years, no high or low. The range is cut here from the cached series, as for a stock.
import { BadRequestError, NotFoundError } from '../../errors.ts';
import type { IndexSeriesRow } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { HistoryQuery } from './history.ts';
import { resolveIndexCode } from '../listings/indices.ts';
import type { IndexHistoricalRowT } from '../models/intraday.ts';

const indexRows = memoByDataset((oldestFirst: readonly IndexSeriesRow[]): IndexHistoricalRowT[] =>
  oldestFirst.map((r) => ({
    date: r.date,
    open: r.open,
    high: null,
    low: null,
    close: r.close,
    volume: r.volume === null ? null : Math.round(r.volume),
  })),
);

export async function indexHistorical(
  datasets: Datasets,
  name: string,
  query: HistoryQuery,
  ctx: RequestContext,
): Promise<Answer<IndexHistoricalRowT[]>> {
  const code = resolveIndexCode(name);
  if (!code) throw new NotFoundError(`index ${name} not found`);
  if (query.start && query.end && query.start > query.end) {
    throw new BadRequestError(`start (${query.start}) is after end (${query.end})`);
  }
  const cached = await datasets.indexSeries(code, ctx);
  const all = indexRows(cached.value);
  // The whole series is the cached array itself (one identity per version: analytics memoise on it).
  let rows =
    query.start || query.end
      ? all.filter((r) => (!query.start || r.date >= query.start) && (!query.end || r.date <= query.end))
      : all;
  if (query.limit !== undefined && rows.length > query.limit) rows = rows.slice(rows.length - query.limit);
  if (query.order === 'desc') rows = [...rows].reverse();
  return answerFrom(
    cached,
    rows,
    answerKey('index-historical', code, { ...query, order: query.order ?? 'asc' }),
  );
}
