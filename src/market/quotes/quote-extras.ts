// The quote's extras (circuit breaker, day and 52-week range, bid/ask, VaR, haircut, YTD change)
// come from the symbol's company page, a page per symbol. A quote must never wait for that page or
// fail because of it, and a sweep of quotes must not become a sweep of company pages (the portal
// rate-limits this server's IP as a whole). So:
// - a fresh company page in memory → the extras, and the answer's version and freshness include it;
// - otherwise the extras are null, one background fetch of the page is started (at most one at a
//   time and a few a minute per service, on a budget identity of its own so the caller's fetch
//   budget is untouched: src/market/company-prefetch.ts), and that answer stays fresh for
//   PENDING_FRESH_MS at most, so repeats within a burst are still served from cache (the front
//   door's replay, src/http/pipeline/front-door.ts) while the extras appear within seconds;
// - a caller with its own proxy (X-Exchange-Proxy) never triggers one: its fetches go its way only.
// Where the company page and the market watch both give a value (today's low and high), the newer
// page wins: the company page when it was fetched after the market watch, else the market watch.
// When the last background fetch of a symbol's page failed, the quote says so: `meta.missing`
// names the `extras` and the portal's failure (src/market/partial.ts), until a fetch succeeds.
import { memoByDataset } from '../../cache/memo.ts';
import { combine, type Cached } from '../../cache/types.ts';
import { degraded, type MissingPart } from '../partial.ts';
import type { CompanyPage } from '../../exchange/types.ts';
import type { Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { QuoteT } from '../models/resources.ts';

const PENDING_FRESH_MS = 2_000;

export type QuoteExtras = Pick<
  QuoteT,
  | 'circuit_breaker_low'
  | 'circuit_breaker_high'
  | 'day_range_low'
  | 'day_range_high'
  | 'week52_low'
  | 'week52_high'
  | 'bid_price'
  | 'bid_volume'
  | 'ask_price'
  | 'ask_volume'
  | 'var'
  | 'haircut'
  | 'ytd_change_pct'
  | 'extras_as_of'
>;

export const NO_EXTRAS: QuoteExtras = {
  circuit_breaker_low: null,
  circuit_breaker_high: null,
  day_range_low: null,
  day_range_high: null,
  week52_low: null,
  week52_high: null,
  bid_price: null,
  bid_volume: null,
  ask_price: null,
  ask_volume: null,
  var: null,
  haircut: null,
  ytd_change_pct: null,
  extras_as_of: null,
};

/** `meta.missing` of a quote whose company page could not be had, or undefined. */
function missingExtras(datasets: Datasets, symbol: string): MissingPart[] | undefined {
  const reason = datasets.companyPrefetch.failure(symbol);
  return reason === undefined ? undefined : [{ part: 'extras', reason: `the company page: ${reason}` }];
}

function extrasOf(page: CompanyPage, companyIsNewer: boolean, base: QuoteT): QuoteExtras {
  const s = page.stats;
  const dayLow = companyIsNewer ? (s?.dayRangeLow ?? base.low) : (base.low ?? s?.dayRangeLow ?? null);
  const dayHigh = companyIsNewer ? (s?.dayRangeHigh ?? base.high) : (base.high ?? s?.dayRangeHigh ?? null);
  return {
    circuit_breaker_low: s?.circuitBreakerLow ?? null,
    circuit_breaker_high: s?.circuitBreakerHigh ?? null,
    day_range_low: dayLow ?? null,
    day_range_high: dayHigh ?? null,
    week52_low: s?.week52Low ?? null,
    week52_high: s?.week52High ?? null,
    bid_price: s?.bidPrice ?? null,
    bid_volume: s?.bidVolume ?? null,
    ask_price: s?.askPrice ?? null,
    ask_volume: s?.askVolume ?? null,
    var: s?.var ?? null,
    haircut: s?.haircut ?? null,
    ytd_change_pct: s?.ytdChangePct ?? null,
    extras_as_of: page.quote?.asOf ?? null,
  };
}

/** The quote with the page's extras, once per company page version and quote answer. */
const withExtras = memoByDataset(
  (company: Cached<CompanyPage>, base: Answer<QuoteT>, marketWatchFetchedAt: number): Answer<QuoteT> => ({
    key: base.key,
    asOf: base.asOf,
    data: { ...base.data, ...extrasOf(company.value, company.fetchedAt > marketWatchFetchedAt, base.data) },
    provenance: combine([base.provenance, company]),
  }),
);

/**
 * The quote with its extras. `base` carries NO_EXTRAS; `marketWatchFetchedAt` decides which page is
 * newer where both give a value.
 */
export async function addQuoteExtras(
  datasets: Datasets,
  symbol: string,
  base: Answer<QuoteT>,
  marketWatchFetchedAt: number,
  ctx: RequestContext,
): Promise<Answer<QuoteT>> {
  const company = await datasets.freshCompany(symbol);
  if (company === undefined) {
    const missing = missingExtras(datasets, symbol);
    const answer = missing === undefined ? base : withMissing(base, missing);
    if (ctx.proxy !== undefined || !(await datasets.companyPrefetch.start(symbol))) return answer;
    // The extras are on their way: this answer must not be cached or replayed for long.
    const freshUntil = Math.min(answer.provenance.freshUntil, datasets.now() + PENDING_FRESH_MS);
    return { ...answer, provenance: { ...answer.provenance, freshUntil } };
  }
  if (company.value === null) return base;
  return withExtras(company as Cached<CompanyPage>, base, marketWatchFetchedAt);
}

/** The quote without its extras, saying why. */
function withMissing(base: Answer<QuoteT>, missing: MissingPart[]): Answer<QuoteT> {
  return {
    ...base,
    provenance: degraded(base.provenance, missing),
    meta: {
      ...base.meta,
      missing: [...((base.meta?.missing as MissingPart[] | undefined) ?? []), ...missing],
    },
  };
}
