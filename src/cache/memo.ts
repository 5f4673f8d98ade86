// One way to remember a value derived from cached datasets. Datasets never change once cached
// (immutable.ts), so their identity is their version: a refresh produces new objects, a memo made
// from the old ones is looked up no more and is collected with them.

/** A key: a cached dataset (or a value derived from one), or a primitive that picks among variants. */
type Key = object | string | number | boolean | null;

interface Node {
  value?: unknown;
  has?: boolean;
  byObject?: WeakMap<object, Node>;
  byPrimitive?: Map<unknown, Node>;
}

function child(node: Node, key: Key): Node {
  if (typeof key === 'object' && key !== null) {
    const map = (node.byObject ??= new WeakMap());
    let next = map.get(key);
    if (next === undefined) map.set(key, (next = {}));
    return next;
  }
  const map = (node.byPrimitive ??= new Map());
  let next = map.get(key);
  if (next === undefined) map.set(key, (next = {}));
  return next;
}

/**
 * `derive`, computed once per identity of its first argument (a cached dataset) and the values of
 * the others; `derive` must depend on nothing else. Primitive arguments after the first are held
 * as long as the first is, so they must be few (a switch, a short list's name), not client text.
 */
export function memoByDataset<D extends object, T>(derive: (dataset: D) => T): (dataset: D) => T;
export function memoByDataset<D extends object, A extends Key, T>(
  derive: (dataset: D, a: A) => T,
): (dataset: D, a: A) => T;
export function memoByDataset<D extends object, A extends Key, B extends Key, T>(
  derive: (dataset: D, a: A, b: B) => T,
): (dataset: D, a: A, b: B) => T;
export function memoByDataset<T>(derive: (...args: never[]) => T): (...args: Key[]) => T {
  const f = derive as (...args: Key[]) => T;
  if (derive.length <= 1) {
    const memo = new WeakMap<object, T>();
    return (dataset) => {
      let value = memo.get(dataset as object);
      if (value === undefined && !memo.has(dataset as object)) {
        value = f(dataset);
        memo.set(dataset as object, value);
      }
      return value as T;
    };
  }
  const root: Node = {};
  return (...args) => {
    let node = root;
    for (const key of args) node = child(node, key);
    if (!node.has) {
      node.value = f(...args);
      node.has = true;
    }
    return node.value as T;
  };
}

/**
 * A value per cached dataset that also depends on something outside the cache which only grows
 * (the archive's rows): named by `variant`, made by `make` when the variant differs from the one
 * held, and only the latest variant per dataset is kept, since an older one is never asked for
 * again. Collected with the dataset, like memoByDataset's values.
 */
export function memoLatestByDataset<D extends object, T>(): (
  dataset: D,
  variant: string,
  make: () => T,
) => T {
  const latest = new WeakMap<D, { variant: string; value: T }>();
  return (dataset, variant, make) => {
    let entry = latest.get(dataset);
    if (entry?.variant !== variant) latest.set(dataset, (entry = { variant, value: make() }));
    return entry.value;
  };
}
