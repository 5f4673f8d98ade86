// Success responses. A cached answer's `data` is serialised once per data version and kept as
// bytes (plus a gzip of them, made once, and the ETag); each response only appends a fresh `meta`.
// Serialising a large answer per request costs ~6× the throughput of sending cached bytes
// (stack-notes), and building it as a string costs a UTF-8 pass per send (bench/README.md).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Provenance } from '../cache/types.ts';
import type { Answer } from '../market/answer.ts';
import { toCsv } from './csv.ts';
import { gzipHead, gzipWithTail, type GzipHead } from './gzip-splice.ts';

interface View {
  version: string;
  /** `{"data":<json>` — everything before meta. */
  head: Buffer;
  etag: string;
  /** Last-Modified, formatted once per version. */
  lastModified: string;
  count: number;
  /** Members the answer adds to meta (`,"not_found":[…]`), or ''. */
  metaExtra: string;
  /** Made on the first request that accepts gzip. */
  gzip?: Promise<GzipHead>;
  gzipReady?: GzipHead;
  /** Made on the first CSV request. */
  csv?: Buffer;
  /** Made on the first CSV request that accepts gzip. */
  csvGzip?: Promise<Buffer>;
}

/** Lists can also be had as CSV (`?format=csv` or `Accept: text/csv`), saved under this name. */
export interface CsvOptions {
  filename: string;
}

export interface Responder {
  /** `viewKey` names the view (route + normalised parameters); the answer's version ages it. */
  send(
    req: FastifyRequest,
    reply: FastifyReply,
    answer: Answer<unknown>,
    viewKey: string,
    csv?: CsvOptions,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * The response a repeat of an earlier GET gets while its answer is still fresh (a cache HIT with
   * the same view), built without routing it: src/server/hit-replay.ts. Undefined when the request
   * must go through the routes (never seen, no longer fresh, gzip not made yet, brotli only).
   * `state` MISS is for a request that waited for the fetch that produced the answer, as the
   * routes mark a single flight's waiters.
   */
  replay(req: IncomingMessage, nowMs: number, state?: 'HIT' | 'MISS'): Replay | undefined;
  /**
   * `listener` learns each URL whose answer has just become replayable (after it was sent). One
   * listener, the replayer's; a later call replaces it.
   */
  onReplayable(listener: (url: string) => void): void;
}

/** A response built below the router, ready to write; the replayer adds the per-request headers. */
export interface Replay {
  status: number;
  /** The route template, for metrics. */
  route: string;
  headers: Record<string, string | number>;
  body: Buffer;
}

/** What a JSON 200 told about its URL: which view answers it, and until when. */
interface Remembered {
  viewKey: string;
  version: string;
  fetchedAt: number;
  freshUntil: number;
  vary: string;
  route: string;
}

// Distinct URLs answered from the cache; beyond this the oldest is forgotten (its repeats go
// through the routes, which answer them just as well).
const REMEMBERED_URLS_MAX = 10_000;

const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
// Below this, compression buys nothing worth a header.
const GZIP_MIN_BYTES = 1024;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** Quality 11 (the default) costs ~100× gzip's CPU for a few percent; 4 is about gzip's cost. */
export const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

export function createResponder(maxBytes: number, now: () => number = Date.now): Responder {
  const recentBodies = recentBodiesCache(Math.floor(maxBytes / 2));
  const views = new LRUCache<string, View>({
    maxSize: maxBytes,
    sizeCalculation: (v) => Math.ceil(v.head.length * 1.3 + (v.csv?.length ?? 0) * 1.3 + 200),
  });

  // By raw URL: a repeat of the same bytes routes, validates and reads the same fresh datasets, so
  // it gets the same view. Entries hold the view's key, not the view: the LRU above bounds memory.
  const remembered = new Map<string, Remembered>();
  let replayable: (url: string) => void = () => {};

  /** Whether a repeat of this request can now be replayed. */
  function remember(req: FastifyRequest, viewKey: string, view: View, p: Provenance, vary: string): boolean {
    const url = req.raw.url;
    if (req.method !== 'GET' || url === undefined || p.state === 'STALE') return false;
    if (remembered.get(url)?.version === view.version) return true;
    if (remembered.size >= REMEMBERED_URLS_MAX) remembered.delete(remembered.keys().next().value as string);
    const route = req.routeOptions.url ?? 'unmatched';
    remembered.set(url, {
      viewKey,
      version: view.version,
      fetchedAt: p.fetchedAt,
      freshUntil: p.freshUntil,
      vary,
      route,
    });
    return true;
  }

  function viewOf(answer: Answer<unknown>, viewKey: string): View {
    const { version } = answer.provenance;
    const held = views.get(viewKey);
    if (held && held.version === version) return held;
    const json = JSON.stringify(answer.data);
    const view: View = {
      version,
      head: Buffer.from(`{"data":${json}`),
      etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
      lastModified: new Date(answer.provenance.fetchedAt).toUTCString(),
      count: Array.isArray(answer.data) ? answer.data.length : -1,
      metaExtra: metaMembers(answer.meta),
    };
    views.set(viewKey, view);
    return view;
  }

  return {
    send(req, reply, answer, viewKey, csv) {
      const view = viewOf(answer, viewKey);
      const asCsv = csv !== undefined && wantsCsv(req);
      const vary = csv ? 'accept, accept-encoding' : 'accept-encoding';
      reply.header('vary', vary);
      const etag = asCsv ? `${view.etag.slice(0, -1)}-csv"` : view.etag;
      cachingHeaders(reply, answer.provenance, etag, view.lastModified, now());
      if (etagMatches(req.headers['if-none-match'], etag)) {
        return reply.code(304).send();
      }
      const encoding = encodingOf(req.headers['accept-encoding']);
      if (asCsv) {
        if (view.csv === undefined) {
          view.csv = Buffer.from(toCsv(answer.data as unknown[]));
          views.set(viewKey, view); // re-weigh it with its CSV
        }
        reply.header('content-disposition', `attachment; filename="${csv.filename}.csv"`);
        reply.type(CSV_TYPE);
        if (view.csv.length < GZIP_MIN_BYTES || encoding === null) return reply.send(view.csv);
        reply.header('content-encoding', encoding);
        if (encoding === 'br') return brotli(view.csv, BROTLI_OPTIONS).then((body) => reply.send(body));
        view.csvGzip ??= gzip(view.csv);
        return view.csvGzip.then((body) => reply.send(body));
      }
      // Only answers a client asking for CSV by Accept could not have had are replayed.
      const replays =
        !req.headers.accept?.includes('text/csv') && remember(req, viewKey, view, answer.provenance, vary);
      // Requests held below the router for this URL (hit-replay.ts) are answered once it has been.
      const deliver = (body: Buffer): FastifyReply => {
        const sent = reply.send(body);
        if (replays) replayable(req.raw.url as string);
        return sent;
      };
      const tail = metaTail(answer.provenance.state !== 'MISS', view.count, view.metaExtra);
      const recent = recentBodies(view, tail);
      reply.type(JSON_TYPE);
      if (view.head.length < GZIP_MIN_BYTES || encoding === null) {
        return deliver(identityBody(recent, view.head));
      }
      reply.header('content-encoding', encoding);
      // Brotli cannot be spliced like gzip; it is made per response, on the thread pool, for the
      // rare client that accepts br but not gzip.
      if (encoding === 'br') {
        return brotli(identityBody(recent, view.head), BROTLI_OPTIONS).then(deliver);
      }
      if (view.gzipReady !== undefined) {
        return deliver(gzipBody(recent, view.gzipReady));
      }
      view.gzip ??= gzipHead(view.head).then((head) => (view.gzipReady = head));
      // A cold burst's waiters all land here: they share one body, as later responses do.
      return view.gzip.then((head) => deliver(gzipBody(recent, head)));
    },

    onReplayable(listener) {
      replayable = listener;
    },

    replay(req, nowMs, state = 'HIT') {
      const url = req.url;
      const held = url === undefined ? undefined : remembered.get(url);
      if (held === undefined) return undefined;
      const view = views.peek(held.viewKey);
      if (nowMs >= held.freshUntil || view?.version !== held.version) {
        remembered.delete(url as string);
        return undefined;
      }
      const encoding = encodingOf(req.headers['accept-encoding']);
      const compressed = encoding !== null && view.head.length >= GZIP_MIN_BYTES;
      if (compressed && (encoding !== 'gzip' || view.gzipReady === undefined)) return undefined;
      // A repeat within freshness is what the routes would answer as a HIT.
      const hit = state === 'HIT';
      const tail = metaTail(hit, view.count, view.metaExtra);
      const recent = recentBodies(view, tail);
      const body = compressed
        ? gzipBody(recent, view.gzipReady as GzipHead)
        : identityBody(recent, view.head);
      const headers: Record<string, string | number> = {
        vary: held.vary,
        'x-cache': state,
        etag: view.etag,
        'last-modified': view.lastModified,
        'cache-control': `public, max-age=${secondsUntil(held.freshUntil, nowMs)}`,
      };
      // In the order cachingHeaders() sets them; a MISS carries no Age, as through the routes.
      if (hit) headers.age = secondsUntil(nowMs, held.fetchedAt);
      headers['content-type'] = JSON_TYPE;
      headers['content-length'] = body.length;
      if (compressed) headers['content-encoding'] = 'gzip';
      return { status: 200, route: held.route, headers, body };
    },
  };
}

/** The uncompressed body of this second: the view's bytes and the meta tail, made once. */
/** The gzip body of this second: the view's cached gzip head spliced with the meta tail, made once. */
function gzipBody(recent: RecentBodies, head: GzipHead): Buffer {
  return (recent.gzip ??= gzipWithTail(head, Buffer.from(recent.tail)));
}

function identityBody(recent: RecentBodies, head: Buffer): Buffer {
  return (recent.identity ??= Buffer.concat([head, Buffer.from(recent.tail)]));
}

/** `?format=csv` wins; otherwise an Accept that names text/csv and not JSON. */
function wantsCsv(req: FastifyRequest): boolean {
  const format = (req.query as Record<string, unknown> | undefined)?.format;
  if (format === 'csv') return true;
  if (format === 'json') return false;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/csv') && !accept.includes('application/json');
}

type Encoding = 'gzip' | 'br' | null;

// Clients send a handful of distinct Accept-Encoding values (a browser always the same one), so
// each is parsed once; the bound keeps arbitrary values from growing the map.
const encodingsSeen = new Map<string, Encoding>();
const ENCODINGS_SEEN_MAX = 256;

/** gzip when the client takes it (cached, spliced), else br when it takes that, else identity. */
function encodingOf(header: string | undefined): Encoding {
  if (typeof header !== 'string' || header === '') return null;
  let encoding = encodingsSeen.get(header);
  if (encoding === undefined) {
    encoding = accepts(header, 'gzip') ? 'gzip' : accepts(header, 'br') ? 'br' : null;
    if (encodingsSeen.size >= ENCODINGS_SEEN_MAX) encodingsSeen.clear();
    encodingsSeen.set(header, encoding);
  }
  return encoding;
}

// `gzip;q=0` refuses it; anything else naming it (or *) accepts it.
const CODING = /(?:^|,)\s*([a-z*-]+)\s*(?:;\s*q=([0-9.]+))?/gi;

function accepts(header: string, coding: string): boolean {
  let star: boolean | undefined;
  for (const m of header.matchAll(CODING)) {
    const name = m[1]!.toLowerCase();
    const allowed = m[2] === undefined || Number(m[2]) > 0;
    if (name === coding) return allowed; // the coding named outright wins over `*`
    if (name === '*') star = allowed;
  }
  return star === true;
}

/** The part after `{"data":…`: `,"meta":{…}}`, with `count` on lists only (spec: Response envelope). */
function metaTail(cached: boolean, count: number, extra = ''): string {
  const countPart = count >= 0 ? `,"count":${count}` : '';
  return `,"meta":{"timestamp":"${timestampNow()}","cached":${cached}${countPart}${extra}}}`;
}

/** An answer's own meta members as JSON text after a comma, made once per view. */
function metaMembers(meta: Record<string, unknown> | undefined): string {
  if (meta === undefined) return '';
  return Object.entries(meta)
    .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join('');
}

/** `{"data":…,"meta":{…}}` for answers built outside the responder (health). */
export function envelope(dataJson: string, cached: boolean, count: number): string {
  return `{"data":${dataJson}${metaTail(cached, count)}`;
}

/**
 * ISO 8601 with an explicit UTC offset, as the spec asks (`+00:00`, not `Z`), to the second, like
 * HTTP's Date: every answer generated within one second shares its meta, so a large answer's
 * bytes are assembled once a second instead of once a response (bench/README.md).
 */
export function timestamp(date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

let stampedAt = -1;
let stamp = '';

function timestampNow(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampedAt) {
    stampedAt = second;
    stamp = timestamp(new Date(second * 1000));
  }
  return stamp;
}

/** The bodies sent this second for one view and meta tail. */
interface RecentBodies {
  tail: string;
  identity?: Buffer;
  gzip?: Buffer;
}

/**
 * Bodies are reusable only within their second (the tail carries the timestamp); under load many
 * responses share one, and its bytes, instead of copying 30–300 KB each. All are dropped when the
 * second turns, and at most `maxBytes` are kept meanwhile (beyond that a body is made per response).
 */
function recentBodiesCache(maxBytes: number): (view: View, tail: string) => RecentBodies {
  let second = -1;
  let bodies = new Map<View, RecentBodies>();
  let bytes = 0;
  return (view, tail) => {
    if (second !== stampedAt) {
      second = stampedAt;
      bodies = new Map();
      bytes = 0;
    }
    const held = bodies.get(view);
    if (held?.tail === tail) return held;
    const recent: RecentBodies = { tail };
    // Counted as one identity body (the larger); a gzip body is a fraction of it.
    if (bytes + view.head.length <= maxBytes) {
      bodies.set(view, recent);
      bytes += view.head.length;
    }
    return recent;
  };
}

function cachingHeaders(
  reply: FastifyReply,
  p: Provenance,
  etag: string,
  lastModified: string,
  nowMs: number,
): void {
  reply.header('x-cache', p.state);
  reply.header('etag', etag);
  reply.header('last-modified', lastModified);
  reply.header(
    'cache-control',
    `public, max-age=${p.state === 'STALE' ? 0 : secondsUntil(p.freshUntil, nowMs)}`,
  );
  if (p.state !== 'MISS') reply.header('age', secondsUntil(nowMs, p.fetchedAt));
}

/** Whole seconds from `from` to `to`, never negative (max-age, Age). */
function secondsUntil(to: number, from: number): number {
  return Math.max(0, Math.floor((to - from) / 1000));
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
