// Success responses: headers (caching, negotiation) and the body from the view cache. A cached
// answer's `data` is serialised once per data version and kept as bytes (plus a gzip of them,
// made once, and the ETag); each response only appends a fresh `meta`. Serialising a large answer
// per request is several times slower than sending cached bytes (bench/README.md).
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Provenance } from '../../cache/types.ts';
import type { Answer } from '../../market/answer.ts';
import { toCsv } from './csv.ts';
import { metaTail } from './envelope.ts';
import { gzipHead, type GzipHead } from './gzip-splice.ts';
import { isNotModified } from './conditional.ts';
import { dataMetaOf, metaHeadersOf } from './meta-headers.ts';
import { encodingOf, representationAsked, representationByAccept, type Encoding } from './negotiation.ts';
import { preparedBody, type PreparedBody } from './one-write.ts';
import { PARQUET_TYPE, toParquet } from './parquet.ts';
import { PROXY_HEADERS } from './request-context.ts';
import { gzipBody, identityBody, ViewCache, type View } from './view-cache.ts';

/**
 * Answers can also be had as CSV (`?format=csv` or `Accept: text/csv`) and as Parquet
 * (`?format=parquet` or `Accept: application/vnd.apache.parquet`), saved under this name; a
 * single object is one row. `columns` is the header row of an empty list (the model's fields).
 */
export interface CsvOptions {
  filename: string;
  columns: readonly string[];
  /** The rows of the CSV when they are not the answer's data itself (an overview's main list). */
  rows?: (data: unknown) => unknown[];
  /** Parquet: columns of whole counts their names do not reveal (src/http/pipeline/parquet.ts). */
  integerColumns?: readonly string[];
}

export interface Responder {
  /**
   * Sends `answer` (JSON, or CSV when `csv` is given and the client asks for it), its serialised
   * form cached under `answer.key`, aged by its version.
   */
  send(
    req: FastifyRequest,
    reply: FastifyReply,
    answer: Answer<unknown>,
    csv?: CsvOptions,
  ): FastifyReply | Promise<FastifyReply>;
  /**
   * The response a repeat of an earlier GET gets while its answer is still fresh (a cache HIT with
   * the same view), from the bytes already prepared, before routing, validation and the handler
   * (the front door, src/http/pipeline/front-door.ts). Undefined when the handler must answer it (never
   * seen, no longer fresh, gzip not made yet, brotli only, conditional, CSV, a caller proxy).
   */
  replay(req: IncomingMessage): Replay | undefined;
  /**
   * Drops the serialised answers (the service has fallen idle, src/compact-heap.ts): each is made
   * again from the cached datasets at its next request, and replays resume after it.
   */
  release(): void;
}

/** A prepared 200 for a repeated request, ready to send. */
export interface Replay {
  /** Name/value pairs, content-length included; the common headers are the front door's. */
  headers: readonly string[];
  /** The body, kept as it is best sent (one-write.ts: a small one as a string of its bytes). */
  body: PreparedBody;
  /** The route template that first answered it (the metrics label). */
  route: string;
}

/** What a JSON 200 told about its URL: which view answers it, and until when. */
interface Remembered {
  route: string;
  viewKey: string;
  version: string;
  fetchedAt: number;
  freshUntil: number;
  vary: string;
  /** The datasets' revision when it was answered (DatasetCache.revision): a later one ends replays. */
  revision: number;
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
/** Quality 11 (the default) costs far more CPU than gzip for a few percent; 4 is about gzip's cost. */
export const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * `revision` counts dataset copies replaced before their freshness ended (DatasetCache.revision):
 * while it stays the same, a fresh answer's repeat is what the handler would build.
 */
export function createResponder(
  maxBytes: number,
  now: () => number,
  revision: () => number = () => 0,
): Responder {
  const views = new ViewCache(maxBytes);
  // By raw URL: a repeat of the same bytes routes, validates and reads the same fresh datasets, so
  // it gets the same view. Entries hold the view's key, not the view: the LRU above bounds memory.
  const remembered = new Map<string, Remembered>();
  /** Lets repeats of this request be replayed while the answer is fresh. */
  function remember(req: FastifyRequest, viewKey: string, view: View, p: Provenance, vary: string): void {
    const url = req.raw.url;
    if (req.method !== 'GET' || url === undefined || p.state === 'STALE') return;
    const held = remembered.get(url);
    if (held?.version === view.version && held.revision === revision()) return;
    if (remembered.size >= REMEMBERED_URLS_MAX) remembered.delete(remembered.keys().next().value as string);
    remembered.set(url, {
      route: req.routeOptions.url ?? 'unmatched',
      viewKey,
      version: view.version,
      fetchedAt: p.fetchedAt,
      freshUntil: p.freshUntil,
      vary,
      revision: revision(),
    });
  }

  return {
    send(req, reply, answer, csv) {
      const viewKey = answer.key;
      const view = views.of(answer, viewKey);
      const representation = csv === undefined ? 'json' : representationAsked(req);
      const vary = csv ? 'accept, accept-encoding' : 'accept-encoding';
      reply.header('vary', vary);
      const etag = representation === 'json' ? view.etag : `${view.etag.slice(0, -1)}-${representation}"`;
      const nowMs = now();
      cachingHeaders(reply, answer.provenance, etag, view.lastModified, nowMs);
      reply.header('x-as-of', view.asOf);
      if (csv !== undefined && representation !== 'json') {
        // The meta a CSV or Parquet body cannot show (Parquet also keeps it in the file).
        view.metaHeaders ??= metaHeadersOf(answer);
        if (view.metaHeaders.warning !== null) reply.header('x-warning', view.metaHeaders.warning);
        if (view.metaHeaders.meta !== null) reply.header('x-meta', view.metaHeaders.meta);
      }
      if (isNotModified(req.headers, { etag, lastModifiedMs: answer.provenance.fetchedAt })) {
        return reply.code(304).send();
      }
      const encoding = encodingOf(req.headers['accept-encoding']);
      if (csv !== undefined && representation !== 'json') {
        return sendTable(reply, { views, viewKey, view }, answer, csv, representation, encoding);
      }
      // Only answers a client asking for CSV or Parquet by Accept could not have had are replayed.
      if (representationByAccept(req.headers.accept) === 'json')
        remember(req, viewKey, view, answer.provenance, vary);
      const deliver = (body: Buffer): FastifyReply => reply.send(body);
      const tail = metaTail(answer.provenance.state !== 'MISS', view.count, nowMs, view.metaExtra);
      const recent = views.bodies(view, tail, Math.floor(nowMs / 1000));
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

    release() {
      views.clear();
      remembered.clear();
    },

    replay(req) {
      const url = req.url;
      const known = url === undefined ? undefined : remembered.get(url);
      if (known === undefined || !replayable(req)) return undefined;
      const nowMs = now();
      const view = views.peek(known.viewKey);
      if (nowMs >= known.freshUntil || view?.version !== known.version || known.revision !== revision()) {
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
      const tail = metaTail(true, view.count, nowMs, view.metaExtra);
      const recent = views.bodies(view, tail, second);
      const body = compressed
        ? gzipBody(recent, view.gzipReady as GzipHead)
        : identityBody(recent, view.head);
      // In the order send() sets them.
      const headers = [
        'vary',
        known.vary,
        'x-cache',
        'HIT',
        'etag',
        view.etag,
        'last-modified',
        view.lastModified,
        'cache-control',
        `public, max-age=${secondsUntil(known.freshUntil, nowMs)}`,
        'age',
        String(secondsUntil(nowMs, known.fetchedAt)),
        'x-as-of',
        view.asOf,
        'content-type',
        JSON_TYPE,
      ];
      if (compressed) headers.push('content-encoding', 'gzip');
      headers.push('content-length', String(body.length));
      const replay: Replay = {
        headers,
        body: preparedBody(body),
        route: known.route,
      };
      if (compressed) known.gzip = replay;
      else known.identity = replay;
      return replay;
    },
  };
}

/** Where a CSV or Parquet body is kept: with its view, re-weighed in the view cache once made. */
interface TableView {
  views: ViewCache;
  viewKey: string;
  view: View;
}

/**
 * A CSV or Parquet answer, made once per view from the rows the view's JSON holds (a later answer
 * of the same version may carry more, as a quote's extras arrive in the background, and every
 * form of one ETag base agrees).
 */
function sendTable(
  reply: FastifyReply,
  { views, viewKey, view }: TableView,
  answer: Answer<unknown>,
  csv: CsvOptions,
  representation: 'csv' | 'parquet',
  encoding: Encoding,
): FastifyReply | Promise<FastifyReply> {
  const rowsOf = (): unknown[] => {
    const data: unknown = JSON.parse(view.head.subarray('{"data":'.length).toString());
    return csv.rows ? csv.rows(data) : Array.isArray(data) ? data : [data];
  };
  if (representation === 'parquet') {
    if (view.parquet === undefined) {
      view.parquet = toParquet(rowsOf(), csv.columns, dataMetaOf(answer), {
        integerColumns: csv.integerColumns,
      });
      views.update(viewKey, view); // re-weigh it with its Parquet
    }
    reply.header('content-disposition', `attachment; filename="${csv.filename}.parquet"`);
    // Parquet's pages are compressed already: no content coding on top.
    return reply.type(PARQUET_TYPE).send(view.parquet);
  }
  if (view.csv === undefined) {
    view.csv = Buffer.from(toCsv(rowsOf(), csv.columns, answer.columns));
    views.update(viewKey, view); // re-weigh it with its CSV
  }
  reply.header('content-disposition', `attachment; filename="${csv.filename}.csv"`);
  reply.type(CSV_TYPE);
  if (view.csv.length < GZIP_MIN_BYTES || encoding === null) return reply.send(view.csv);
  reply.header('content-encoding', encoding);
  if (encoding === 'br') return brotli(view.csv, BROTLI_OPTIONS).then((body) => reply.send(body));
  view.csvGzip ??= gzip(view.csv);
  return view.csvGzip.then((body) => reply.send(body));
}

/** Requests whose answer could depend on more than the URL and Accept-Encoding go to the handler. */
function replayable(req: IncomingMessage): boolean {
  const { headers } = req;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
  if (representationByAccept(headers.accept) !== 'json') return false;
  for (const name of PROXY_HEADERS) if (headers[name] !== undefined) return false;
  return true;
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
