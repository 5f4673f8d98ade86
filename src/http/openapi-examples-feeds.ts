// OpenAPI examples of the market-wide feeds (routes/feeds.ts): the requests and error examples; the
// answers are generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './openapi-example-types.ts';

const RANGE_400 = [
  {
    code: 'bad_request',
    message: 'the range 2025-01-01 to 2026-06-01 spans 517 days; at most 366 days (one year) per request',
  },
  { code: 'bad_request', message: 'from (2026-12-01) is after to (2026-11-01)' },
];

export const FEED_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/payouts': {
    params: { from: '2026-11-01', to: '2026-11-20', kind: 'cash_dividend', symbol: 'FFC' },
    request: '/market/payouts?from=2026-11-01&to=2026-11-20&symbol=FFC',
    client:
      "await api.GET('/market/payouts', {\n  params: { query: { from: '2026-11-01', to: '2026-11-20', symbol: 'FFC' } },\n})",
    errors: {
      400: RANGE_400,
      422: [{ code: 'bad_request', message: 'kind must be cash_dividend, bonus or right (got "dividend")' }],
      502: [
        {
          code: 'upstream_data_error',
          message: "the exchange's market-payouts page could not be read: no table",
        },
      ],
    },
  },
  '/market/calendar': {
    params: { from: '2026-11-25', to: '2026-11-25', type: 'AGM', symbol: 'ENGRO' },
    request: '/market/calendar?from=2026-11-25&to=2026-11-25&symbol=ENGRO',
    client:
      "await api.GET('/market/calendar', {\n  params: { query: { from: '2026-11-25', to: '2026-11-25', symbol: 'ENGRO' } },\n})",
    errors: {
      400: RANGE_400,
      422: [{ code: 'bad_request', message: 'type must be AGM or EOGM (got "agm")' }],
      502: [
        {
          code: 'upstream_data_error',
          message: "the exchange's calendar page could not be read: malformed JSON",
        },
      ],
    },
  },
  '/announcements': {
    params: {
      symbol: 'ENGRO',
      type: 'companies',
      limit: 2,
      q: 'report',
      from: '2026-10-01',
      to: '2026-11-20',
      cursor: 'bzI',
    },
    request: '/announcements?symbol=ENGRO&limit=2',
    client: "await api.GET('/announcements', { params: { query: { symbol: 'ENGRO', limit: 2 } } })",
    errors: {
      400: [
        { code: 'bad_request', message: 'symbol applies to type=companies only (the default)' },
        { code: 'bad_request', message: 'cursor is not one this service gave; follow meta.next as given' },
      ],
      422: [{ code: 'bad_request', message: 'type must be companies, psx, secp, cdc or nccpl (got "sec")' }],
    },
  },
  '/debt': {
    params: {},
    request: '/debt',
    client: "await api.GET('/debt')",
  },
  '/debt/{code}/quote': {
    params: { code: 'BAFLTFC8' },
    request: '/debt/BAFLTFC8/quote',
    client: "await api.GET('/debt/{code}/quote', { params: { path: { code: 'BAFLTFC8' } } })",
    errors: {
      404: [
        {
          code: 'not_found',
          message: 'HBLTFC3 is on the debt market, but the bills and bonds board has no quote for it today',
        },
      ],
    },
  },
  '/boards/{board}': {
    params: { board: 'futures' },
    request: '/boards/futures',
    client: "await api.GET('/boards/{board}', { params: { path: { board: 'futures' } } })",
    errors: {
      422: [
        {
          code: 'bad_request',
          message:
            'board must be futures, cash-settled-futures, index-futures, odd-lot or bills-and-bonds (got "regular")',
        },
      ],
    },
  },
};
