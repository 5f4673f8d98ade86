// OpenAPI examples of the market-wide feeds (routes/feeds.ts): the requests, and the requests that
// get each documented error; the answers are generated (openapi-examples.generated.ts,
// `npm run gen:examples`).
import type { ErrorSource, OperationExamples } from './example-types.ts';

/** A range longer than a year, and one that ends before it starts. */
const rangeErrors = (path: string): ErrorSource[] => [
  { request: `${path}?from=2025-01-01&to=2026-06-01` },
  { request: `${path}?from=2026-12-01&to=2026-11-01` },
];

export const FEED_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/payouts': {
    params: { from: '2026-11-01', to: '2026-11-20', kind: 'cash_dividend', symbol: 'FFC' },
    request: '/market/payouts?from=2026-11-01&to=2026-11-20&symbol=FFC',
    client:
      "await api.GET('/market/payouts', {\n  params: { query: { from: '2026-11-01', to: '2026-11-20', symbol: 'FFC' } },\n})",
    errors: {
      400: rangeErrors('/market/payouts'),
      422: [{ request: '/market/payouts?kind=dividend' }],
      502: [{ request: '/market/payouts', state: 'portal-garbage', portalPath: '/payouts' }],
    },
  },
  '/market/calendar': {
    params: { from: '2026-11-25', to: '2026-11-25', type: 'AGM', symbol: 'ENGRO' },
    request: '/market/calendar?from=2026-11-25&to=2026-11-25&symbol=ENGRO',
    client:
      "await api.GET('/market/calendar', {\n  params: { query: { from: '2026-11-25', to: '2026-11-25', symbol: 'ENGRO' } },\n})",
    errors: {
      400: rangeErrors('/market/calendar'),
      422: [{ request: '/market/calendar?type=agm' }],
      502: [{ request: '/market/calendar', state: 'portal-garbage', portalPath: '/calendar' }],
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
      400: [{ request: '/announcements?type=psx&symbol=ENGRO' }, { request: '/announcements?cursor=xyz' }],
      422: [{ request: '/announcements?type=sec' }],
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
      404: [{ request: '/debt/HBLTFC3/quote' }],
    },
  },
  '/boards/{board}': {
    params: { board: 'futures' },
    request: '/boards/futures',
    client: "await api.GET('/boards/{board}', { params: { path: { board: 'futures' } } })",
    errors: {
      422: [{ request: '/boards/regular' }],
    },
  },
};
