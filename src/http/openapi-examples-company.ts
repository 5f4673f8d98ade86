// OpenAPI examples of the company endpoints: the requests and error examples; the answers are
// generated (openapi-examples.generated.ts, `npm run gen:examples`).
import type { OperationExamples } from './openapi-example-types.ts';

const SYMBOL_404 = [{ code: 'not_found', message: 'NOSUCH not found' }];
const SYMBOL_422 = [
  {
    code: 'bad_request',
    message: 'invalid request: params/symbol must match pattern "^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$"',
  },
];

export const COMPANY_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/stocks/{symbol}/profile': {
    params: { symbol: 'ENGRO' },
    request: '/stocks/ENGRO/profile',
    client: "await api.GET('/stocks/{symbol}/profile', { params: { path: { symbol: 'ENGRO' } } })",
    errors: {
      404: SYMBOL_404,
      422: SYMBOL_422,
      502: [
        {
          code: 'upstream_data_error',
          message:
            "the exchange's company page could not be read: no section could be read (no quote header (div.quote__details); …)",
        },
      ],
    },
  },
  '/stocks/{symbol}/financials': {
    params: { symbol: 'ENGRO', period: 'annual' },
    request: '/stocks/ENGRO/financials?period=annual',
    client:
      "await api.GET('/stocks/{symbol}/financials', { params: { path: { symbol: 'ENGRO' }, query: { period: 'annual' } } })",
    errors: {
      404: SYMBOL_404,
      422: [
        ...SYMBOL_422,
        { code: 'bad_request', message: 'period must be annual or quarterly (got "monthly")' },
      ],
      502: [
        {
          code: 'upstream_data_error',
          message:
            'the exchange\'s company page could not be read: the financials section: no "Financials" section',
        },
      ],
    },
  },
  '/stocks/{symbol}/announcements': {
    params: { symbol: 'ENGRO', category: 'board-meetings' },
    request: '/stocks/ENGRO/announcements?category=board-meetings',
    client:
      "await api.GET('/stocks/{symbol}/announcements', {\n  params: { path: { symbol: 'ENGRO' }, query: { category: 'board-meetings' } },\n})",
    errors: {
      404: SYMBOL_404,
      422: [
        ...SYMBOL_422,
        {
          code: 'bad_request',
          message: 'category must be financial-results, board-meetings or others (got "dividends")',
        },
      ],
      502: [
        {
          code: 'upstream_data_error',
          message:
            "the exchange's company page could not be read: the announcements section: no announcement tab with a Date and Title table",
        },
      ],
    },
  },
};
