// OpenAPI examples of the whole-market endpoints over the archive (docs/archive.md), with the fake
// portal's values.
import type { OperationExamples } from './openapi-example-types.ts';

const ENGRO_BAR = {
  symbol: 'ENGRO',
  date: '2026-11-19',
  open: 421.5,
  high: 428.9,
  low: 418.2,
  close: 426.83,
  volume: 51234,
  is_anomaly: false,
  anomaly_reasons: [],
};
const HBL_BAR = {
  ...ENGRO_BAR,
  symbol: 'HBL',
  open: 281.1,
  high: 284,
  low: 279.55,
  close: 282.4,
  volume: 120450,
};
const UNAVAILABLE = [
  {
    code: 'not_ready',
    message:
      'the archive is unavailable right now; endpoints that do not read it keep working, try again shortly',
  },
];

export const ARCHIVE_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/daily': {
    params: { date: '2026-11-19', index: 'KSE100', sector: '0804', symbols: 'ENGRO,HBL', adjusted: false },
    request: '/market/daily?date=2026-11-19&symbols=ENGRO,HBL',
    client:
      "await api.GET('/market/daily', { params: { query: { date: '2026-11-19', symbols: 'ENGRO,HBL' } } })",
    data: [ENGRO_BAR, HBL_BAR],
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
    },
    request: '/historical?symbols=ENGRO,HBL,NOSUCH&start=2026-11-19&end=2026-11-19&layout=wide',
    client:
      "await api.GET('/historical', { params: { query: { symbols: 'ENGRO,HBL', start: '2026-11-19', layout: 'wide' } } })",
    data: [{ date: '2026-11-19', ENGRO: 426.83, HBL: 282.4 }],
    meta: { not_found: ['NOSUCH'], incomplete: [], sources: { archive: ['ENGRO', 'HBL'], portal: [] } },
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
    data: [
      {
        date: '2026-11-19',
        weekday: 'Thursday',
        open: '09:30',
        close: '15:30',
        break_start: null,
        break_end: null,
      },
      {
        date: '2026-11-20',
        weekday: 'Friday',
        open: '09:15',
        close: '16:30',
        break_start: '12:00',
        break_end: '14:30',
      },
    ],
    errors: {
      400: [{ code: 'bad_request', message: 'from (2026-11-20) is after to (2026-11-19)' }],
      503: UNAVAILABLE,
    },
  },
  '/archive/status': {
    params: {},
    request: '/archive/status',
    client: "await api.GET('/archive/status')",
    data: {
      backend: 'sqlite',
      archiver: 'backfill',
      symbols_done: 312,
      symbols_total: 540,
      rows: 1254300,
      days: 4120,
      first_date: '2009-01-01',
      last_date: '2026-11-20',
      rate_per_minute: 19.8,
      eta_seconds: 691,
      fetches_per_minute: 20,
      last_recorded_day: '2026-11-20',
      last_error: null,
      last_error_at: null,
    },
    errors: { 503: UNAVAILABLE },
  },
};
