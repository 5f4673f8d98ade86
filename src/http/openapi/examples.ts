// Examples for the OpenAPI document: an example value for every parameter, one example response
// for every operation's success and for every error status it documents, and an "Example" section
// in each operation's description with the request and the matching typed-client call. Kept apart
// from the routes so the route files stay about behaviour. This file and its per-feature files say
// which request each example is, the errors' included; the answers are the service's own over the
// fake portal, written by `npm run gen:examples` (openapi-examples.generated.ts), so whatever /docs
// shows can be reproduced with `npm run demo`.

import { ANALYTICS_OPERATION_EXAMPLES } from './examples-analytics.ts';
import { ARCHIVE_OPERATION_EXAMPLES } from './examples-archive.ts';
import { COMPANY_OPERATION_EXAMPLES } from './examples-company.ts';
import { FEED_OPERATION_EXAMPLES } from './examples-feeds.ts';
import { GENERATED_ERRORS, GENERATED_EXAMPLES } from './examples.generated.ts';
import { OVERVIEW_OPERATION_EXAMPLES } from './examples-overview.ts';
import { symbolErrors, TOO_MANY_SYMBOLS } from './examples-symbols.ts';
import { toCsv } from '../pipeline/csv.ts';
import { ERROR_KINDS } from '../../errors.ts';
import { SHUTTING_DOWN_MESSAGE } from '../pipeline/front-door.ts';
import { STORE_UNUSABLE } from '../routes/health.ts';
import type {
  ErrorExample,
  ErrorRequest,
  ErrorSource,
  GeneratedAnswer,
  OperationExamples,
} from './example-types.ts';

export type { OperationExamples } from './example-types.ts';

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

/** Intraday series, index history, batch quotes, movers, breadth, the quote stream. */
const LIVE_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/intraday': {
    params: { symbol: 'HBL', interval: '15m', date: '2026-11-19' },
    request: '/stocks/HBL/intraday?interval=15m',
    client:
      "await api.GET('/stocks/{symbol}/intraday', { params: { path: { symbol: 'HBL' }, query: { interval: '15m' } } })",
    errors: symbolErrors('/intraday'),
  },
  '/indices/{name}/intraday': {
    params: { name: 'KSE100', interval: '60m', date: '2026-11-19' },
    request: '/indices/KSE100/intraday?interval=60m',
    client:
      "await api.GET('/indices/{name}/intraday', { params: { path: { name: 'KSE100' }, query: { interval: '60m' } } })",
    errors: { 404: [{ request: '/indices/NOSUCH/intraday' }] },
  },
  '/indices/{name}/historical': {
    params: { name: 'KSE100', start: '2026-11-16', end: '2026-11-17', order: 'asc', limit: 100 },
    request: '/indices/KSE100/historical?start=2026-11-16&end=2026-11-17',
    client:
      "await api.GET('/indices/{name}/historical', { params: { path: { name: 'KSE100' }, query: { start: '2026-11-16', end: '2026-11-17' } } })",
    errors: {
      400: [{ request: '/indices/KSE100/historical?start=2026-11-20&end=2026-11-16' }],
      404: [{ request: '/indices/NOSUCH/historical' }],
    },
  },
  '/quotes': {
    params: { symbols: 'ENGRO,NOSUCH' },
    request: '/quotes?symbols=ENGRO,NOSUCH',
    client: "await api.GET('/quotes', { params: { query: { symbols: 'ENGRO,NOSUCH' } } })",
    errors: {
      400: [{ request: '/quotes?symbols=' }],
      422: [
        { request: `/quotes?symbols=${TOO_MANY_SYMBOLS}` },
        { request: '/quotes', summary: 'no symbols parameter' },
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
      400: [{ request: '/stream/quotes?symbols=' }],
      422: [{ request: `/stream/quotes?symbols=${TOO_MANY_SYMBOLS}` }],
      404: [{ request: '/stream/quotes?symbols=NOSUCH' }],
      429: [{ request: '/stream/quotes?symbols=HBL', state: 'streams-full' }],
    },
  },
  '/market/breadth': {
    params: {},
    request: '/market/breadth',
    client: "await api.GET('/market/breadth')",
  },
};

const SHUTTING_DOWN: ErrorSource = { raised: { code: 'not_ready', message: SHUTTING_DOWN_MESSAGE } };

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/health': {
    params: { ready: '1' },
    request: '/health',
    client: "await api.GET('/health')",
    // Readiness never asks the exchange: its 503 is the service's own state.
    errors: {
      503: [SHUTTING_DOWN, { raised: { code: 'not_ready', message: STORE_UNUSABLE } }],
    },
  },
  '/health/portal': {
    params: {},
    request: '/health/portal',
    // What the quote's example warms too (the company page): so this warming changes no other example.
    warm: ['/stocks/ENGRO/profile'],
    rows: 20,
    client: "await api.GET('/health/portal')",
    errors: { 400: [{ request: '/health/portal?page=screener' }], 503: [SHUTTING_DOWN] },
  },
  '/stocks': {
    params: { index: 'KSE30', q: 'habib' },
    request: '/stocks?index=KSE30',
    rows: 6,
    client: "await api.GET('/stocks', { params: { query: { index: 'KSE30' } } })",
    errors: {
      404: [{ request: '/stocks?index=NOSUCH' }],
      400: [{ request: '/stocks?index=' }, { request: '/stocks?q=' }],
      422: [{ request: `/stocks?index=${'KSE100'.repeat(7)}` }],
    },
  },
  '/stocks/{symbol}/quote': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/quote',
    warm: ['/stocks/ENGRO/profile'],
    client: "await api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } })",
    errors: symbolErrors('/quote'),
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
        { request: '/stocks/ENGRO/historical?start=2025-02-01&end=2025-01-01' },
        { request: '/stocks/ENGRO/historical?dividends=true', summary: 'dividends=true alone' },
      ],
      404: [{ request: '/stocks/NOSUCH/historical' }],
      422: [
        { request: '/stocks/ENGRO/historical?limit=0', summary: 'limit=0' },
        { request: '/stocks/ENGRO/historical?adjusted=yes', summary: 'adjusted=yes' },
        { request: '/stocks/ENGRO/historical?start=2025-13-01', summary: 'start=2025-13-01' },
      ],
    },
  },
  '/stocks/{symbol}/corporate-actions': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/corporate-actions',
    client: "await api.GET('/stocks/{symbol}/corporate-actions', { params: { path: { symbol: 'ENGRO' } } })",
    errors: symbolErrors('/corporate-actions'),
  },
  '/stocks/{symbol}/fundamentals': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/fundamentals',
    client: "await api.GET('/stocks/{symbol}/fundamentals', { params: { path: { symbol: 'ENGRO' } } })",
    errors: symbolErrors('/fundamentals'),
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
      404: [{ request: '/indices/NOSUCH' }],
      422: [{ request: `/indices/${'KSE100'.repeat(7)}` }],
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
      404: [{ request: '/sectors/nosuch/stocks' }],
      422: [{ request: `/sectors/${'CEMENT'.repeat(17)}/stocks` }],
    },
  },
  '/screener': {
    params: {},
    request: '/screener',
    client: "await api.GET('/screener')",
    errors: {
      400: [{ request: '/screener', state: 'proxy-not-allowed' }],
      502: [
        { request: '/screener', state: 'portal-garbage', portalPath: '/screener' },
        { request: '/screener', state: 'proxy-refused' },
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

/** The errors every operation can meet where it has nothing more specific to say, by status. */
export const DEFAULT_ERRORS: Readonly<Record<number, ErrorSource[]>> = {
  422: [{ request: '/sectors?format=xml' }],
  431: [{ request: '/sectors', state: 'headers-too-large' }],
  429: [{ request: '/sectors', state: 'rate-limited', summary: 'rate_limited (see Retry-After)' }],
  // No request can make the service fail: the error table's own answer.
  500: [{ raised: { code: ERROR_KINDS.internal.code, message: ERROR_KINDS.internal.message } }],
  502: [{ request: '/sectors', state: 'portal-garbage', portalPath: '/sector-summary' }],
  503: [
    {
      request: '/sectors',
      state: 'portal-down',
      summary: 'exchange_unavailable: the portal is down and nothing is cached (see Retry-After)',
    },
  ],
};

/** The 400 of an operation without its own: a query parameter it does not take. */
export function unknownParameter(request: string): ErrorRequest {
  return {
    request: `${request}${request.includes('?') ? '&' : '?'}from=2026-01-01`,
    summary: 'an unknown query parameter (?from=…)',
  };
}

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
      const examples = status === '200' ? successExample(path, ex) : errorExamples(path, Number(status));
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

/**
 * The generated errors of `path` with `status` (the defaults where the operation has none of its
 * own); a placeholder before `npm run gen:examples` has seen them (the freshness test then fails).
 */
function errorExamples(path: string, status: number): NonNullable<OpenApiMediaType['examples']> {
  const list = GENERATED_ERRORS[path]?.[status] ??
    GENERATED_ERRORS['*']?.[status] ?? [{ code: 'error', message: `HTTP ${status}` }];
  const out: NonNullable<OpenApiMediaType['examples']> = {};
  list.forEach((e: ErrorExample, i) => {
    const key = list.length > 1 ? `${e.code}_${i + 1}` : e.code;
    out[key] = {
      summary: e.summary ?? `${e.code}: ${e.message}`,
      value: { error: { status, code: e.code, message: e.message } },
    };
  });
  return out;
}
