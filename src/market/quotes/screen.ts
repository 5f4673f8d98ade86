// The screener filtered and sorted: the screener table joined with today's change from the market
// watch (the same two cached pages as a quote), so a filter on price, valuation or the day's move
// costs no portal fetch beyond what the quote already reads. The screener is the primary page (its
// rows are the answer); the market watch is secondary: without it every row's change_pct is null
// (so a bound on it keeps no row) and `meta.missing` names `market_watch`.
import { NotFoundError, clientText } from '../../errors.ts';
import type { MarketWatchRow } from '../../exchange/types.ts';
import { combine } from '../../cache/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerKey, marketAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { resolveIndexCode } from '../listings/indices.ts';
import type { ScreenerRowT } from '../models/resources.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';
import { screener } from './screener.ts';
import { sectorKey, sectorSummary } from '../listings/sectors.ts';

/** A screener row with the day's change (null for a symbol not on today's market watch). */
export type ScreenedRowT = ScreenerRowT & { change_pct: number | null };

/** The numeric fields a screen can bound and sort by. */
export const SCREEN_FIELDS = [
  'price',
  'pe_ratio',
  'dividend_yield',
  'market_cap',
  'change_pct',
  'change_1y_pct',
  'volume_avg_30d',
] as const;
export type ScreenField = (typeof SCREEN_FIELDS)[number];

export interface ScreenQuery {
  /** A sector code (`0801`, `801`) or name (`automobile assembler`). */
  sector?: string;
  /** An index code: only its constituents (by the screener's own listed_in). */
  index?: string;
  /** Inclusive bounds by field; a row whose value is null fails any bound on that field. */
  min?: Partial<Record<ScreenField, number>>;
  max?: Partial<Record<ScreenField, number>>;
  sort?: ScreenField | 'symbol';
  order?: 'asc' | 'desc';
}

const changeBySymbol = memoByDataset(
  (rows: readonly MarketWatchRow[]) => new Map(rows.map((r) => [r.symbol, r.changePct] as const)),
);

const NO_CHANGES: ReadonlyMap<string, number | null> = new Map();

export async function screen(
  datasets: Datasets,
  query: ScreenQuery,
  ctx: RequestContext,
): Promise<Answer<ScreenedRowT[]>> {
  const [table, marketWatch] = await Promise.all([
    screener(datasets, ctx),
    secondary('market_watch', datasets.marketWatch(ctx)),
  ]);
  const sector = query.sector === undefined ? undefined : await sectorCode(datasets, query.sector, ctx);
  let index: string | undefined;
  if (query.index !== undefined) {
    index = resolveIndexCode(query.index);
    if (index === undefined) throw new NotFoundError(`index ${clientText(query.index)} not found`);
  }
  const changes = marketWatch instanceof Missing ? NO_CHANGES : changeBySymbol(marketWatch.value);
  const rows: ScreenedRowT[] = [];
  for (const row of table.data) {
    if (sector !== undefined && row.sector !== sector) continue;
    if (index !== undefined && !(row.listed_in ?? '').split(',').includes(index)) continue;
    const screened: ScreenedRowT = { ...row, change_pct: changes.get(row.symbol) ?? null };
    if (withinBounds(screened, query)) rows.push(screened);
  }
  const sort = query.sort ?? 'symbol';
  const sign = (query.order ?? (sort === 'symbol' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  rows.sort((a, b) => {
    const x = a[sort];
    const y = b[sort];
    // Rows without the value go last whichever the order: they are not the top or the bottom.
    if (x === null || y === null) return x === y ? bySymbol(a, b) : x === null ? 1 : -1;
    return (x < y ? -sign : x > y ? sign : 0) || bySymbol(a, b);
  });
  const missing = lacking([marketWatch]);
  const missingParts = missingMeta(missing);
  return {
    key: answerKey('screen', { ...query, min: JSON.stringify(query.min), max: JSON.stringify(query.max) }),
    data: rows,
    provenance: degraded(combine(had([table.provenance, marketWatch])), missing),
    asOf: marketWatch instanceof Missing ? table.asOf : marketAsOf(marketWatch.fetchedAt),
    ...(missingParts ? { meta: { missing: missingParts } } : {}),
  };
}

function bySymbol(a: { symbol: string }, b: { symbol: string }): number {
  return a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;
}

function withinBounds(row: ScreenedRowT, query: ScreenQuery): boolean {
  for (const [field, bound] of Object.entries(query.min ?? {}) as [ScreenField, number][]) {
    const value = row[field];
    if (value === null || value < bound) return false;
  }
  for (const [field, bound] of Object.entries(query.max ?? {}) as [ScreenField, number][]) {
    const value = row[field];
    if (value === null || value > bound) return false;
  }
  return true;
}

/** The screener's numeric sector code for a code or a name; not_found for neither. */
async function sectorCode(datasets: Datasets, raw: string, ctx: RequestContext): Promise<number> {
  const trimmed = raw.trim();
  if (/^\d{1,4}$/.test(trimmed)) return Number(trimmed);
  const key = sectorKey(trimmed);
  const found = (await sectorSummary(datasets, ctx)).data.find((s) => sectorKey(s.sector_name) === key);
  if (found === undefined || !/^\d+$/.test(found.sector_code))
    throw new NotFoundError(`sector ${clientText(raw)} not found`);
  return Number(found.sector_code);
}
