import type { HistoryRow } from '../exchange/types.ts';

/** What a read found: fresh data (HIT), data fetched for this request (MISS), or an old copy (STALE). */
export type CacheState = 'HIT' | 'MISS' | 'STALE';

export interface CacheEntry<T> {
  value: T;
  /** Epoch ms of the portal fetch that produced the value. */
  fetchedAt: number;
  /** Epoch ms until which the value is fresh (judged at write time; see DatasetCache.judge). */
  freshUntil: number;
}

/** Where an answer came from, for meta.cached and the HTTP caching headers. */
export interface Provenance {
  state: CacheState;
  fetchedAt: number;
  freshUntil: number;
  /** Changes whenever the underlying data changes; keys serialised bytes and the ETag. */
  version: string;
}

export interface Cached<T> extends Provenance {
  value: T;
}

/** Combines the provenance of an answer built from several datasets (a quote joins two pages). */
export function combine(parts: Provenance[]): Provenance {
  let state: CacheState = 'HIT';
  if (parts.some((p) => p.state === 'STALE')) state = 'STALE';
  else if (parts.some((p) => p.state === 'MISS')) state = 'MISS';
  return {
    state,
    fetchedAt: Math.min(...parts.map((p) => p.fetchedAt)),
    freshUntil: Math.min(...parts.map((p) => p.freshUntil)),
    version: parts.map((p) => p.version).join('+'),
  };
}

/** A symbol's daily history as cached: newest first, and when the whole series was last fetched. */
export interface HistorySeries {
  rows: HistoryRow[];
  /** Refreshes in between merge only the recent rows; a full refetch replaces the series. */
  fullFetchedAt: number;
}
