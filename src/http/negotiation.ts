// Content negotiation: JSON or CSV (`?format`, Accept), which compression (Accept-Encoding), and
// conditional requests (If-None-Match). Pure functions of the request's headers and query.
import type { FastifyRequest } from 'fastify';

/** `?format=csv` wins; otherwise an Accept that names text/csv and not JSON. */
export function wantsCsv(req: FastifyRequest): boolean {
  const format = (req.query as Record<string, unknown> | undefined)?.format;
  if (format === 'csv') return true;
  if (format === 'json') return false;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/csv') && !accept.includes('application/json');
}

export type Encoding = 'gzip' | 'br' | null;

// Clients send a handful of distinct Accept-Encoding values (a browser always the same one), so
// each is parsed once; the bound keeps arbitrary values from growing the map.
const encodingsSeen = new Map<string, Encoding>();
const ENCODINGS_SEEN_MAX = 256;

/** gzip when the client takes it (cached, spliced), else br when it takes that, else identity. */
export function encodingOf(header: string | undefined): Encoding {
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

export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}
