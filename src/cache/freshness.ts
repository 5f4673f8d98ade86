// The freshness policy as the cache sees it: a deadline for a dataset fetched at a given time.
// The rules themselves (market sessions, TTLs) live in market-clock.ts.
import { freshUntil, type FreshnessKind, type MarketClockConfig } from '../time/market-clock.ts';

export type { FreshnessKind };

export interface FreshnessPolicy {
  /** Epoch ms until which a dataset of `kind` fetched at `fetchedAt` is fresh. */
  freshUntil(kind: FreshnessKind, fetchedAt: number, newestRowDate?: string): number;
}

export function marketClockPolicy(cfg: MarketClockConfig): FreshnessPolicy {
  return { freshUntil: (kind, fetchedAt, newestRowDate) => freshUntil(kind, fetchedAt, cfg, newestRowDate) };
}
