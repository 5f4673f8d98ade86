// OpenAPI examples of the market-wide feeds (routes/feeds.ts), from the fake portal (`npm run demo`).
import type { OperationExamples } from './openapi-example-types.ts';

const RANGE_400 = [
  {
    code: 'bad_request',
    message: 'the range 2025-01-01 to 2026-06-01 spans 517 days; at most 366 days (one year) per request',
  },
  { code: 'bad_request', message: 'from (2026-12-01) is after to (2026-11-01)' },
];

const FFC_PAYOUT = {
  symbol: 'FFC',
  company: 'Fauji Fertilizer Company Limited',
  sector: 'FERTILIZER',
  kind: 'cash_dividend',
  percent: 10,
  label: 'i',
  amount_per_share: 1,
  announced_at: '2026-11-05T10:29:00+05:00',
  book_closure_from: '2026-11-23',
  book_closure_to: '2026-11-25',
  ex_date: '2026-11-20',
  last_day_to_buy: '2026-11-19',
  settlement_cycle: 'T+1',
  details: '10%(i) (D) - 5%(i) (D)',
  raw: null,
};

export const FEED_OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  '/market/payouts': {
    params: { from: '2026-11-01', to: '2026-11-20', kind: 'cash_dividend', symbol: 'FFC' },
    request: '/market/payouts?from=2026-11-01&to=2026-11-20&symbol=FFC',
    client:
      "await api.GET('/market/payouts', {\n  params: { query: { from: '2026-11-01', to: '2026-11-20', symbol: 'FFC' } },\n})",
    data: [FFC_PAYOUT, { ...FFC_PAYOUT, percent: 5, amount_per_share: 0.5 }],
    meta: {
      coverage: {
        from: '2026-11-01',
        to: '2026-11-20',
        face_value: 10,
        portal_rows: 1,
        complete: true,
        missing: null,
      },
    },
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
    data: [
      {
        symbol: 'ENGRO',
        company: 'Engro Corporation Limited',
        type: 'AGM',
        date: '2026-11-25',
        time: '15:00',
        city: 'Faisalabad',
        period_end: '2025-12-31',
      },
      {
        symbol: 'ENGRO',
        company: 'Engro Corporation Limited',
        type: 'EOGM',
        date: '2026-11-25',
        time: '15:00',
        city: 'Faisalabad',
        period_end: '2024-12-31',
      },
    ],
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
    data: [
      {
        date: '2026-11-03',
        time: '14:36',
        published_at: '2026-11-03T14:36:00+05:00',
        symbol: 'ENGRO',
        company: 'Engro Corporation Limited',
        title: 'Transmission of Annual Report',
        revoked: false,
        document_url: 'https://dps.psx.com.pk/download/attachment/250049-1.pdf',
        image_only: false,
      },
      {
        date: '2026-10-12',
        time: '16:32',
        published_at: '2026-10-12T16:32:00+05:00',
        symbol: 'ENGRO',
        company: 'Engro Corporation Limited',
        title: 'Credit of Bonus Shares',
        revoked: false,
        document_url: null,
        image_only: true,
      },
    ],
    meta: { next: '/announcements?type=companies&symbol=ENGRO&limit=2&cursor=bzI', total: 3 },
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
    data: [
      {
        code: 'P05GIS150530',
        name: '5 Year GIS Fixed Rental Mat - 15-May-30',
        table: 1,
        group: null,
        face_value: 5000,
        listing_date: '2025-05-19',
        issue_date: '2025-05-15',
        issue_size: 1000000000000,
        maturity_date: '2030-05-15',
        coupon_rate: 11.44,
        previous_coupon_date: '2026-05-15',
        next_coupon_date: '2026-11-15',
        outstanding_days: 1272,
        remaining_years: 3.48,
      },
    ],
  },
  '/debt/{code}/quote': {
    params: { code: 'BAFLTFC8' },
    request: '/debt/BAFLTFC8/quote',
    client: "await api.GET('/debt/{code}/quote', { params: { path: { code: 'BAFLTFC8' } } })",
    data: {
      code: 'BAFLTFC8',
      name: 'Bank Al-Falah(TFC8',
      bid_volume: 20,
      bid_price: 5012.5,
      offer_volume: 10,
      offer_price: 5025,
      ldcp: 5010,
      change: 2.5,
      volume: 30,
      bid_yield: 21.4012,
      offer_yield: 21.2107,
      last_price: 5012.5,
      last_yield: 21.3301,
      ldcy: 21.4409,
    },
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
    data: [
      {
        symbol: 'ENGRO-DEC',
        name: 'Engro Corporation Limited',
        eligible: true,
        on_board: true,
        bid_volume: 5500,
        bid_price: 416.42,
        offer_volume: 7500,
        offer_price: 416.52,
        ldcp: 431.1,
        change: -14.63,
        volume: 185500,
        last_price: null,
      },
      {
        symbol: 'MCB-DEC',
        name: 'MCB Bank Limited',
        eligible: true,
        on_board: false,
        bid_volume: null,
        bid_price: null,
        offer_volume: null,
        offer_price: null,
        ldcp: null,
        change: null,
        volume: null,
        last_price: null,
      },
    ],
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
