import type { Cached, Provenance } from '../cache/types.ts';

/** A market service's result: the resource in the API's shape, and where its data came from. */
export interface Answer<T> {
  data: T;
  provenance: Provenance;
  /**
   * `meta.as_of`: the time the data describes, ISO 8601 with the market's offset (+05:00). The
   * page's own time where it prints one (the index-levels page's `As of …`), else the time the
   * portal was fetched. It belongs to the cached data, so a stale copy tells its age in the body.
   */
  asOf: string;
}

/** `asOf`: the page's own time, when it prints one. */
export function answerFrom<S, T>(cached: Cached<S>, data: T, asOf?: string | null): Answer<T> {
  const { state, fetchedAt, freshUntil, version } = cached;
  return {
    data,
    provenance: { state, fetchedAt, freshUntil, version },
    asOf: asOf ?? karachiTime(fetchedAt),
  };
}

const KARACHI_OFFSET_MS = 5 * 60 * 60 * 1000;

/** Epoch ms as `YYYY-MM-DDTHH:MM:SS+05:00` (Pakistan keeps no daylight saving time). */
export function karachiTime(ms: number): string {
  return `${new Date(ms + KARACHI_OFFSET_MS).toISOString().slice(0, 19)}+05:00`;
}

/**
 * Memoises a derived view of a cached dataset. Datasets are immutable once cached, so the array or
 * object identity is the version: a refresh produces a new object and the old view is collected.
 */
export function derived<S extends object, T>(derive: (source: S) => T): (source: S) => T {
  const views = new WeakMap<S, T>();
  return (source) => {
    let view = views.get(source);
    if (view === undefined) {
      view = derive(source);
      views.set(source, view);
    }
    return view;
  };
}

/** Raw counts and rupees into millions, without float noise. */
export function millions(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value) / 1e6;
}
