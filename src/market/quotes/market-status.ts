// Where the exchange's trading day stands, from the same market clock that decides cache freshness
// (src/time/market-clock.ts), so the dashboard's "open"/"closed" and the service's behaviour agree.
import { karachiTime } from '../../time/karachi.ts';
import { isMarketOpen, nextSessionClose, nextSessionOpen, sessionsOfDay } from '../../time/market-clock.ts';
import type { MarketStatusT } from '../models/resources.ts';

// PSX runs a 15-minute pre-open (order entry, no matching) before the first session of each day.
const PRE_OPEN_MS = 15 * 60_000;

export interface MarketStatusOptions {
  /** CACHE_FOLLOW_MARKET_CLOCK: false means the service treats the market as open around the clock. */
  followMarketClock: boolean;
}

export function marketStatus(nowMs: number, opts: MarketStatusOptions): MarketStatusT {
  const sessions = sessionsOfDay(nowMs);
  const current = sessions.find((s) => s.open <= nowMs && nowMs < s.close);
  const first = sessions[0];
  let state: MarketStatusT['state'] = 'closed';
  if (!opts.followMarketClock || isMarketOpen(nowMs)) state = 'open';
  else if (first && nowMs < first.open && nowMs >= first.open - PRE_OPEN_MS) state = 'pre_open';
  else if (sessions.some((s) => s.close <= nowMs) && sessions.some((s) => s.open > nowMs)) state = 'break';
  return {
    state,
    now: karachiTime(nowMs),
    next_open: karachiTime(nextSessionOpen(nowMs)),
    next_close: karachiTime(nextSessionClose(nowMs)),
    session: current ? { open: karachiTime(current.open), close: karachiTime(current.close) } : null,
    clock_followed: opts.followMarketClock,
  };
}
