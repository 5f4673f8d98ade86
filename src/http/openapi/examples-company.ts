// OpenAPI examples of the company endpoints: the requests, and the requests that get each
// documented error; the answers are generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { ErrorSource, OperationExamples } from './example-types.ts';
import { symbolErrors } from './examples-symbols.ts';

/** The company page unreadable: the exchange serving a page of another shape. */
const UNREADABLE: ErrorSource = {
  request: '/stocks/ENGRO/profile',
  state: 'portal-garbage',
  portalPath: '/company/',
};

export const COMPANY_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/profile': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/profile',
    client: "await api.GET('/stocks/{symbol}/profile', { params: { path: { symbol: 'ENGRO' } } })",
    errors: { ...symbolErrors('/profile'), 502: [UNREADABLE] },
  },
  '/stocks/{symbol}/financials': {
    params: { symbol: 'ENGRO', period: 'annual' },
    request: '/stocks/ENGRO/financials?period=annual',
    client:
      "await api.GET('/stocks/{symbol}/financials', { params: { path: { symbol: 'ENGRO' }, query: { period: 'annual' } } })",
    errors: {
      404: symbolErrors('/financials')[404],
      422: [...symbolErrors('/financials')[422], { request: '/stocks/ENGRO/financials?period=monthly' }],
      502: [{ ...UNREADABLE, request: '/stocks/ENGRO/financials' }],
    },
  },
  '/stocks/{symbol}/announcements': {
    params: { symbol: 'ENGRO', category: 'board-meetings' },
    request: '/stocks/ENGRO/announcements?category=board-meetings',
    client:
      "await api.GET('/stocks/{symbol}/announcements', {\n  params: { path: { symbol: 'ENGRO' }, query: { category: 'board-meetings' } },\n})",
    errors: {
      404: symbolErrors('/announcements')[404],
      422: [
        ...symbolErrors('/announcements')[422],
        { request: '/stocks/ENGRO/announcements?category=dividends' },
      ],
      502: [{ ...UNREADABLE, request: '/stocks/ENGRO/announcements' }],
    },
  },
};
