// A quote joins the screener row (valuation, 30-day volume, 1-year change) with the market-watch
// row (today's LDCP, OHLC, change). The market watch is the primary page: it dates the quote and
// gives its price, and without it the quote fails. The screener is secondary: when it cannot be
// had the quote of a symbol on the market watch is served with null valuation fields and
// `meta.missing` naming `screener`; a symbol not on the market watch then has no quote (not_found
// in a batch), since only the screener could say it was listed but not traded.
import { createHash } from 'node:crypto';
import { combine, type Cached, type Provenance } from '../../cache/types.ts';
import { NotFoundError } from '../../errors.ts';
import type { MarketWatchRow, ScreenerRow } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerKey, marketAsOf, type Answer } from '../answer.ts';
import { zeroIsMissing } from '../no-value.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { QuoteT } from '../models/resources.ts';
import { degraded, lacking, Missing, missingMeta, secondary, type MissingPart } from '../partial.ts';
import { addQuoteExtras, NO_EXTRAS } from './quote-extras.ts';
import { normaliseSymbol } from '../symbols.ts';

const bySymbol = memoByDataset(
  <R extends { symbol: string }>(rows: readonly R[]) => new Map(rows.map((r) => [r.symbol, r])),
);

// While both datasets are fresh the cache hands out the same Cached objects, so a symbol's quote is
// built once per pair of dataset versions (the hot path of the API) and collected with them.
const quotesOf = memoByDataset((_screener: Cached<ScreenerRow[]>) =>
  memoByDataset((_marketWatch: Cached<MarketWatchRow[]>) => new Map<string, Answer<QuoteT>>()),
);

export async function quote(
  datasets: Datasets,
  rawSymbol: string,
  ctx: RequestContext,
): Promise<Answer<QuoteT>> {
  const [screener, marketWatch] = await Promise.all([
    secondary('screener', datasets.screener(ctx)),
    datasets.marketWatch(ctx),
  ]);
  return quoteFrom(datasets, normaliseSymbol(rawSymbol), screener, marketWatch, ctx);
}

/** A symbol's quote from the pages read (a batch reads them once, however many symbols). */
async function quoteFrom(
  datasets: Datasets,
  symbol: string,
  screener: Cached<ScreenerRow[]> | Missing,
  marketWatch: Cached<MarketWatchRow[]>,
  ctx: RequestContext,
): Promise<Answer<QuoteT>> {
  // Only a quote of both pages is kept: one without the screener is made again (rarely needed).
  const known = screener instanceof Missing ? undefined : quotesOf(screener)(marketWatch);
  const made = known?.get(symbol);
  if (made !== undefined) return addQuoteExtras(datasets, symbol, made, marketWatch.fetchedAt, ctx);
  const sc =
    screener instanceof Missing
      ? undefined
      : (bySymbol(screener.value).get(symbol) as ScreenerRow | undefined);
  const mw = bySymbol(marketWatch.value).get(symbol) as MarketWatchRow | undefined;
  if (!mw && (screener instanceof Missing || !sc)) throw await notQuoted(datasets, symbol, ctx);
  // The price and today's trading come from the market watch when the symbol is on it.
  const asOf = marketAsOf(mw || screener instanceof Missing ? marketWatch.fetchedAt : screener.fetchedAt);
  const listedIn = sc?.listedIn ?? mw?.listedIn ?? [];
  const data: QuoteT = {
    symbol,
    name: sc?.name ?? mw?.name ?? null,
    sector_code: sc?.sectorCode ?? mw?.sectorCode ?? null,
    // The screener's form (the spec's), so both endpoints say it alike.
    listed_in: listedIn.length > 0 ? listedIn.join(',') : null,
    price: zeroIsMissing(mw?.current ?? sc?.price),
    market_cap: zeroIsMissing(sc?.marketCap),
    pe_ratio: zeroIsMissing(sc?.peRatio),
    dividend_yield: sc?.dividendYield ?? null,
    free_float: zeroIsMissing(sc?.freeFloat),
    volume_avg_30d: sc?.volumeAvg30d ?? null,
    change_1y_pct: zeroIsMissing(sc?.change1yPct),
    ldcp: zeroIsMissing(mw?.ldcp),
    open: zeroIsMissing(mw?.open),
    high: zeroIsMissing(mw?.high),
    low: zeroIsMissing(mw?.low),
    // Not on the market watch: not traded in the session the board describes. The portal's sector
    // tables show such a symbol as a `zero` row (volume 0, change 0, counted unchanged) and its
    // screener prints a 0 % change, so the three say the same here: no trade, unchanged.
    volume: mw ? (mw.volume ?? null) : 0,
    change: mw ? (mw.change ?? null) : 0,
    change_pct: mw ? (mw.changePct ?? sc?.changePct ?? null) : 0,
    ...NO_EXTRAS,
    as_of: asOf,
  };
  const missing = screener instanceof Missing ? [screener] : [];
  const missingParts = missingMeta(missing);
  const answer: Answer<QuoteT> = {
    key: answerKey('quote', symbol),
    data,
    provenance: degraded(
      combine(screener instanceof Missing ? [marketWatch] : [screener, marketWatch]),
      missing,
    ),
    asOf,
    ...(missingParts ? { meta: { missing: missingParts } } : {}),
  };
  // Only symbols that exist are kept, so the map is bounded by the listing.
  known?.set(symbol, answer);
  return addQuoteExtras(datasets, symbol, answer, marketWatch.fetchedAt, ctx);
}

/**
 * Why a symbol has no quote: unknown to the portal, or listed but not an equity on its boards (a
 * debt instrument such as a TFC or sukuk is listed on /symbols but has no screener or market-watch
 * row), so that every symbol /stocks lists gets an answer that says why.
 */
async function notQuoted(datasets: Datasets, symbol: string, ctx: RequestContext): Promise<NotFoundError> {
  const listed = (await datasets.symbols(ctx)).value.find((s) => s.symbol === symbol);
  if (listed === undefined) return new NotFoundError(`${symbol} not found`);
  if (listed.isDebt) {
    return new NotFoundError(
      `${symbol} is a listed debt instrument (${listed.name}): the exchange publishes no equity quote for it; its debt-market quote is at /debt/${symbol}/quote`,
    );
  }
  return new NotFoundError(`${symbol} is listed, but the exchange's boards carry no quote for it today`);
}

/** At most this many symbols in one batch: a URL stays well under common limits. */
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
  const [screener, marketWatch] = await Promise.all([
    secondary('screener', datasets.screener(ctx)),
    datasets.marketWatch(ctx),
  ]);
  const data: QuoteT[] = [];
  const notFound: string[] = [];
  // Each quote's own provenance is in the batch's: its company page's version, and the short
  // freshness of one whose extras are on their way, so the batch shows the extras when the single
  // quote does rather than after the market watch's whole freshness window.
  const parts: Provenance[] = screener instanceof Missing ? [marketWatch] : [screener, marketWatch];
  // The screener missing is said once for the batch; a quote whose company page could not be had
  // says so as the single quote does, with its symbol.
  const missing: MissingPart[] = missingMeta(lacking([screener])) ?? [];
  for (const symbol of symbols) {
    try {
      const one = await quoteFrom(datasets, symbol, screener, marketWatch, ctx);
      data.push(one.data);
      parts.push(one.provenance);
      for (const m of (one.meta?.missing as MissingPart[] | undefined) ?? []) {
        if (m.part === 'screener') continue;
        missing.push({ part: m.part, reason: `${symbol}: ${m.reason}` });
      }
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      notFound.push(symbol);
    }
  }
  return {
    key: answerKey('quotes', symbols.join(',')),
    data,
    provenance: batchProvenance(parts),
    asOf: marketAsOf(marketWatch.fetchedAt),
    meta: { not_found: notFound, ...(missing.length > 0 ? { missing } : {}) },
  };
}

/** The parts' provenance with one short version (a hundred quotes' versions joined are long). */
function batchProvenance(parts: Provenance[]): Provenance {
  const combined = combine(parts);
  return { ...combined, version: createHash('sha1').update(combined.version).digest('base64url') };
}
