// Where rankings get their members' daily series. Today: each member's own history through the
// cached market services (adjusted, one portal fetch per cold dataset, within the portal budget);
// a whole-market archive can stand in by implementing the same interface. A member whose series
// cannot be had is reported with the reason, never dropped silently.
import type { Period } from '../../analytics/periods.ts';
import { RateLimitedError, ServiceError } from '../../errors.ts';
import { stockSeries, type Series } from './analytics-rows.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';

/** Where a member's series came from: the archive, or the portal through the cached datasets. */
export type MemberSource = 'archive' | 'portal';

export type MemberSeries =
  | { symbol: string; series: Series; source?: MemberSource }
  | { symbol: string; reason: string; source?: MemberSource };

export interface MemberSeriesSource {
  /**
   * Each symbol's adjusted daily series, or why it has none, in the symbols' order. With `period`
   * a source may leave out rows older than that period can reach from today.
   */
  load(symbols: readonly string[], ctx: RequestContext, period?: Period): Promise<MemberSeries[]>;
}

// Portal fetches for one ranking run a few at a time: the portal rate-limits this server's IP.
const CONCURRENCY = 4;

export function historySource(datasets: Datasets): MemberSeriesSource {
  return {
    async load(symbols, ctx) {
      const out = new Array<MemberSeries>(symbols.length);
      let next = 0;
      let spent: string | null = null;
      const worker = async () => {
        while (next < symbols.length) {
          const k = next++;
          const symbol = symbols[k]!;
          if (spent !== null) {
            out[k] = { symbol, reason: spent };
            continue;
          }
          try {
            out[k] = {
              symbol,
              series: await stockSeries(datasets, symbol, { adjusted: true, dividends: false }, ctx),
            };
          } catch (err) {
            if (err instanceof RateLimitedError) {
              // Once the budget is spent, the remaining members are not asked for (and say why).
              spent = `not fetched: the exchange-fetch budget is spent (${err.message}); retry in ${err.retryAfter ?? 60} s`;
              out[k] = { symbol, reason: spent };
            } else if (err instanceof ServiceError) {
              out[k] = { symbol, reason: err.message };
            } else throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, symbols.length) }, worker));
      return out;
    },
  };
}
