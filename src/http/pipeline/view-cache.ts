// The view cache: an answer serialised once per data version under its key (`{"data":<json>`
// as bytes, its ETag, Last-Modified, and a gzip and a CSV made on first use), and the bodies of the
// current second built from it (head + meta tail), shared by that second's responses.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Answer } from '../../market/answer.ts';
import { gzipWithTail, type GzipHead } from './gzip-splice.ts';
import { orderedKeys } from './csv.ts';
import type { MetaHeaders } from './meta-headers.ts';

export interface View {
  version: string;
  /** `{"data":<json>` — everything before meta. */
  head: Buffer;
  etag: string;
  /** Last-Modified, formatted once per version. */
  lastModified: string;
  count: number;
  /**
   * The meta fields that belong to the data, serialised with a leading comma: `as_of` (a stale copy
   * tells its age in the body) and the answer's own fields (`"adjustment":{…}`).
   */
  metaExtra: string;
  /** Made on the first request that accepts gzip. */
  gzip?: Promise<GzipHead>;
  gzipReady?: GzipHead;
  /** `as_of` of the data (the X-As-Of header). */
  asOf: string;
  /** X-Warning and X-Meta of CSV and Parquet answers, made on the first. */
  metaHeaders?: MetaHeaders;
  /** Made on the first Parquet request. */
  parquet?: Buffer;
  /** Made on the first CSV request. */
  csv?: Buffer;
  /** Made on the first CSV request that accepts gzip. */
  csvGzip?: Promise<Buffer>;
}

export class ViewCache {
  private readonly views: LRUCache<string, View>;
  /** The bodies of the current second (see recentBodiesCache). */
  readonly bodies: (view: View, tail: string, second: number) => RecentBodies;

  /** `maxBytes` bounds the views; half as much again the bodies of the current second. */
  constructor(maxBytes: number) {
    this.bodies = recentBodiesCache(Math.floor(maxBytes / 2));
    this.views = new LRUCache<string, View>({
      maxSize: maxBytes,
      sizeCalculation: (v) =>
        Math.ceil(v.head.length * 1.3 + (v.csv?.length ?? 0) * 1.3 + (v.parquet?.length ?? 0) + 200),
    });
  }

  /** The view of `answer` under `viewKey`, made when its version is new. */
  of(answer: Answer<unknown>, viewKey: string): View {
    const { version } = answer.provenance;
    const existing = this.views.get(viewKey);
    if (existing && existing.version === version) return existing;
    const json = dataJson(answer);
    const view: View = {
      version,
      head: Buffer.from(`{"data":${json}`),
      etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
      lastModified: new Date(answer.provenance.fetchedAt).toUTCString(),
      count: Array.isArray(answer.data) ? answer.data.length : -1,
      metaExtra: metaFieldsOf(answer),
      asOf: answer.asOf,
    };
    this.views.set(viewKey, view);
    return view;
  }

  /** The view under `viewKey`, without refreshing its place in the LRU. */
  peek(viewKey: string): View | undefined {
    return this.views.peek(viewKey);
  }

  /** Drops every view (an idle service gives their memory back; they are made again on demand). */
  clear(): void {
    this.views.clear();
  }

  /** Re-weighs a view that has grown (its CSV). */
  update(viewKey: string, view: View): void {
    this.views.set(viewKey, view);
  }
}

/** The gzip body of this second: the view's cached gzip head spliced with the meta tail, made once. */
export function gzipBody(recent: RecentBodies, head: GzipHead): Buffer {
  return (recent.gzip ??= gzipWithTail(head, Buffer.from(recent.tail)));
}

/** The uncompressed body of this second: the view's bytes and the meta tail, made once. */
export function identityBody(recent: RecentBodies, head: Buffer): Buffer {
  return (recent.identity ??= Buffer.concat([head, Buffer.from(recent.tail)]));
}

/** The bodies sent this second for one view and meta tail. */
export interface RecentBodies {
  tail: string;
  identity?: Buffer;
  gzip?: Buffer;
}

/**
 * Bodies are reusable only within their second (the tail carries the timestamp); under load many
 * responses share one, and its bytes, instead of copying 30–300 KB each. All are dropped when the
 * second turns, and at most `maxBytes` are kept meanwhile (beyond that a body is made per response).
 * The last second's bodies are also dropped by a timer when no request follows, or an idle service
 * would hold up to `maxBytes` of them for good.
 */
function recentBodiesCache(maxBytes: number): (view: View, tail: string, second: number) => RecentBodies {
  let current = -1;
  let bodies = new Map<View, RecentBodies>();
  let bytes = 0;
  let sweep: NodeJS.Timeout | undefined;
  const drop = (): void => {
    sweep = undefined;
    bodies = new Map();
    bytes = 0;
    current = -1;
  };
  return (view, tail, second) => {
    if (second !== current) {
      current = second;
      bodies = new Map();
      bytes = 0;
      // One timer at a time, re-armed by the next second's first body: at most one a second.
      if (sweep === undefined) {
        sweep = setTimeout(drop, 2_000);
        sweep.unref();
      } else sweep.refresh();
    }
    const made = bodies.get(view);
    if (made?.tail === tail) return made;
    const recent: RecentBodies = { tail };
    // Counted as one identity body (the larger); a gzip body is a fraction of it.
    if (bytes + view.head.length <= maxBytes) {
      bodies.set(view, recent);
      bytes += view.head.length;
    }
    return recent;
  };
}

function metaFieldsOf(answer: Answer<unknown>): string {
  const asOf = `,"as_of":${JSON.stringify(answer.asOf)}`;
  if (answer.meta === undefined || Object.keys(answer.meta).length === 0) return asOf;
  return `${asOf},${JSON.stringify(answer.meta).slice(1, -1)}`;
}

/** `answer.data` as JSON, each row's fields in `answer.columns` order when it names one. */
function dataJson(answer: Answer<unknown>): string {
  const order = answer.columns;
  // Only keys that look like array indices are moved by JavaScript; without one the rows'
  // insertion order is already the order, and JSON.stringify is several times faster.
  if (order === undefined || !Array.isArray(answer.data) || !order.some(isIndexLike)) {
    return JSON.stringify(answer.data);
  }
  const rows = answer.data as Array<Record<string, unknown>>;
  const seen = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) seen.add(k);
  const keys = orderedKeys([...seen], order).map((k) => [k, `${JSON.stringify(k)}:`] as const);
  const parts = new Array<string>(rows.length);
  rows.forEach((row, i) => {
    let text = '';
    for (const [k, quoted] of keys) {
      const value = row[k];
      if (value === undefined) continue;
      text += `${text === '' ? '' : ','}${quoted}${JSON.stringify(value)}`;
    }
    parts[i] = `{${text}}`;
  });
  return `[${parts.join(',')}]`;
}

/** A key JavaScript orders before every other: a canonical array index (`786`, not `0786`). */
function isIndexLike(key: string): boolean {
  return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}
