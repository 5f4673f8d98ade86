// OpenAPI examples of the overviews: the requests, and the requests that get each documented error;
// the answers are generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './example-types.ts';

/** A part the client's exchange-fetch budget could not pay for yet: what the overview then says. */
const PENDING_PART = {
  data: null,
  as_of: null,
  error: {
    status: 429,
    code: 'rate_limited',
    message: 'this client has caused 20 exchange fetches this minute; cached data is still served',
    retry_at: '2026-11-20T16:36:12+05:00',
  },
};

export const OVERVIEW_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/overview': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/overview',
    client: "await api.GET('/stocks/{symbol}/overview', { params: { path: { symbol: 'ENGRO' } } })",
    alternatives: {
      pending: {
        request: '/stocks/ENGRO/overview (this client has used its exchange fetches for the minute)',
        derive: (ok) => ({
          meta: ok.meta,
          data: {
            ...(ok.data as object),
            profile: PENDING_PART,
            announcements: PENDING_PART,
            financials: PENDING_PART,
          },
        }),
      },
    },
    csvRows: (data) => (data as { history: { data: unknown[] } }).history.data,
    errors: {
      404: [{ request: '/stocks/NOSUCH/overview' }],
    },
  },
  '/market/overview': {
    params: { index: 'KSE100', movers: 2 },
    request: '/market/overview?index=KSE100&movers=2',
    client: "await api.GET('/market/overview', { params: { query: { index: 'KSE100', movers: 2 } } })",
    csvRows: (data) => (data as { indices: { data: unknown[] } }).indices.data,
    errors: {
      404: [{ request: '/market/overview?index=NOPE' }],
    },
  },
};
