import type { HistoryRow } from '../exchange/types.ts';
import type { DeepReadonly } from './immutable.ts';

/** What a read found: fresh data (HIT), data fetched for this request (MISS), or an old copy (STALE). */
export type CacheState = 'HIT' | 'MISS' | 'STALE';

/** A dataset as cached: read-only all the way down (immutable.ts), since answers are memoised on it. */
export interface CacheEntry<T> {
  readonly value: DeepReadonly<T>;
  /** Epoch ms of the portal fetch that produced the value. */
  readonly fetchedAt: number;
  /** Epoch ms until which the value is fresh (judged at write time; see DatasetCache.judge). */
  readonly freshUntil: number;
}

/** Where an answer came from, for meta.cached and the HTTP caching headers. */
export interface Provenance {
  readonly state: CacheState;
  readonly fetchedAt: number;
  readonly freshUntil: number;
  /** Changes whenever the underlying data changes; keys serialised bytes and the ETag. */
  readonly version: string;
}

export interface Cached<T> extends Provenance {
  readonly value: DeepReadonly<T>;
}

/** Combines the provenance of an answer built from several datasets (a quote joins two pages). */
export function combine(parts: readonly Provenance[]): Provenance {
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

/**
 * `p` as a new provenance, fresh no later than `until` and with `mark` appended to its version: an
 * answer that lacks something is asked for again sooner and gets an ETag of its own.
 */
export function freshNoLaterThan(p: Provenance, until: number, mark = ''): Provenance {
  return { ...p, freshUntil: Math.min(p.freshUntil, until), version: p.version + mark };
}

/** A symbol's daily history as cached: newest first, and when the whole series was last fetched. */
export interface HistorySeries {
  rows: readonly HistoryRow[];
  /** Refreshes in between merge only the recent rows; a full refetch replaces the series. */
  fullFetchedAt: number;
}
