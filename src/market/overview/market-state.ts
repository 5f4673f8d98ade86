// The market clock as an overview carries it: GET /market/status without `now`, so it belongs to
// the cached answer, which is versioned by it and fresh no longer than until it next changes.
import { marketStatus } from '../quotes/market-status.ts';
import type { MarketStateT } from '../models/overview.ts';

export interface OverviewClock {
  now: () => number;
  followMarketClock: boolean;
}

export function marketState(clock: OverviewClock): {
  state: MarketStateT;
  version: string;
  changesAt: number;
} {
  const { now: _now, ...state } = marketStatus(clock.now(), { followMarketClock: clock.followMarketClock });
  const next = [state.next_open, state.next_close, state.session?.close].flatMap((t) =>
    t ? [Date.parse(t)] : [],
  );
  return {
    state,
    version: `${state.state}@${state.next_open}/${state.next_close}`,
    changesAt: Math.min(...next),
  };
}
