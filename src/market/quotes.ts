// A quote joins the screener row (valuation, 30-day volume, 1-year change) with the market-watch
// row (today's LDCP, OHLC, change): upstream.md §2.
import { combine, type Cached } from '../cache/types.ts';
import { NotFoundError } from '../errors.ts';
import type { MarketWatchRow, ScreenerRow } from '../exchange/types.ts';
import { derived, round4, type Answer } from './answer.ts';
import type { RequestContext } from './context.ts';
import type { Datasets } from './datasets.ts';
import type { QuoteT } from './models.ts';
import { normaliseSymbol } from './symbols.ts';

const bySymbol = derived(
  <R extends { symbol: string }>(rows: R[]) => new Map(rows.map((r) => [r.symbol, r])),
);

// While both datasets are fresh the cache hands out the same Cached objects, so a symbol's quote is
// built once per pair of dataset versions (the hot path of the API) and collected with them.
const quotesOf = derived((_screener: Cached<ScreenerRow[]>) =>
  derived((_marketWatch: Cached<MarketWatchRow[]>) => new Map<string, Answer<QuoteT>>()),
);

export async function quote(
  datasets: Datasets,
  rawSymbol: string,
  ctx: RequestContext,
): Promise<Answer<QuoteT>> {
  const symbol = normaliseSymbol(rawSymbol);
  const [screener, marketWatch] = await Promise.all([datasets.screener(ctx), datasets.marketWatch(ctx)]);
  const known = quotesOf(screener)(marketWatch);
  const held = known.get(symbol);
  if (held !== undefined) return held;
  const sc = bySymbol(screener.value).get(symbol) as ScreenerRow | undefined;
  const mw = bySymbol(marketWatch.value).get(symbol) as MarketWatchRow | undefined;
  if (!sc && !mw) throw new NotFoundError(`${symbol} not found`);
  const data: QuoteT = {
    symbol,
    name: sc?.name ?? mw?.name ?? null,
    sector_code: sc?.sectorCode ?? mw?.sectorCode ?? null,
    listed_in: sc?.listedIn ?? mw?.listedIn ?? [],
    price: mw?.current ?? sc?.price ?? null,
    market_cap: sc?.marketCap ?? null,
    pe_ratio: sc?.peRatio ?? null,
    dividend_yield: sc?.dividendYield ?? null,
    free_float: sc?.freeFloat ?? null,
    volume_avg_30d: sc?.volumeAvg30d ?? null,
    change_1y_pct: round4(sc?.change1yPct ?? null),
    ldcp: mw?.ldcp ?? null,
    open: mw?.open ?? null,
    high: mw?.high ?? null,
    low: mw?.low ?? null,
    volume: mw?.volume ?? null,
    change: round4(mw?.change ?? null),
    change_pct: round4(mw?.changePct ?? sc?.changePct ?? null),
  };
  const answer = { data, provenance: combine([screener, marketWatch]) };
  // Only symbols that exist are kept, so the map is bounded by the listing.
  known.set(symbol, answer);
  return answer;
}

/** At most this many symbols in one batch (issue #18): a URL stays well under common limits. */
export const MAX_BATCH_SYMBOLS = 100;

/**
 * Quotes of many symbols in the order asked (each once) from one read of each page, however many
 * symbols: the same two cached datasets as the single quote. Unknown symbols go to `not_found`.
 */
export async function quotes(
  datasets: Datasets,
  rawSymbols: readonly string[],
  ctx: RequestContext,
): Promise<Answer<QuoteT[]>> {
  const symbols = [...new Set(rawSymbols.map(normaliseSymbol).filter((s) => s !== ''))];
  const [screener, marketWatch] = await Promise.all([datasets.screener(ctx), datasets.marketWatch(ctx)]);
  const data: QuoteT[] = [];
  const notFound: string[] = [];
  for (const symbol of symbols) {
    try {
      data.push((await quote(datasets, symbol, ctx)).data);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      notFound.push(symbol);
    }
  }
  return { data, provenance: combine([screener, marketWatch]), meta: { not_found: notFound } };
}
