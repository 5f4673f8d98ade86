// The portal budget: the portal rate-limits this server's IP as a whole (~120
// fetches a minute got every client refused), so portal fetches are rationed per client IP and in
// total. Only fetches count; cache hits and single-flight waiters never do.
// Part of the global budget is a reserve for the pages a person waits on (the market watch and the
// screener behind every quote, company pages): the other pages — daily histories above all, which
// a cold ranking or the archiver fetches by the hundred — may use the rest only, so one bulk
// computation can never leave the quotes answering 503 for the rest of the minute.
import { ExchangeUnavailableError, RateLimitedError } from '../errors.ts';
import type { PageKind } from '../exchange/types.ts';
import type { WindowCounter } from './window-counter.ts';

/**
 * The page kinds the reserve is kept for: one page each behind what a person waits on — quotes and
 * the market watch, company pages, the listing, index levels and constituents, the sector page.
 * Not the per-symbol series (daily history, adjusted series, payouts, reports, intraday), which a
 * ranking, an overview sweep or the archiver fetch by the hundred.
 */
export const INTERACTIVE_PAGES: ReadonlySet<PageKind> = new Set<PageKind>([
  'market-watch',
  'screener',
  'company',
  'symbols',
  'index-levels',
  'index-constituents',
  'sector-summary',
]);

export interface BudgetLimits {
  /** Portal fetches a minute one client IP may cause; 0 = unlimited. */
  perIp: number;
  /** Portal fetches a minute in total; 0 = unlimited. */
  global: number;
  /** Of `global`, the fetches a minute only INTERACTIVE_PAGES may use; 0 = none kept. */
  interactiveReserve?: number;
  /** Stricter limits for fetches through a caller's proxy (X-Exchange-Proxy). */
  proxyPerIp: number;
  proxyMaxInFlight: number;
}

/** Who a portal fetch is for: the market's RequestContext is one. */
export interface Requester {
  clientIp: string;
  /** Set when the fetch goes through the caller's own proxy (X-Exchange-Proxy). */
  proxy?: unknown;
  /**
   * The reader's page a fetch is for (`stock:HBL`: the symbol page's overview, performance and
   * indicators): a client's fetches for one page count once a minute against the per-IP limit,
   * however many parts and requests the page makes (the global limit counts each).
   */
  page?: string;
  /**
   * A fetch fewer readers need (a page's lower parts, the archiver's backfill): made only while
   * less than SPARE_SHARE of the minute's global budget is spent, so readers' pages get the rest.
   */
  spare?: boolean;
}

/** The share of the global budget past which spare fetches wait for the next minute. */
export const SPARE_SHARE = 0.5;

/** Called when the fetch it admitted has finished. */
export type Release = () => void;

const MINUTE = 60_000;

export class PortalBudget {
  private proxiedInFlight = 0;

  constructor(
    private readonly counter: WindowCounter,
    private readonly limits: BudgetLimits,
    private readonly onReject: (
      scope: 'ip' | 'global' | 'global-bulk' | 'proxy-ip' | 'proxy-in-flight' | 'spare',
    ) => void = () => {},
  ) {}

  /**
   * Admits one portal fetch of a `page` for `ctx` or throws the error the client should see. A
   * page not in INTERACTIVE_PAGES is counted against the global budget less the reserve first, so
   * its refusals never spend the reserve.
   */
  async admit(ctx: Requester, page?: PageKind): Promise<Release> {
    const { perIp, global, proxyPerIp, proxyMaxInFlight } = this.limits;
    if (ctx.proxy) {
      if (this.proxiedInFlight >= proxyMaxInFlight) {
        this.onReject('proxy-in-flight');
        throw new RateLimitedError('too many proxied exchange fetches in flight; try again shortly', 1);
      }
      if (proxyPerIp > 0) {
        const { count, resetMs } = await this.counter.hit(`proxy-ip:${ctx.clientIp}`, MINUTE);
        if (count > proxyPerIp) {
          this.onReject('proxy-ip');
          throw new RateLimitedError(
            `exchange fetches through a caller proxy are limited to ${proxyPerIp} a minute per client`,
            seconds(resetMs),
          );
        }
      }
    }
    if (ctx.spare && global > 0) {
      const { count, resetMs } = await this.counter.peek('global', MINUTE);
      if (count >= Math.floor(global * SPARE_SHARE)) {
        this.onReject('spare');
        throw new ExchangeUnavailableError(
          "the exchange fetches left this minute are kept for the first parts of readers' pages; this waits for the next minute",
          seconds(resetMs),
        );
      }
    }
    if (perIp > 0) {
      const first =
        ctx.page === undefined ||
        (await this.counter.hit(`page:${ctx.clientIp}:${ctx.page}`, MINUTE)).count === 1;
      if (first) await this.chargeIp(ctx.clientIp, perIp, 'hit');
      else await this.chargeIp(ctx.clientIp, perIp, 'peek'); // the page is paid for, unless over since
    }
    const reserve = Math.min(this.limits.interactiveReserve ?? 0, global);
    if (global > 0 && reserve > 0 && (page === undefined || !INTERACTIVE_PAGES.has(page))) {
      const bulk = global - reserve;
      const { count, resetMs } = await this.counter.hit('global-bulk', MINUTE);
      if (count > bulk) {
        this.onReject('global-bulk');
        throw new ExchangeUnavailableError(
          `the server has used the exchange budget it allows for ${page ?? 'this'} pages this minute (${bulk} of ${global}; the rest is kept for quotes and company pages)`,
          seconds(resetMs),
        );
      }
    }
    if (global > 0) {
      const { count, resetMs } = await this.counter.hit('global', MINUTE);
      if (count > global) {
        this.onReject('global');
        throw new ExchangeUnavailableError(
          'the server has used its exchange budget for this minute',
          seconds(resetMs),
        );
      }
    }
    if (!ctx.proxy) return () => {};
    this.proxiedInFlight++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.proxiedInFlight--;
      }
    };
  }

  private async chargeIp(clientIp: string, perIp: number, how: 'hit' | 'peek'): Promise<void> {
    const { count, resetMs } = await this.counter[how](`ip:${clientIp}`, MINUTE);
    if (count > perIp) {
      this.onReject('ip');
      throw new RateLimitedError(
        `this client has caused ${perIp} exchange fetches this minute; cached data is still served`,
        seconds(resetMs),
      );
    }
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
