// Success responses. A cached answer's `data` is serialised once per data version and kept as
// bytes (plus a gzip of them, made once, and the ETag); each response only appends a fresh `meta`.
// Serialising a large answer per request costs ~6× the throughput of sending cached bytes
// (stack-notes), and building it as a string costs a UTF-8 pass per send (bench/README.md).
import { createHash } from 'node:crypto';
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
  count: number;
  /** Made on the first request that accepts gzip. */
  gzip?: Promise<GzipHead>;
  /** Made on the first CSV request. */
  csv?: string;
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
  ): Promise<FastifyReply>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
// Below this, compression buys nothing worth a header.
const GZIP_MIN_BYTES = 1024;

export function createResponder(maxBytes: number, now: () => number = Date.now): Responder {
  const views = new LRUCache<string, View>({
    maxSize: maxBytes,
    sizeCalculation: (v) => Math.ceil(v.head.length * 1.3 + (v.csv?.length ?? 0) * 2 + 200),
  });

  function viewOf(answer: Answer<unknown>, viewKey: string): View {
    const { version } = answer.provenance;
    const held = views.get(viewKey);
    if (held && held.version === version) return held;
    const json = JSON.stringify(answer.data);
    const view: View = {
      version,
      head: Buffer.from(`{"data":${json}`),
      etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
      count: Array.isArray(answer.data) ? answer.data.length : -1,
    };
    views.set(viewKey, view);
    return view;
  }

  return {
    async send(req, reply, answer, viewKey, csv) {
      const view = viewOf(answer, viewKey);
      const asCsv = csv !== undefined && wantsCsv(req);
      reply.header('vary', csv ? 'accept, accept-encoding' : 'accept-encoding');
      const etag = asCsv ? `${view.etag.slice(0, -1)}-csv"` : view.etag;
      cachingHeaders(reply, answer.provenance, etag, now());
      if (etagMatches(req.headers['if-none-match'], etag)) {
        return reply.code(304).send();
      }
      if (asCsv) {
        if (view.csv === undefined) {
          view.csv = toCsv(answer.data as unknown[]);
          views.set(viewKey, view); // re-weigh it with its CSV
        }
        reply.header('content-disposition', `attachment; filename="${csv.filename}.csv"`);
        return reply.type('text/csv; charset=utf-8').send(view.csv);
      }
      const tail = Buffer.from(metaTail(answer.provenance.state !== 'MISS', view.count));
      reply.type(JSON_TYPE);
      if (view.head.length >= GZIP_MIN_BYTES && acceptsGzip(req)) {
        view.gzip ??= gzipHead(view.head);
        reply.header('content-encoding', 'gzip');
        return reply.send(gzipWithTail(await view.gzip, tail));
      }
      return reply.send(Buffer.concat([view.head, tail]));
    },
  };
}

/** `?format=csv` wins; otherwise an Accept that names text/csv and not JSON. */
function wantsCsv(req: FastifyRequest): boolean {
  const format = (req.query as Record<string, unknown> | undefined)?.format;
  if (format === 'csv') return true;
  if (format === 'json') return false;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/csv') && !accept.includes('application/json');
}

function acceptsGzip(req: FastifyRequest): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  // `gzip;q=0` refuses it; anything else naming gzip (or *) accepts it.
  const match = /(?:^|,)\s*(gzip|\*)\s*(?:;\s*q=([0-9.]+))?/i.exec(header);
  return match !== null && (match[2] === undefined || Number(match[2]) > 0);
}

/** The part after `{"data":…`: `,"meta":{…}}`, with `count` on lists only (spec: Response envelope). */
function metaTail(cached: boolean, count: number): string {
  const countPart = count >= 0 ? `,"count":${count}` : '';
  return `,"meta":{"timestamp":"${timestamp()}","cached":${cached}${countPart}}}`;
}

/** `{"data":…,"meta":{…}}` for answers built outside the responder (health). */
export function envelope(dataJson: string, cached: boolean, count: number): string {
  return `{"data":${dataJson}${metaTail(cached, count)}`;
}

/** ISO 8601 with an explicit UTC offset, as the spec asks (`+00:00`, not `Z`). */
export function timestamp(date: Date = new Date()): string {
  return date.toISOString().replace('Z', '+00:00');
}

function cachingHeaders(reply: FastifyReply, p: Provenance, etag: string, nowMs: number): void {
  const freshLeft = Math.max(0, Math.floor((p.freshUntil - nowMs) / 1000));
  reply.header('x-cache', p.state);
  reply.header('etag', etag);
  reply.header('last-modified', new Date(p.fetchedAt).toUTCString());
  reply.header('cache-control', `public, max-age=${p.state === 'STALE' ? 0 : freshLeft}`);
  if (p.state !== 'MISS') reply.header('age', Math.max(0, Math.floor((nowMs - p.fetchedAt) / 1000)));
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
