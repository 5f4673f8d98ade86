import type { Cached, Provenance } from '../cache/types.ts';

/** A market service's result: the resource in the API's shape, and where its data came from. */
export interface Answer<T> {
  data: T;
  provenance: Provenance;
  /** Members added to the envelope's meta for this answer (e.g. `not_found` of a batch). */
  meta?: Record<string, unknown>;
}

export function answerFrom<S, T>(cached: Cached<S>, data: T): Answer<T> {
  const { state, fetchedAt, freshUntil, version } = cached;
  return { data, provenance: { state, fetchedAt, freshUntil, version } };
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

/** Portal float noise such as -1.7239999999999998 is cut at 4 decimals (upstream.md §3). */
export function round4(value: number | null): number | null {
  return value === null ? null : Math.round(value * 1e4) / 1e4;
}

/** Raw counts and rupees into millions, without float noise. */
export function millions(value: number | null | undefined): number | null {
  return value === null || value === undefined ? null : Math.round(value) / 1e6;
}
