// The quote's background fetches of company pages (src/market/quotes/quote-extras.ts says why they are
// background): at most one at a time and PREFETCHES_PER_MINUTE a minute per service, counted by the
// limits' window counter on the service's clock, on a budget identity of their own so no caller's
// fetch budget pays for them. One per Datasets, so two services in one process never share a window.
import { MemoryWindowCounter } from '../limits/window-counter.ts';
import type { RequestContext } from './context.ts';
import { isPageFailure } from './partial.ts';

const PREFETCHES_PER_MINUTE = 10;
const MINUTE_MS = 60_000;
/** At most this many symbols' failures are remembered (the oldest is forgotten first). */
const FAILURES_KEPT = 1_000;
/** The budget identity of background company fetches (src/limits/portal-budget.ts counts per client IP). */
export const PREFETCH_CONTEXT: RequestContext = { clientIp: 'quote-extras-prefetch' };

export class CompanyPrefetch {
  private inFlight = false;
  private readonly window: MemoryWindowCounter;
  /** Why the last background fetch of a symbol's page failed; removed when one succeeds. */
  private readonly failed = new Map<string, string>();

  /** @param fetchCompany fetches (and caches) a symbol's company page. */
  constructor(
    private readonly fetchCompany: (symbol: string) => Promise<unknown>,
    now: () => number,
  ) {
    this.window = new MemoryWindowCounter(now);
  }

  /** Starts one background fetch of `symbol`'s page if the limits allow; true when one was started. */
  async start(symbol: string): Promise<boolean> {
    if (this.inFlight) return false;
    this.inFlight = true;
    const { count } = await this.window.hit('company-prefetch', MINUTE_MS);
    if (count > PREFETCHES_PER_MINUTE) {
      this.inFlight = false;
      return false;
    }
    // Failures are the cache's to log (a budget refusal, a portal error): the quote has answered.
    // A page failure is remembered so that the next quotes say why their extras are missing.
    this.fetchCompany(symbol).then(
      () => {
        this.failed.delete(symbol);
        this.inFlight = false;
      },
      (err: unknown) => {
        if (isPageFailure(err)) {
          this.failed.delete(symbol);
          if (this.failed.size >= FAILURES_KEPT)
            this.failed.delete(this.failed.keys().next().value as string);
          this.failed.set(symbol, err.message);
        }
        this.inFlight = false;
      },
    );
    return true;
  }

  /** Why the last background fetch of `symbol`'s page failed, or undefined. */
  failure(symbol: string): string | undefined {
    return this.failed.get(symbol);
  }
}
