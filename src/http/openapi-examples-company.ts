// OpenAPI examples of the company endpoints, kept apart from openapi-examples.ts so the two
// can change independently. Values are the fake portal's (`npm run demo`).
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
    data: {
      symbol: 'ENGRO',
      name: 'Engro Corporation Limited',
      sector: 'FERTILIZER',
      description:
        'Engro Corporation Limited is incorporated in Pakistan and is listed on the Pakistan Stock Exchange. Its principal activity is in the fertilizer sector.',
      key_people: [
        { name: 'Tariq Hussain', role: 'CEO' },
        { name: 'Farah Sheikh', role: 'Chairperson' },
        { name: 'Farah Butt', role: 'Company Secretary' },
      ],
      address: '4th Floor, Engro Corporation Limited House, Rawalpindi',
      website: 'http://www.engro.com.pk',
      registrar:
        'THK Associates (Pvt.) Limited Plot No. 32-C, Jami Commercial Street 2, D.H.A., Phase VII, Karachi',
      auditor: 'A.F. Ferguson & Co. Chartered Accountants',
      fiscal_year_end: 'December',
      shares_outstanding: 536600000,
      free_float_shares: 268300000,
      free_float_pct: 50,
      market_cap: 221267010000,
    },
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
    data: [
      {
        period: '2025',
        sales: 267896996000,
        total_income: 114743199000,
        profit_after_taxation: 21963038000,
        eps: 40.93,
        net_profit_margin_pct: 8.2,
        eps_growth_pct: -2.01,
        peg: -5.01,
      },
      {
        period: '2022',
        sales: 204780539000,
        total_income: 126880622000,
        profit_after_taxation: 29346654000,
        eps: 54.69,
        net_profit_margin_pct: 14.33,
        eps_growth_pct: null,
        peg: null,
      },
    ],
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
    data: [
      {
        date: '2026-10-06',
        time: null,
        title: 'Board Meeting for Announcement of Financial Results for the Quarter Ended September 30, 2026',
        category: 'board-meetings',
        document_url: 'https://dps.psx.com.pk/download/document/281003.pdf',
      },
      {
        date: '2026-05-04',
        time: null,
        title: 'Board Meeting for Agenda Other than Financial Results',
        category: 'board-meetings',
        document_url: 'https://dps.psx.com.pk/download/document/281004.pdf',
      },
    ],
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

/** The quote's extras as ENGRO's company page gives them. */
export const ENGRO_QUOTE_EXTRAS = {
  circuit_breaker_low: 384.15,
  circuit_breaker_high: 469.51,
  day_range_low: 409.02,
  day_range_high: 436.43,
  week52_low: 329.16,
  week52_high: 515.14,
  bid_price: 412.3,
  bid_volume: 2400,
  ask_price: 412.4,
  ask_volume: 700,
  var: 11,
  haircut: 15,
  ytd_change_pct: -7.08,
  extras_as_of: '2026-11-20T16:35:00+05:00',
};
