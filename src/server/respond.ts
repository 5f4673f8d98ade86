// Success responses. A cached answer's `data` is serialised once per data version and kept as bytes
// with its ETag; each response splices a fresh `meta` around those bytes (stack-notes: serialising a
// large answer per request costs ~6× the throughput of sending cached bytes).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Provenance } from '../cache/types.ts';
import type { Answer } from '../market/answer.ts';
import { toCsv } from './csv.ts';

interface View {
  version: string;
  json: string;
  etag: string;
  count: number;
  /** Built on first CSV request. */
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
  ): FastifyReply;
}

export function createResponder(maxBytes: number, now: () => number = Date.now): Responder {
  const views = new LRUCache<string, View>({
    maxSize: maxBytes,
    sizeCalculation: (v) => v.json.length * 2 + 200,
  });

  function viewOf(answer: Answer<unknown>, viewKey: string): View {
    const { version } = answer.provenance;
    const held = views.get(viewKey);
    if (held && held.version === version) return held;
    const json = JSON.stringify(answer.data);
    const view: View = {
      version,
      json,
      etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
      count: Array.isArray(answer.data) ? answer.data.length : -1,
    };
    views.set(viewKey, view);
    return view;
  }

  return {
    send(req, reply, answer, viewKey, csv) {
      const view = viewOf(answer, viewKey);
      const asCsv = csv !== undefined && wantsCsv(req);
      if (csv) reply.header('vary', 'accept');
      const etag = asCsv ? `${view.etag.slice(0, -1)}-csv"` : view.etag;
      cachingHeaders(reply, answer.provenance, etag, now());
      if (etagMatches(req.headers['if-none-match'], etag)) {
        return reply.code(304).send();
      }
      if (asCsv) {
        view.csv ??= toCsv(answer.data as unknown[]);
        reply.header('content-disposition', `attachment; filename="${csv.filename}.csv"`);
        return reply.type('text/csv; charset=utf-8').send(view.csv);
      }
      return reply
        .type('application/json; charset=utf-8')
        .send(envelope(view.json, answer.provenance.state !== 'MISS', view.count));
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

/** `{"data":…,"meta":{…}}`, with `count` on lists only (spec: Response envelope). */
export function envelope(dataJson: string, cached: boolean, count: number): string {
  const countPart = count >= 0 ? `,"count":${count}` : '';
  return `{"data":${dataJson},"meta":{"timestamp":"${timestamp()}","cached":${cached}${countPart}}}`;
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
