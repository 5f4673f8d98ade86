// Content negotiation: JSON, CSV or Parquet (`?format`, Accept), which compression
// (Accept-Encoding), and conditional requests (If-None-Match). Pure functions of the request's
// headers and query.
//
// JSON, CSV or Parquet: `?format=` when given, else the Accept header read as RFC 9110 §12.5.1 says
// (media types case-insensitive, each offered type takes the q of the most specific range that
// matches it, `q=0` refuses one, the highest q wins). Between equal q values the more specific
// match wins (`text/csv, */*` is CSV), and a remaining tie goes to JSON, the API's own form, then
// CSV, whatever the order the client listed them in (`text/csv, application/json` is JSON). An
// Accept naming none of them (text/html) still gets JSON: errors and the default are JSON, and a
// browser's Accept should not turn into a 406.
import type { FastifyRequest } from 'fastify';

/** `?format=` wins; otherwise the Accept header (representationByAccept). */
export function representationAsked(req: FastifyRequest): Representation {
  const format = (req.query as Record<string, unknown> | undefined)?.format;
  return representationOf(format, req.headers.accept);
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

export type Representation = 'json' | 'csv' | 'parquet';

interface Preference {
  q: number;
  /** 0 for `*\/*`, 1 for `type/*`, 2 for the full type: the more specific range decides. */
  specificity: number;
}

const REFUSED: Preference = { q: 0, specificity: -1 };

/** How much `accept` wants `type/subtype` (both lower case). */
function preferenceFor(accept: string, type: string, subtype: string): Preference {
  let best = REFUSED;
  for (const range of accept.split(',')) {
    const [mediaRange = '', ...params] = range.split(';');
    const [t = '', s = ''] = mediaRange.trim().toLowerCase().split('/');
    const specificity =
      t === type && s === subtype ? 2 : t === type && s === '*' ? 1 : t === '*' && s === '*' ? 0 : -1;
    if (specificity < 0 || specificity < best.specificity) continue;
    let q = 1;
    for (const param of params) {
      const [name = '', value = ''] = param.split('=');
      if (name.trim().toLowerCase() !== 'q') continue;
      const parsed = Number(value.trim());
      q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
    }
    // The most specific range decides; among equally specific ones, the first.
    if (specificity > best.specificity) best = { q, specificity };
  }
  return best;
}

// In this order a tie of q and specificity is decided: JSON, the API's own form, first.
const OFFERED: ReadonlyArray<[Representation, string, string]> = [
  ['json', 'application', 'json'],
  ['csv', 'text', 'csv'],
  ['parquet', 'application', 'vnd.apache.parquet'],
];

function chooseByAccept(accept: string): Representation {
  let chosen: Representation = 'json';
  let best = REFUSED;
  for (const [representation, type, subtype] of OFFERED) {
    const p = preferenceFor(accept, type, subtype);
    if (p.q <= 0) continue;
    if (p.q > best.q || (p.q === best.q && p.specificity > best.specificity)) {
      chosen = representation;
      best = p;
    }
  }
  return chosen;
}

// Clients send few distinct Accept values, so each is parsed once; the bound keeps arbitrary
// values from growing the map.
const seen = new Map<string, Representation>();
const SEEN_MAX = 256;

/** What the Accept header alone chooses. */
export function representationByAccept(accept: string | undefined): Representation {
  if (accept === undefined || accept === '') return 'json';
  let chosen = seen.get(accept);
  if (chosen === undefined) {
    chosen = chooseByAccept(accept);
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(accept, chosen);
  }
  return chosen;
}

/** `?format=json|csv|parquet` wins over Accept. */
export function representationOf(format: unknown, accept: string | undefined): Representation {
  if (format === 'csv' || format === 'json' || format === 'parquet') return format;
  return representationByAccept(accept);
}
