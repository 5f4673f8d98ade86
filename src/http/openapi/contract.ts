// What the OpenAPI document promises beyond each route's own schema, added once every route is
// known: the response headers every answer carries (ETag, Last-Modified, Age, X-Cache,
// Cache-Control, RateLimit-*, Retry-After, X-Request-Id), the statuses every operation can answer
// (304 for a conditional request, 400 for a request line or parameter Node or the validator
// refuses, 431 for oversized headers, 429 and 503 with Retry-After), and the CSV and Parquet forms
// of every operation beside its JSON. Documentation only: nothing here runs per request.
import { toCsv } from '../pipeline/csv.ts';
import type { OpenApiDoc } from './examples.ts';
import { SYMBOL_COLUMNS } from '../pipeline/schemas.ts';

type Json = Record<string, unknown>;

interface Operation {
  responses?: Record<string, Json & { content?: Record<string, Json>; headers?: Json }>;
}

const header = (description: string, schema: Json): Json => ({ description, schema });

/** Response headers, as components the responses refer to. */
export const RESPONSE_HEADERS: Record<string, Json> = {
  ETag: header(
    'validator of this representation (JSON, CSV and Parquet differ); send it back in If-None-Match',
    {
      type: 'string',
    },
  ),
  LastModified: header(
    'when the portal data behind the answer was fetched (HTTP date); send it back in If-Modified-Since',
    { type: 'string' },
  ),
  Age: header('seconds since the cached data was fetched (absent on a fresh fetch)', {
    type: 'integer',
    minimum: 0,
  }),
  XCache: header(
    'HIT (fresh cache), MISS (fetched for this request) or STALE (an old copy: the portal failed)',
    {
      type: 'string',
      enum: ['HIT', 'MISS', 'STALE'],
    },
  ),
  CacheControl: header('public, max-age=<seconds of freshness left>; no-store on errors', { type: 'string' }),
  RateLimitLimit: header('requests allowed per window per client IP', { type: 'integer' }),
  RateLimitRemaining: header('requests left in the current window', { type: 'integer' }),
  RateLimitReset: header('seconds until the window resets', { type: 'integer' }),
  RetryAfter: header('seconds to wait before retrying', { type: 'integer', minimum: 0 }),
  XRequestId: header("this request's id (the caller's X-Request-Id when it is a sane token)", {
    type: 'string',
  }),
  XAsOf: header('meta.as_of: when the data is from, ISO 8601 with +05:00 (every data answer, any format)', {
    type: 'string',
  }),
  XWarning: header(
    "CSV and Parquet only, when the meta warns: comma-separated tokens adjustment-partial, adjustment-unavailable, incomplete, not-found, coverage-incomplete, missing (docs/api.md, 'the meta in headers')",
    { type: 'string' },
  ),
  XMeta: header(
    "CSV and Parquet only: the data's meta (as_of and the answer's own fields) as JSON, non-ASCII escaped; absent when longer than 8 KB",
    { type: 'string' },
  ),
};

const ref = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

const RATE_LIMIT = {
  'RateLimit-Limit': ref('RateLimitLimit'),
  'RateLimit-Remaining': ref('RateLimitRemaining'),
  'RateLimit-Reset': ref('RateLimitReset'),
};

const SUCCESS_HEADERS = {
  ETag: ref('ETag'),
  'X-As-Of': ref('XAsOf'),
  'X-Warning': ref('XWarning'),
  'X-Meta': ref('XMeta'),
  'Last-Modified': ref('LastModified'),
  Age: ref('Age'),
  'X-Cache': ref('XCache'),
  'Cache-Control': ref('CacheControl'),
  'X-Request-Id': ref('XRequestId'),
  ...RATE_LIMIT,
};

const ERROR_HEADERS = { 'Cache-Control': ref('CacheControl'), 'X-Request-Id': ref('XRequestId') };

/** Statuses every data operation can answer, whatever its route says. */
const COMMON_ERRORS: Record<string, string> = {
  '400':
    'a query parameter the endpoint does not take, or one given empty (the message names it and the accepted ones), or a request line Node cannot parse (code bad_request; the connection is then closed)',
  '431':
    'the request line and headers exceed the server limit (code headers_too_large; the connection is then closed)',
  '503': 'the service is shutting down (code not_ready; the connection is then closed)',
};

// Answers about the service itself, not built from portal data, and the event stream (never a
// cached answer): no ETag, 304 or CSV form.
const SERVICE_PATHS: ReadonlySet<string> = new Set([
  '/health',
  '/health/portal',
  '/market/status',
  '/stream/quotes',
]);

export function completeOpenApi<T extends OpenApiDoc>(doc: T): T {
  const d = doc as unknown as Json & { components?: Json; paths?: Record<string, Record<string, Operation>> };
  const components = (d.components ??= {}) as Json;
  components.headers = { ...(components.headers as Json | undefined), ...RESPONSE_HEADERS };
  for (const [path, item] of Object.entries(d.paths ?? {})) {
    const op = item.get;
    if (op?.responses === undefined) continue;
    const responses = op.responses;
    const errorSchema = { $ref: '#/components/schemas/ErrorEnvelope' };
    for (const [status, description] of Object.entries(COMMON_ERRORS)) {
      responses[status] ??= {
        description,
        content: { 'application/json': { schema: errorSchema } },
      };
    }
    const service = SERVICE_PATHS.has(path);
    for (const [status, response] of Object.entries(responses)) {
      if (status === '200') {
        response.headers = service ? { 'X-Request-Id': ref('XRequestId'), ...RATE_LIMIT } : SUCCESS_HEADERS;
      } else if (status === '429' || (status === '503' && !service)) {
        response.headers = { ...ERROR_HEADERS, 'Retry-After': ref('RetryAfter'), ...RATE_LIMIT };
      } else {
        response.headers = ERROR_HEADERS;
      }
    }
    if (!service) {
      responses['304'] = {
        description:
          'Not Modified: the If-None-Match ETag still matches (or, without If-None-Match, nothing changed since If-Modified-Since); no body',
        headers: SUCCESS_HEADERS,
      };
    }
  }
  return doc;
}

/**
 * `text/csv` beside the JSON on every data operation's 200, with an example made from the JSON
 * example's data (so run it after the examples are added).
 */
export function addCsvForms<T extends OpenApiDoc>(doc: T): T {
  const paths = (doc as unknown as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    const ok = item.get?.responses?.['200'];
    if (ok !== undefined && !SERVICE_PATHS.has(path)) addCsv(ok);
  }
  return doc;
}

function addCsv(response: { content?: Record<string, Json> }): void {
  const json = response.content?.['application/json'];
  if (json === undefined) return;
  const examples = json.examples as Record<string, { value?: { data?: unknown } }> | undefined;
  const data = Object.values(examples ?? {})[0]?.value?.data;
  const given = (response.content?.['text/csv'] as { example?: unknown } | undefined)?.example;
  response.content!['text/csv'] = {
    schema: {
      type: 'string',
      description:
        'RFC 4180 CSV (with ?format=csv or Accept: text/csv): a header row (also for an empty list), one row per item (a single object is one row), null as an empty field, lists joined with ";"',
    },
    ...(typeof given === 'string'
      ? { example: given }
      : data === undefined
        ? {}
        : { example: csvExample(data) }),
  };
  response.content!['application/vnd.apache.parquet'] = {
    schema: {
      type: 'string',
      contentMediaType: 'application/vnd.apache.parquet',
      description:
        "Apache Parquet (with ?format=parquet or Accept: application/vnd.apache.parquet): the JSON answer's rows in its order, typed columns (dates DATE, times TIMESTAMP adjusted to UTC, counts INT64, other numbers DOUBLE, codes and symbols UTF8, lists of strings LIST), gzip pages; the meta as JSON in the file's key-value metadata under `meta`",
    },
  };
}

function csvExample(data: unknown): string {
  const rows = (Array.isArray(data) ? data : [data]) as unknown[];
  return toCsv(rows, SYMBOL_COLUMNS);
}
