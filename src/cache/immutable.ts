// Cached datasets are shared by every answer built from them and memoised on their identity
// (memo.ts, the view cache, the responder's prepared bytes), so none may change once cached: their
// type says so (DeepReadonly), and outside production the cache freezes them too, so a mutation
// throws where it is written instead of corrupting answers for everyone later.

type Primitive = string | number | boolean | bigint | symbol | null | undefined;

/** `T` with every property, array, map and set read-only, all the way down. */
export type DeepReadonly<T> = unknown extends T
  ? T
  : T extends Primitive | ((...args: never[]) => unknown)
    ? T
    : T extends ReadonlyMap<infer K, infer V>
      ? ReadonlyMap<DeepReadonly<K>, DeepReadonly<V>>
      : T extends ReadonlySet<infer V>
        ? ReadonlySet<DeepReadonly<V>>
        : { readonly [K in keyof T]: DeepReadonly<T[K]> };

/** Values frozen whole by deepFreeze: a second call on one of them costs one lookup. */
const frozenWhole = new WeakSet<object>();

/**
 * Freezes `value` and everything reachable from it (plain objects and arrays; a Map or Set is
 * frozen as an object, its entries walked), and returns it typed as read-only.
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !frozenWhole.has(value)) {
    freezeAll(value);
    frozenWhole.add(value);
  }
  return value as DeepReadonly<T>;
}

function freezeAll(root: object): void {
  const pending: object[] = [root];
  const seen = new Set<object>();
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    const children: unknown[] =
      node instanceof Map
        ? [...node.keys(), ...node.values()]
        : node instanceof Set
          ? [...node]
          : Object.values(node);
    Object.freeze(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null && !frozenWhole.has(child)) pending.push(child);
    }
  }
}
