import type { Cached, Provenance } from '../cache/types.ts';
import { karachiTime } from '../time/karachi.ts';
import { marketDataTime } from '../time/market-clock.ts';

/**
 * A market service's result: the resource in the API's shape, where its data came from, and its
 * key: what identifies this resource among all answers (the service's normalised inputs, so
 * `KSE-100` and `kse100` are one key). The responder caches the serialised answer under it.
 */
export interface Answer<T> {
  key: string;
  data: T;
  provenance: Provenance;
  /** Extra `meta` fields that describe this answer (e.g. how far an adjustment reaches); same per version. */
  meta?: Record<string, unknown>;
  /**
   * `meta.as_of`: the time the data describes, ISO 8601 with the market's offset (+05:00). The
   * page's own time where it prints one (the index-levels page's `As of …`); for market data
   * otherwise the fetch during a session, else the end of the last session (marketAsOf); for
   * filings and the listing, the fetch (fetchAsOf). It belongs to the cached data, so a stale
   * copy tells its age in the body.
   */
  asOf: string;
  /**
   * The order of each row's fields where it is not the objects' own: JavaScript puts keys that
   * look like array indices (a wide panel's column `786`) before every other key, so a wide
   * panel names `date` then its symbols here, and JSON and CSV follow it.
   */
  columns?: readonly string[];
}

/** `asOf`: the page's own time, when it prints one; otherwise the market data's (marketAsOf). */
export function answerFrom<S, T>(cached: Cached<S>, data: T, key: string, asOf?: string | null): Answer<T> {
  const { state, fetchedAt, freshUntil, version } = cached;
  return {
    key,
    data,
    provenance: { state, fetchedAt, freshUntil, version },
    asOf: asOf ?? marketAsOf(fetchedAt),
  };
}

/**
 * When market data fetched at `fetchedAt` (epoch ms) is from: the fetch during a session, else the
 * end of the last session (prices do not move between sessions; src/time/market-clock.ts).
 */
export function marketAsOf(fetchedAt: number): string {
  return karachiTime(marketDataTime(fetchedAt));
}

/** When data that changes at any hour (filings, the listing) is from: its fetch. */
export function fetchAsOf(fetchedAt: number): string {
  return karachiTime(fetchedAt);
}

/**
 * An answer's key from the resource's name, its normalised identifier(s) and its whole options
 * object: every option is in the key (sorted, absent ones left out), so a new query parameter
 * cannot be forgotten in it.
 */
export function answerKey(resource: string, ...parts: (string | object)[]): string {
  let key = resource;
  for (const part of parts) {
    if (typeof part === 'string') {
      key += `:${part}`;
      continue;
    }
    const entries = Object.entries(part)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    key += `?${entries.map(([k, v]) => `${k}=${String(v)}`).join('&')}`;
  }
  return key;
}

/** Raw counts and rupees into millions, without float noise. */
export function millions(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value) / 1e6;
}
