// Examples for the OpenAPI document: an example value for every parameter, one example response
// for every operation's success and for every error status it documents, and an "Example" section
// in each operation's description with the request and the matching typed-client call. Kept apart
// from the routes so the route files stay about behaviour; the values are the fake portal's
// (dev/fake-portal), so whatever /docs shows can be reproduced with `npm run demo`.

import { ANALYTICS_OPERATION_EXAMPLES } from './openapi-examples-analytics.ts';
import { ARCHIVE_OPERATION_EXAMPLES } from './openapi-examples-archive.ts';
import { COMPANY_OPERATION_EXAMPLES, ENGRO_QUOTE_EXTRAS } from './openapi-examples-company.ts';
import { FEED_OPERATION_EXAMPLES } from './openapi-examples-feeds.ts';
import { OVERVIEW_OPERATION_EXAMPLES } from './openapi-examples-overview.ts';
import { toCsv } from './csv.ts';
import type { ErrorExample, OperationExamples } from './openapi-example-types.ts';

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

/** The fake portal's "now" (Fri 2026-11-20, 4:35 PM in Karachi), so examples agree with the demo. */
const TIMESTAMP = '2026-11-20T11:35:00+00:00';
/** When the example's data was read: the portal fetch, or the index-levels page's own `As of`. */
/** Market data fetched at 16:35:02 on a Friday is as of that day's close (README "Times"). */
const AS_OF = '2026-11-20T16:30:00+05:00';
/** The listing and filings are as of their fetch. */
const FETCHED_AS_OF = '2026-11-20T16:35:02+05:00';
const PAGE_AS_OF = '2026-11-20T16:35:00+05:00';
const SYMBOL_422: ErrorExample[] = [
  {
    code: 'bad_request',
    message:
      'symbol must be 1–25 letters, digits, ".", "&" or "-", starting with a letter or digit (got "EN GRO")',
  },
];
const SYMBOL_404: ErrorExample[] = [{ code: 'not_found', message: 'NOSUCH not found' }];

const ENGRO_QUOTE = {
  symbol: 'ENGRO',
  name: 'Engro Corporation Limited',
  sector_code: '0809',
  listed_in: 'ALLSHR,KMI30,KMIALLSHR,KSE100,KSE100PR,KSE30',
  price: 412.35,
  market_cap: 221267010000,
  pe_ratio: 10.0745,
  dividend_yield: 0,
  free_float: 268300000,
  volume_avg_30d: 46457.07,
  change_1y_pct: 107.995,
  ldcp: 426.83,
  open: 426.13,
  high: 436.43,
  low: 409.02,
  volume: 22155,
  change: -14.48,
  change_pct: -3.392,
  as_of: AS_OF,
  ...ENGRO_QUOTE_EXTRAS,
};

/** Intraday series, index history, batch quotes, movers, breadth, the quote stream. */
const LIVE_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/intraday': {
    params: { symbol: 'HBL', interval: '15m', date: '2026-11-19' },
    request: '/stocks/HBL/intraday?interval=15m',
    client:
      "await api.GET('/stocks/{symbol}/intraday', { params: { path: { symbol: 'HBL' }, query: { interval: '15m' } } })",
    data: [
      {
        time: '2026-11-20T09:15:00+05:00',
        open: 301.53,
        high: 306.72,
        low: 300.42,
        close: 303.39,
        volume: 105961,
        trades: 6,
      },
      {
        time: '2026-11-20T09:30:00+05:00',
        open: 309.14,
        high: 309.14,
        low: 306.78,
        close: 306.78,
        volume: 42391,
        trades: 2,
      },
    ],
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/indices/{name}/intraday': {
    params: { name: 'KSE100', interval: '60m', date: '2026-11-19' },
    request: '/indices/KSE100/intraday?interval=60m',
    client:
      "await api.GET('/indices/{name}/intraday', { params: { path: { name: 'KSE100' }, query: { interval: '60m' } } })",
    data: [
      {
        time: '2026-11-20T09:00:00+05:00',
        open: 168950.42,
        high: 168965.5185,
        low: 168747.6491,
        close: 168748.393,
        volume: 17919912,
        trades: 180,
      },
    ],
    errors: { 404: [{ code: 'not_found', message: 'index NOSUCH not found' }] },
  },
  '/indices/{name}/historical': {
    params: { name: 'KSE100', start: '2026-11-16', end: '2026-11-17', order: 'asc', limit: 100 },
    request: '/indices/KSE100/historical?start=2026-11-16&end=2026-11-17',
    client:
      "await api.GET('/indices/{name}/historical', { params: { path: { name: 'KSE100' }, query: { start: '2026-11-16', end: '2026-11-17' } } })",
    data: [
      { date: '2026-11-16', open: 166258.6745, high: null, low: null, close: 167246.3359, volume: 368413276 },
      { date: '2026-11-17', open: 167246.3359, high: null, low: null, close: 166886.6421, volume: 319397464 },
    ],
    errors: {
      400: [{ code: 'bad_request', message: 'start (2026-11-20) is after end (2026-11-16)' }],
      404: [{ code: 'not_found', message: 'index NOSUCH not found' }],
    },
  },
  '/quotes': {
    params: { symbols: 'ENGRO,NOSUCH' },
    request: '/quotes?symbols=ENGRO,NOSUCH',
    client: "await api.GET('/quotes', { params: { query: { symbols: 'ENGRO,NOSUCH' } } })",
    data: [ENGRO_QUOTE],
    meta: { not_found: ['NOSUCH'] },
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
    data: [
      {
        symbol: 'MTL',
        name: 'Millat Tractors Limited',
        price: 612.05,
        change: 31.78,
        change_pct: 5.477,
        volume: 286326,
      },
      {
        symbol: 'FATIMA',
        name: 'Fatima Fertilizer Company Limited',
        price: 147.38,
        change: 4.7,
        change_pct: 3.294,
        volume: 1258777,
      },
    ],
  },
  '/stream/quotes': {
    params: { symbols: 'HBL,ENGRO', 'last-event-id': '41' },
    request: '/stream/quotes?symbols=HBL,ENGRO',
    client:
      "new EventSource('/stream/quotes?symbols=HBL,ENGRO').addEventListener('quote', (e) => JSON.parse(e.data))",
    data: null,
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
    data: {
      advances: 24,
      declines: 37,
      unchanged: 3,
      total: 64,
      total_volume: 83267806,
      total_value: 15771817735,
    },
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
    data: { status: 'ok' },
    // Readiness never asks the exchange: its 503 is the service's own state.
    errors: {
      503: [SHUTTING_DOWN, { code: 'not_ready', message: 'not ready: the local store is unusable' }],
    },
  },
  '/stocks': {
    params: { index: 'KSE30', q: 'habib' },
    request: '/stocks?index=KSE30',
    client: "await api.GET('/stocks', { params: { query: { index: 'KSE30' } } })",
    data: ['AIRLINK', 'BAFL', 'BAHL', 'DGKC', 'EFERT', 'ENGRO'],
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
    client: "await api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } })",
    data: ENGRO_QUOTE,
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
    client:
      "await api.GET('/stocks/{symbol}/historical', {\n  params: { path: { symbol: 'ENGRO' }, query: { start: '2025-06-12', end: '2025-06-16' } },\n})",
    data: [
      {
        date: '2025-06-12',
        open: 639.92,
        high: 643.42,
        low: 615.15,
        close: 616.03,
        volume: 30869,
        is_anomaly: false,
        anomaly_reasons: [],
      },
      {
        date: '2025-06-13',
        open: 620.25,
        high: 635.38,
        low: 618.81,
        close: 619.69,
        volume: 105259,
        is_anomaly: false,
        anomaly_reasons: [],
      },
      // A bonus issue's ex-date: the unadjusted close falls far beyond the day's circuit breaker.
      {
        date: '2025-06-16',
        open: 487.77,
        high: 515.17,
        low: 479.37,
        close: 512.83,
        volume: 63210,
        is_anomaly: true,
        anomaly_reasons: ['beyond_price_limit'],
      },
    ],
    alternatives: {
      adjusted: {
        request: '/stocks/ENGRO/historical?start=2025-06-12&end=2025-06-16&adjusted=true',
        data: [
          {
            date: '2025-06-12',
            open: 511.936,
            high: 514.736,
            low: 492.12,
            close: 492.824,
            volume: 38586,
            is_anomaly: false,
            anomaly_reasons: [],
            adjustment_factor: 0.8,
          },
          {
            date: '2025-06-13',
            open: 496.2,
            high: 508.304,
            low: 495.048,
            close: 495.752,
            volume: 131574,
            is_anomaly: false,
            anomaly_reasons: [],
            adjustment_factor: 0.8,
          },
          // The 25 % bonus's ex-date: the gap is the action, and the rows before it are ÷ 1.25.
          {
            date: '2025-06-16',
            open: 487.77,
            high: 515.17,
            low: 479.37,
            close: 512.83,
            volume: 63210,
            is_anomaly: true,
            anomaly_reasons: ['beyond_price_limit', 'corporate_action'],
            adjustment_factor: 1,
          },
        ],
        meta: {
          adjustment: {
            status: 'full',
            series_start: '2022-02-07',
            partial_before: null,
            dividends: false,
            dividends_from: null,
            reason: null,
          },
        },
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
    data: [
      {
        ex_date: '2025-06-16',
        kind: 'capital_change',
        ratio: 1.25,
        amount: null,
        evidence: ['adjusted_series_step', 'raw_gap', 'beyond_price_limit', 'payouts'],
        applied: true,
        note: 'bonus 25 % on the payouts page',
      },
    ],
    meta: { coverage: { capital_changes_from: '2022-02-07', dividends_from: '2025-05-29', face_value: 10 } },
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/stocks/{symbol}/fundamentals': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/fundamentals',
    client: "await api.GET('/stocks/{symbol}/fundamentals', { params: { path: { symbol: 'ENGRO' } } })",
    data: [
      {
        symbol: 'ENGRO',
        year: '2026',
        type: 'Quarterly',
        period_ended: '2026-09-30',
        posting_date: '2026-10-22',
        document: 'https://financials.psx.com.pk/lib/DownloadPDF.php?id=201000',
      },
      {
        symbol: 'ENGRO',
        year: '2025',
        type: 'Annual',
        period_ended: '2025',
        posting_date: '2026-03-30',
        document: 'https://financials.psx.com.pk/lib/DownloadPDF.php?id=201003',
      },
    ],
    errors: { 404: SYMBOL_404, 422: SYMBOL_422 },
  },
  '/indices': {
    params: {},
    request: '/indices',
    client: "await api.GET('/indices')",
    data: [
      {
        index: 'KSE100',
        current: 167978.58,
        high: 169187.4,
        low: 167492.2,
        change: -971.84,
        change_pct: -0.5752,
      },
      { index: 'BKTI', current: 47019.25, high: 47122.73, low: 46790.48, change: 117.07, change_pct: 0.2496 },
      { index: 'HBLTTI', current: 19097.05, high: null, low: null, change: 3.87, change_pct: 0.0203 },
    ],
  },
  '/indices/{name}': {
    params: { name: 'KSE100' },
    request: '/indices/KSE100',
    client: "await api.GET('/indices/{name}', { params: { path: { name: 'KSE100' } } })",
    data: [
      {
        symbol: 'ABL',
        name: 'Allied Bank Limited',
        current_index: 171.22,
        idx_weight: 0.54,
        idx_point: -13.9983,
        market_cap_m: 19604.69,
        freefloat_m: 114.5,
        ldcp: 173.84,
        change: -2.62,
        change_pct: -1.507,
        volume: 4828963,
      },
      {
        symbol: 'AGP',
        name: 'AGP Limited',
        current_index: 152.8,
        idx_weight: 0.36,
        idx_point: -8.9368,
        market_cap_m: 12835.2,
        freefloat_m: 84,
        ldcp: 155.08,
        change: -2.28,
        change_pct: -1.47,
        volume: 451570,
      },
    ],
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
    data: [
      {
        sector_code: '0801',
        sector_name: 'AUTOMOBILE ASSEMBLER',
        advance: 1,
        decline: 5,
        unchanged: 0,
        turnover: 1699847,
        market_cap_b: 600,
      },
      {
        sector_code: '0804',
        sector_name: 'CEMENT',
        advance: 2,
        decline: 6,
        unchanged: 0,
        turnover: 14624855,
        market_cap_b: 844.4,
      },
    ],
  },
  '/sectors/{name}/stocks': {
    params: { name: 'cement' },
    request: '/sectors/cement/stocks',
    client: "await api.GET('/sectors/{name}/stocks', { params: { path: { name: 'cement' } } })",
    data: ['CHCC', 'DGKC', 'FCCL', 'KOHC', 'LUCK', 'MLCF', 'PIOC', 'POWER'],
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
    data: [
      {
        symbol: 'ABL',
        sector: 807,
        listed_in: 'ALLSHR,BKTI,JSGBKTI,KSE100,KSE100PR,PSXDIV20',
        market_cap: 196046900000,
        price: 171.22,
        pe_ratio: 19.7486,
        dividend_yield: 0,
        free_float: 114500000,
        volume_avg_30d: 2040695.35,
        change_1y_pct: 90.8807,
      },
      {
        symbol: '786R',
        sector: 813,
        listed_in: null,
        market_cap: 12325300,
        price: 2.47,
        pe_ratio: 0,
        dividend_yield: 0,
        free_float: 4990000,
        volume_avg_30d: 583401.3,
        change_1y_pct: 0,
      },
    ],
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
    data: {
      kse100: 167978.58,
      kse30: 49896.57,
      kmiallshare: 65827.98,
      allshare: 101771.11,
      kmi30: 239177.06,
    },
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
    data: {
      state: 'closed',
      now: '2026-11-20T16:35:00+05:00',
      next_open: '2026-11-23T09:30:00+05:00',
      next_close: '2026-11-23T15:30:00+05:00',
      session: null,
      clock_followed: true,
    },
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
      if (status === '200' && ex.csvRows !== undefined && response.content) {
        const columns = Object.keys((ex.csvRows[0] ?? {}) as object);
        response.content['text/csv'] = { example: toCsv(ex.csvRows, columns) };
      }
      media.examples =
        status === '200' ? successExample(path, ex) : errorExamples(Number(status), ex, queryNames(op));
    }
  }
  return doc;
}

function successExample(path: string, ex: OperationExamples): NonNullable<OpenApiMediaType['examples']> {
  const asOf =
    path === '/indices' || path === '/market/summary'
      ? PAGE_AS_OF
      : path === '/stocks/{symbol}/fundamentals'
        ? FETCHED_AS_OF
        : AS_OF;
  const metaOf = (data: unknown, extra: Record<string, unknown> = {}) =>
    path === '/health'
      ? { timestamp: TIMESTAMP, cached: false }
      : Array.isArray(data)
        ? { timestamp: TIMESTAMP, cached: false, count: data.length, as_of: asOf, ...extra }
        : { timestamp: TIMESTAMP, cached: false, as_of: asOf, ...extra };
  const out: NonNullable<OpenApiMediaType['examples']> = {
    ok: { summary: `GET ${ex.request}`, value: { data: ex.data, meta: metaOf(ex.data, ex.meta) } },
  };
  for (const [name, alt] of Object.entries(ex.alternatives ?? {})) {
    out[name] = {
      summary: `GET ${alt.request}`,
      value: { data: alt.data, meta: metaOf(alt.data, alt.meta) },
    };
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
