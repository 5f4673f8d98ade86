// Success responses. A cached answer's `data` is serialised once per data version and kept as
// bytes (plus a gzip of them, made once, and the ETag); each response only appends a fresh `meta`.
// Serialising a large answer per request costs ~6× the throughput of sending cached bytes
// (stack-notes), and building it as a string costs a UTF-8 pass per send (bench/README.md).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Provenance } from '../cache/types.ts';
import type { Answer } from '../market/answer.ts';
import { toCsv } from './csv.ts';
import { PROXY_HEADERS } from './request-context.ts';
import { gzipHead, gzipWithTail, type GzipHead } from './gzip-splice.ts';

interface View {
  version: string;
  /** `{"data":<json>` — everything before meta. */
  head: Buffer;
  etag: string;
  /** Last-Modified, formatted once per version. */
  lastModified: string;
  count: number;
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
  /**
   * Sends `answer` (JSON, or CSV when `csv` is given and the client asks for it), its serialised
   * form cached under `answer.key`, aged by its version. A string in place of `csv` is an explicit
   * view key, accepted while routes written before `Answer.key` are adapted; it wins over the
   * answer's own key.
   */
  send(
    req: FastifyRequest,
    reply: FastifyReply,
    answer: Answer<unknown>,
    csv?: CsvOptions | string,
    legacyCsv?: CsvOptions,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * The response a repeat of an earlier GET gets while its answer is still fresh (a cache HIT with
   * the same view), from the bytes already prepared, before validation and the handler run (the
   * replay hook in src/server/app.ts). Undefined when the handler must answer it (never seen, no
   * longer fresh, gzip not made yet, brotli only, conditional, CSV, a caller proxy).
   */
  replay(req: FastifyRequest): Replay | undefined;
}

/** A prepared 200 for a repeated request: headers and body, ready to send. */
export interface Replay {
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
  /** The replays of the current second (their Age, max-age and timestamp change by the second). */
  second?: number;
  identity?: Replay;
  gzip?: Replay;
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
  /** Lets repeats of this request be replayed while the answer is fresh. */
  function remember(req: FastifyRequest, viewKey: string, view: View, p: Provenance, vary: string): void {
    const url = req.raw.url;
    if (req.method !== 'GET' || url === undefined || p.state === 'STALE') return;
    if (remembered.get(url)?.version === view.version) return;
    if (remembered.size >= REMEMBERED_URLS_MAX) remembered.delete(remembered.keys().next().value as string);
    remembered.set(url, {
      viewKey,
      version: view.version,
      fetchedAt: p.fetchedAt,
      freshUntil: p.freshUntil,
      vary,
    });
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
    };
    views.set(viewKey, view);
    return view;
  }

  return {
    send(req, reply, answer, csvOrKey, legacyCsv) {
      const viewKey = typeof csvOrKey === 'string' ? csvOrKey : answer.key;
      const csv = typeof csvOrKey === 'string' ? legacyCsv : csvOrKey;
      const view = viewOf(answer, viewKey);
      const asCsv = csv !== undefined && wantsCsv(req);
      const vary = csv ? 'accept, accept-encoding' : 'accept-encoding';
      reply.header('vary', vary);
      const etag = asCsv ? `${view.etag.slice(0, -1)}-csv"` : view.etag;
      const nowMs = now();
      cachingHeaders(reply, answer.provenance, etag, view.lastModified, nowMs);
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
      if (!req.headers.accept?.includes('text/csv')) remember(req, viewKey, view, answer.provenance, vary);
      const deliver = (body: Buffer): FastifyReply => reply.send(body);
      const tail = metaTail(answer.provenance.state !== 'MISS', view.count, nowMs);
      const recent = recentBodies(view, tail, Math.floor(nowMs / 1000));
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

    replay(req) {
      const url = req.raw.url;
      const known = url === undefined ? undefined : remembered.get(url);
      if (known === undefined || !replayable(req)) return undefined;
      const nowMs = now();
      const view = views.peek(known.viewKey);
      if (nowMs >= known.freshUntil || view?.version !== known.version) {
        remembered.delete(url as string);
        return undefined;
      }
      const encoding = encodingOf(req.headers['accept-encoding']);
      const compressed = encoding !== null && view.head.length >= GZIP_MIN_BYTES;
      if (compressed && (encoding !== 'gzip' || view.gzipReady === undefined)) return undefined;
      const second = Math.floor(nowMs / 1000);
      if (known.second !== second) {
        known.second = second;
        known.identity = known.gzip = undefined;
      }
      const made = compressed ? known.gzip : known.identity;
      if (made !== undefined) return made;
      // A repeat within freshness is what the handler would answer as a HIT.
      const tail = metaTail(true, view.count, nowMs);
      const recent = recentBodies(view, tail, second);
      const body = compressed
        ? gzipBody(recent, view.gzipReady as GzipHead)
        : identityBody(recent, view.head);
      // In the order send() sets them.
      const headers: Record<string, string | number> = {
        vary: known.vary,
        'x-cache': 'HIT',
        etag: view.etag,
        'last-modified': view.lastModified,
        'cache-control': `public, max-age=${secondsUntil(known.freshUntil, nowMs)}`,
        age: secondsUntil(nowMs, known.fetchedAt),
        'content-type': JSON_TYPE,
      };
      if (compressed) headers['content-encoding'] = 'gzip';
      const replay = { headers, body };
      if (compressed) known.gzip = replay;
      else known.identity = replay;
      return replay;
    },
  };
}

/** The gzip body of this second: the view's cached gzip head spliced with the meta tail, made once. */
function gzipBody(recent: RecentBodies, head: GzipHead): Buffer {
  return (recent.gzip ??= gzipWithTail(head, Buffer.from(recent.tail)));
}

/** The uncompressed body of this second: the view's bytes and the meta tail, made once. */
function identityBody(recent: RecentBodies, head: Buffer): Buffer {
  return (recent.identity ??= Buffer.concat([head, Buffer.from(recent.tail)]));
}

/** Requests whose answer could depend on more than the URL and Accept-Encoding go to the handler. */
function replayable(req: FastifyRequest): boolean {
  const { headers } = req;
  if (headers['if-none-match'] !== undefined) return false;
  if (headers.accept?.includes('text/csv')) return false;
  for (const name of PROXY_HEADERS) if (headers[name] !== undefined) return false;
  return true;
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
function metaTail(cached: boolean, count: number, nowMs: number): string {
  const countPart = count >= 0 ? `,"count":${count}` : '';
  return `,"meta":{"timestamp":"${timestampOf(nowMs)}","cached":${cached}${countPart}}}`;
}

/** `{"data":…,"meta":{…}}` for answers built outside the responder (health). */
export function envelope(dataJson: string, cached: boolean, count: number, nowMs = Date.now()): string {
  return `{"data":${dataJson}${metaTail(cached, count, nowMs)}`;
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

/** `timestamp()` of the second `nowMs` falls in, formatted once a second. */
function timestampOf(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
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
function recentBodiesCache(maxBytes: number): (view: View, tail: string, second: number) => RecentBodies {
  let current = -1;
  let bodies = new Map<View, RecentBodies>();
  let bytes = 0;
  return (view, tail, second) => {
    if (second !== current) {
      current = second;
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
