// OpenAPI examples of the whole-market endpoints over the archive (docs/archive.md): the requests
// and error examples; the answers are generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './openapi-example-types.ts';

const UNAVAILABLE = [
  {
    code: 'not_ready',
    message:
      'the archive is unavailable right now; endpoints that do not read it keep working, try again shortly',
  },
];

export const ARCHIVE_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/daily': {
    params: {
      date: '2026-11-19',
      index: 'KSE100',
      sector: '0804',
      symbols: 'ENGRO,HBL',
      adjusted: false,
      dividends: false,
    },
    request: '/market/daily?date=2026-11-19&symbols=ENGRO,HBL',
    client:
      "await api.GET('/market/daily', { params: { query: { date: '2026-11-19', symbols: 'ENGRO,HBL' } } })",
    errors: {
      400: [
        { code: 'bad_request', message: 'date 2026-12-01 is in the future (today in Karachi is 2026-11-20)' },
      ],
      404: [
        {
          code: 'not_found',
          message:
            'no session on 2026-11-14 in the archive: the previous trading day is 2026-11-13, the next 2026-11-16',
        },
      ],
      503: UNAVAILABLE,
    },
  },
  '/historical': {
    params: {
      symbols: 'ENGRO,HBL',
      start: '2026-11-19',
      end: '2026-11-19',
      layout: 'wide',
      field: 'close',
      adjusted: false,
      dividends: false,
    },
    request: '/historical?symbols=ENGRO,HBL,NOSUCH&start=2026-11-19&end=2026-11-19&layout=wide',
    client:
      "await api.GET('/historical', { params: { query: { symbols: 'ENGRO,HBL', start: '2026-11-19', layout: 'wide' } } })",
    errors: {
      422: [{ code: 'bad_request', message: 'symbols must name at most 100 symbols per request (got 101)' }],
      503: UNAVAILABLE,
    },
  },
  '/market/trading-days': {
    params: { from: '2026-11-19', to: '2026-11-20' },
    request: '/market/trading-days?from=2026-11-19&to=2026-11-20',
    client:
      "await api.GET('/market/trading-days', { params: { query: { from: '2026-11-19', to: '2026-11-20' } } })",
    errors: {
      400: [{ code: 'bad_request', message: 'from (2026-11-20) is after to (2026-11-19)' }],
      503: UNAVAILABLE,
    },
  },
  '/archive/status': {
    params: {},
    request: '/archive/status',
    measured: { rate_per_minute: 19.8 },
    client: "await api.GET('/archive/status')",
    errors: { 503: UNAVAILABLE },
  },
};
