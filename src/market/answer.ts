import type { Cached, Provenance } from '../cache/types.ts';

/**
 * A market service's result: the resource in the API's shape, where its data came from, and its
 * key: what identifies this resource among all answers (the service's normalised inputs, so
 * `KSE-100` and `kse100` are one key). The responder caches the serialised answer under it.
 */
export interface Answer<T> {
  key: string;
  data: T;
  provenance: Provenance;
}

export function answerFrom<S, T>(cached: Cached<S>, data: T, key: string): Answer<T> {
  const { state, fetchedAt, freshUntil, version } = cached;
  return { key, data, provenance: { state, fetchedAt, freshUntil, version } };
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

/**
 * Memoises a value derived from a cached dataset (rows in the API's shape). Datasets are immutable once cached, so the array or
 * object identity is the version: a refresh produces a new object and the old value is collected.
 */
export function derived<S extends object, T>(derive: (source: S) => T): (source: S) => T {
  const memo = new WeakMap<S, T>();
  return (source) => {
    let value = memo.get(source);
    if (value === undefined) {
      value = derive(source);
      memo.set(source, value);
    }
    return value;
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
