// Examples for the OpenAPI document: an example value for every parameter, one example response
// for every operation's success and for every error status it documents, and an "Example" section
// in each operation's description with the request and the matching typed-client call. Kept apart
// from the routes so the route files stay about behaviour. This file and its per-feature files say
// which request each example is; the success answers are the service's own over the fake portal,
// written by `npm run gen:examples` (openapi-examples.generated.ts), so whatever /docs shows can be
// reproduced with `npm run demo`.

import { ANALYTICS_OPERATION_EXAMPLES } from './openapi-examples-analytics.ts';
import { ARCHIVE_OPERATION_EXAMPLES } from './openapi-examples-archive.ts';
import { COMPANY_OPERATION_EXAMPLES } from './openapi-examples-company.ts';
import { FEED_OPERATION_EXAMPLES } from './openapi-examples-feeds.ts';
import { GENERATED_EXAMPLES } from './openapi-examples.generated.ts';
import { OVERVIEW_OPERATION_EXAMPLES } from './openapi-examples-overview.ts';
import { toCsv } from './csv.ts';
import type { ErrorExample, GeneratedAnswer, OperationExamples } from './openapi-example-types.ts';

export type { OperationExamples } from './openapi-example-types.ts';

/** The parts of an OpenAPI 3.1 document this module reads or writes. */
export interface OpenApiDoc {
  info: { description?: string };
  paths?: Record<string, Partial<Record<string, OpenApiOperation>>>;
}

interface OpenApiOperation {
  description?: string;
  parameters?: { name: string; in: string; example?: unknown }[];
  responses?: Record<string, { content?: Record<string, OpenApiMediaType> }>;
}

interface OpenApiMediaType {
  examples?: Record<string, { summary: string; value: unknown }>;
  /** A single example (the CSV form of an overview, openapi-contract.ts). */
  example?: unknown;
}

const SYMBOL_422: ErrorExample[] = [
  {
    code: 'bad_request',
    message:
      'symbol must be 1–25 letters, digits, ".", "&" or "-", starting with a letter or digit (got "EN GRO")',
  },
];
const SYMBOL_404: ErrorExample[] = [{ code: 'not_found', message: 'NOSUCH not found' }];

/** Intraday series, index history, batch quotes, movers, breadth, the quote stream. */
const LIVE_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/intraday': {
    params: { symbol: 'HBL', interval: '15m', date: '2026-11-19' },
    request: '/stocks/HBL/intraday?interval=15m',
    client:
      "await api.GET('/stocks/{symbol}/intraday', { params: { path: { symbol: 'HBL' }, query: { interval: '15m' } } })",
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/indices/{name}/intraday': {
    params: { name: 'KSE100', interval: '60m', date: '2026-11-19' },
    request: '/indices/KSE100/intraday?interval=60m',
    client:
      "await api.GET('/indices/{name}/intraday', { params: { path: { name: 'KSE100' }, query: { interval: '60m' } } })",
    errors: { 404: [{ code: 'not_found', message: 'index NOSUCH not found' }] },
  },
  '/indices/{name}/historical': {
    params: { name: 'KSE100', start: '2026-11-16', end: '2026-11-17', order: 'asc', limit: 100 },
    request: '/indices/KSE100/historical?start=2026-11-16&end=2026-11-17',
    client:
      "await api.GET('/indices/{name}/historical', { params: { path: { name: 'KSE100' }, query: { start: '2026-11-16', end: '2026-11-17' } } })",
    errors: {
      400: [{ code: 'bad_request', message: 'start (2026-11-20) is after end (2026-11-16)' }],
      404: [{ code: 'not_found', message: 'index NOSUCH not found' }],
    },
  },
  '/quotes': {
    params: { symbols: 'ENGRO,NOSUCH' },
    request: '/quotes?symbols=ENGRO,NOSUCH',
    client: "await api.GET('/quotes', { params: { query: { symbols: 'ENGRO,NOSUCH' } } })",
    errors: {
      400: [
        {
          code: 'bad_request',
          message: 'symbols must not be empty: give at least one symbol, e.g. symbols=ENGRO,HBL',
        },
      ],
      422: [
        { code: 'bad_request', message: 'symbols must name at most 100 symbols per request (got 101)' },
        {
          code: 'bad_request',
          message:
            'symbols is required: a comma-separated list of up to 100 symbols, case-insensitive (duplicates count once), e.g. symbols=ENGRO,HBL',
          summary: 'no symbols parameter',
        },
      ],
    },
  },
  '/market/movers': {
    params: { by: 'gainers', limit: 2 },
    request: '/market/movers?by=gainers&limit=2',
    client: "await api.GET('/market/movers', { params: { query: { by: 'gainers', limit: 2 } } })",
  },
  '/stream/quotes': {
    params: { symbols: 'HBL,ENGRO', 'last-event-id': '41' },
    request: '/stream/quotes?symbols=HBL,ENGRO',
    client:
      "new EventSource('/stream/quotes?symbols=HBL,ENGRO').addEventListener('quote', (e) => JSON.parse(e.data))",
    stream:
      'retry: 3000\n\nid: 41\nevent: quote\ndata: {"symbol":"HBL","price":306.1,…}\n\nid: 41\nevent: quote\ndata: {"symbol":"ENGRO",…}\n\n: heartbeat\n\nid: 42\nevent: quote\ndata: {"symbol":"HBL","price":305.49,…}\n\n',
    errors: {
      400: [
        {
          code: 'bad_request',
          message: 'symbols must not be empty: give at least one symbol, e.g. symbols=ENGRO,HBL',
        },
      ],
      422: [{ code: 'bad_request', message: 'symbols must name at most 100 symbols per request (got 101)' }],
      404: [{ code: 'not_found', message: 'none of NOSUCH is listed' }],
      429: [
        {
          code: 'rate_limited',
          message: 'at most 5 concurrent streams per client address; close one first',
        },
      ],
    },
  },
  '/market/breadth': {
    params: {},
    request: '/market/breadth',
    client: "await api.GET('/market/breadth')",
  },
};

const SHUTTING_DOWN: ErrorExample = {
  code: 'not_ready',
  message: 'the service is shutting down; retry on another replica',
};

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/health': {
    params: { ready: '1' },
    request: '/health',
    client: "await api.GET('/health')",
    // Readiness never asks the exchange: its 503 is the service's own state.
    errors: {
      503: [SHUTTING_DOWN, { code: 'not_ready', message: 'not ready: the local store is unusable' }],
    },
  },
  '/stocks': {
    params: { index: 'KSE30', q: 'habib' },
    request: '/stocks?index=KSE30',
    rows: 6,
    client: "await api.GET('/stocks', { params: { query: { index: 'KSE30' } } })",
    errors: {
      404: [{ code: 'not_found', message: 'index NOSUCH not found' }],
      400: [
        { code: 'bad_request', message: 'index must not be empty' },
        { code: 'bad_request', message: 'q must not be empty: give part of a symbol or company name' },
      ],
      422: [
        {
          code: 'bad_request',
          message: 'index must be at most 40 characters (got "KSE100KSE100KSE100KSE100KSE100KS…")',
        },
      ],
    },
  },
  '/stocks/{symbol}/quote': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/quote',
    warm: ['/stocks/ENGRO/profile'],
    client: "await api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } })",
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/stocks/{symbol}/historical': {
    params: {
      symbol: 'ENGRO',
      start: '2025-06-12',
      end: '2025-06-16',
      order: 'asc',
      limit: 100,
      adjusted: true,
      dividends: false,
    },
    request: '/stocks/ENGRO/historical?start=2025-06-12&end=2025-06-16',
    // The third row is a 25 % bonus issue's ex-date: its unadjusted close falls far beyond the day's
    // circuit breaker, and the adjusted form divides the rows before it by 1.25.
    rows: 3,
    client:
      "await api.GET('/stocks/{symbol}/historical', {\n  params: { path: { symbol: 'ENGRO' }, query: { start: '2025-06-12', end: '2025-06-16' } },\n})",
    alternatives: {
      adjusted: {
        request: '/stocks/ENGRO/historical?start=2025-06-12&end=2025-06-16&adjusted=true',
      },
    },
    errors: {
      400: [
        { code: 'bad_request', message: 'start (2025-02-01) is after end (2025-01-01)' },
        {
          code: 'bad_request',
          message: 'dividends=true adjusts prices: use it with adjusted=true',
          summary: 'dividends=true alone',
        },
      ],
      404: SYMBOL_404,
      422: [
        {
          code: 'bad_request',
          message: 'limit must be at least 1 (got "0")',
          summary: 'limit=0',
        },
        {
          code: 'bad_request',
          message: 'adjusted must be true or false (got "yes")',
          summary: 'adjusted=yes',
        },
        {
          code: 'bad_request',
          message: 'start must be a calendar date as YYYY-MM-DD (got "2025-13-01")',
          summary: 'start=2025-13-01',
        },
      ],
    },
  },
  '/stocks/{symbol}/corporate-actions': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/corporate-actions',
    client: "await api.GET('/stocks/{symbol}/corporate-actions', { params: { path: { symbol: 'ENGRO' } } })",
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/stocks/{symbol}/fundamentals': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/fundamentals',
    client: "await api.GET('/stocks/{symbol}/fundamentals', { params: { path: { symbol: 'ENGRO' } } })",
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/indices': {
    params: {},
    request: '/indices',
    rows: 3,
    client: "await api.GET('/indices')",
  },
  '/indices/{name}': {
    params: { name: 'KSE100' },
    request: '/indices/KSE100',
    client: "await api.GET('/indices/{name}', { params: { path: { name: 'KSE100' } } })",
    errors: {
      404: [{ code: 'not_found', message: 'index NOSUCH not found' }],
      422: [
        {
          code: 'bad_request',
          message: 'name must be at most 40 characters (got "KSE100KSE100KSE100KSE100KSE100KS…")',
        },
      ],
    },
  },
  '/sectors': {
    params: {},
    request: '/sectors',
    client: "await api.GET('/sectors')",
  },
  '/sectors/{name}/stocks': {
    params: { name: 'cement' },
    request: '/sectors/cement/stocks',
    rows: 8,
    client: "await api.GET('/sectors/{name}/stocks', { params: { path: { name: 'cement' } } })",
    errors: {
      404: [{ code: 'not_found', message: 'sector nosuch not found' }],
      422: [
        {
          code: 'bad_request',
          message: 'name must be at most 100 characters (got "CEMENTCEMENTCEMENTCEMENTCEMENTCE…")',
        },
      ],
    },
  },
  '/screener': {
    params: {},
    request: '/screener',
    client: "await api.GET('/screener')",
    errors: {
      400: [{ code: 'bad_request', message: 'proxy passthrough is disabled on this server' }],
      502: [
        { code: 'upstream_data_error', message: "the exchange's screener page could not be read: no table" },
        {
          code: 'proxy_unreachable',
          message: 'proxy http://127.0.0.1:3128 refused the connection (nothing listening?)',
        },
      ],
    },
  },
  '/market/summary': {
    params: {},
    request: '/market/summary',
    client: "await api.GET('/market/summary')",
  },
  ...COMPANY_OPERATION_EXAMPLES,
  ...FEED_OPERATION_EXAMPLES,
  ...ANALYTICS_OPERATION_EXAMPLES,
  ...OVERVIEW_OPERATION_EXAMPLES,
  ...LIVE_EXAMPLES,
  ...ARCHIVE_OPERATION_EXAMPLES,
  '/market/status': {
    params: {},
    request: '/market/status',
    client: "await api.GET('/market/status')",
    // From the clock alone: the only 503 is the service shutting down.
    errors: { 503: [SHUTTING_DOWN] },
  },
};

/** What each status answers when an operation has nothing more specific to say. */
const DEFAULT_ERRORS: Readonly<Record<number, ErrorExample[]>> = {
  404: [{ code: 'not_found', message: 'not found' }],
  422: [{ code: 'bad_request', message: 'format must be json or csv (got "xml")' }],
  431: [{ code: 'headers_too_large', message: 'the request line and headers exceed the server limit' }],
  429: [{ code: 'rate_limited', message: 'Rate limit exceeded', summary: 'rate_limited (see Retry-After)' }],
  500: [{ code: 'internal_error', message: 'internal server error' }],
  502: [
    {
      code: 'upstream_data_error',
      message: "the exchange's sector-summary page could not be read: no table",
    },
  ],
  503: [
    {
      code: 'exchange_unavailable',
      message: 'the exchange could not be reached (UND_ERR_SOCKET)',
      summary: 'exchange_unavailable: the portal is down and nothing is cached (see Retry-After)',
    },
  ],
};

/** Five lines from nothing to a typed call; also printed in the document's description. */
export const CLIENT_USAGE = [
  "import { createClient } from 'psx-market-data-client';",
  '',
  "const api = createClient({ baseUrl: 'http://localhost:8000' });",
  "const { data, error } = await api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } });",
  'if (error) throw new Error(error.error.message);',
  'console.log(data.data.price, data.meta.cached);',
].join('\n');

const processed = new WeakSet<object>();

/** Adds the examples to `doc` in place (idempotent) and returns it. */
/** Parameters shared by many endpoints: list format and the caller-proxy header. */
const COMMON_PARAMS: Record<string, string> = {
  format: 'json',
  'x-exchange-proxy': 'socks5h://user:secret@203.0.113.10:1080',
};

export function addOpenApiExamples<T extends OpenApiDoc>(doc: T): T {
  if (processed.has(doc)) return doc;
  processed.add(doc);
  doc.info.description =
    `${doc.info.description ?? ''}\n\n` +
    'The [dashboard](/) shows the same data; [/openapi.json](/openapi.json) is this document.\n\n' +
    `**Typed client** (TypeScript, generated from this document):\n\n\`\`\`ts\n${CLIENT_USAGE}\n\`\`\``;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const op = item.get;
    const ex = OPERATION_EXAMPLES[path];
    if (!op || !ex) continue;
    for (const param of op.parameters ?? []) {
      const value = ex.params[param.name] ?? COMMON_PARAMS[param.name];
      if (value !== undefined) param.example = value;
    }
    op.description = [
      op.description,
      `**Example request**\n\n\`\`\`http\nGET ${ex.request}\n\`\`\``,
      `**Typed client**\n\n\`\`\`ts\nconst { data, error } = ${ex.client};\n\`\`\``,
    ]
      .filter(Boolean)
      .join('\n\n');
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const stream = response.content?.['text/event-stream'];
      if (stream && ex.stream !== undefined) {
        stream.examples = { ok: { summary: `GET ${ex.request}`, value: ex.stream } };
        continue;
      }
      const media = response.content?.['application/json'];
      if (!media) continue;
      // A CSV form whose rows are not the data (openapi-contract.ts keeps this example).
      const generated = GENERATED_EXAMPLES[path];
      if (status === '200' && ex.csvRows !== undefined && generated && response.content) {
        const rows = ex.csvRows(generated.ok.data);
        const columns = Object.keys((rows[0] ?? {}) as object);
        response.content['text/csv'] = { example: toCsv(rows, columns) };
      }
      const examples =
        status === '200' ? successExample(path, ex) : errorExamples(Number(status), ex, queryNames(op));
      if (examples) media.examples = examples;
    }
  }
  return doc;
}

/**
 * The generated answers of `path` as examples; none before `npm run gen:examples` has seen the
 * operation (test/contract/openapi-examples-fresh.test.ts then says to run it).
 */
function successExample(
  path: string,
  ex: OperationExamples,
): NonNullable<OpenApiMediaType['examples']> | undefined {
  const generated = GENERATED_EXAMPLES[path];
  if (!generated) return undefined;
  const value = (answer: GeneratedAnswer) => ({ data: answer.data, meta: answer.meta });
  const out: NonNullable<OpenApiMediaType['examples']> = {
    ok: { summary: `GET ${ex.request}`, value: value(generated.ok) },
  };
  for (const [name, alt] of Object.entries(ex.alternatives ?? {})) {
    const answer = 'derive' in alt ? alt.derive(generated.ok) : generated.alternatives?.[name];
    if (answer) out[name] = { summary: `GET ${alt.request}`, value: value(answer) };
  }
  return out;
}

/** The query parameters an operation takes, as the unknown-parameter message lists them. */
function queryNames(op: OpenApiOperation): string[] {
  return (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
}

function errorExamples(
  status: number,
  ex: OperationExamples,
  query: string[],
): NonNullable<OpenApiMediaType['examples']> {
  const unknownParameter: ErrorExample = {
    code: 'bad_request',
    message: `unknown query parameter "from"; this endpoint takes ${query.join(', ') || 'none'}`,
    summary: 'an unknown query parameter (?from=…)',
  };
  const list = ex.errors?.[status] ??
    (status === 400 ? [unknownParameter] : undefined) ??
    DEFAULT_ERRORS[status] ?? [{ code: 'error', message: `HTTP ${status}` }];
  const out: NonNullable<OpenApiMediaType['examples']> = {};
  list.forEach((e, i) => {
    const key = list.length > 1 ? `${e.code}_${i + 1}` : e.code;
    out[key] = {
      summary: e.summary ?? `${e.code}: ${e.message}`,
      value: { error: { status, code: e.code, message: e.message } },
    };
  });
  return out;
}
