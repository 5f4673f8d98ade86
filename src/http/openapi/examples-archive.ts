// OpenAPI examples of the whole-market endpoints over the archive (docs/archive.md): the requests,
// and the requests that get each documented error; the answers are generated
// (openapi-examples.generated.ts, `npm run gen:examples`).
import { ARCHIVE_UNAVAILABLE } from '../../market/archive/archive.ts';
import type { ErrorSource, OperationExamples } from './example-types.ts';
import { TOO_MANY_SYMBOLS } from './examples-symbols.ts';

/** The archive's store out of reach, which the generator does not bring about: the archive's own words. */
const UNAVAILABLE: ErrorSource[] = [{ raised: { code: 'not_ready', message: ARCHIVE_UNAVAILABLE } }];

export const ARCHIVE_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/daily': {
    params: {
      date: '2026-11-19',
      index: 'KSE100',
      sector: '0804',
      symbols: 'ENGRO,HBL',
      market: 'equities',
      adjusted: false,
      dividends: false,
    },
    request: '/market/daily?date=2026-11-19&symbols=ENGRO,HBL',
    client:
      "await api.GET('/market/daily', { params: { query: { date: '2026-11-19', symbols: 'ENGRO,HBL' } } })",
    errors: {
      400: [{ request: '/market/daily?date=2026-12-01' }],
      404: [{ request: '/market/daily?date=2026-11-14' }],
      503: UNAVAILABLE,
    },
  },
  '/market/universe': {
    params: { date: '2026-11-19' },
    request: '/market/universe?date=2026-11-19',
    client: "await api.GET('/market/universe', { params: { query: { date: '2026-11-19' } } })",
    errors: {
      400: [{ request: '/market/universe?date=2026-12-01' }],
      404: [{ request: '/market/universe?date=2026-11-14' }],
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
      422: [{ request: `/historical?symbols=${TOO_MANY_SYMBOLS}&start=2026-11-19` }],
      503: UNAVAILABLE,
    },
  },
  '/market/trading-days': {
    params: { from: '2026-11-19', to: '2026-11-20' },
    request: '/market/trading-days?from=2026-11-19&to=2026-11-20',
    client:
      "await api.GET('/market/trading-days', { params: { query: { from: '2026-11-19', to: '2026-11-20' } } })",
    errors: {
      400: [{ request: '/market/trading-days?from=2026-11-20&to=2026-11-19' }],
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
