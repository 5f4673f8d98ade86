// The portal budget: the portal rate-limits this server's IP as a whole (~120
// fetches a minute got every client refused), so portal fetches are rationed per client IP and in
// total. Only fetches count; cache hits and single-flight waiters never do.
import { ExchangeUnavailableError, RateLimitedError } from '../errors.ts';
import type { WindowCounter } from './window-counter.ts';

export interface BudgetLimits {
  /** Portal fetches a minute one client IP may cause; 0 = unlimited. */
  perIp: number;
  /** Portal fetches a minute in total; 0 = unlimited. */
  global: number;
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
      scope: 'ip' | 'global' | 'proxy-ip' | 'proxy-in-flight' | 'spare',
    ) => void = () => {},
  ) {}

  /** Admits one portal fetch for `ctx` or throws the error the client should see. */
  async admit(ctx: Requester): Promise<Release> {
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
