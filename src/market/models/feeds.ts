// The market-wide feeds' resources (docs/market-feeds.md): payouts, meetings, announcements, the
// debt market and the other boards. Single source of truth as in models.ts.
import { Type, type Static } from 'typebox';

const NullableNum = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const NullableStr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const NullableDate = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.Null()], { description });

export const PAYOUT_KINDS = ['cash_dividend', 'bonus', 'right'] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

export const MarketPayout = Type.Object(
  {
    symbol: Type.String(),
    company: NullableStr('company name as the payouts page prints it'),
    sector: NullableStr('sector name as the payouts page prints it'),
    kind: Type.Union([Type.Enum([...PAYOUT_KINDS]), Type.Null()], {
      description:
        'cash_dividend, bonus or right; null when the announcement text is not one of the known shapes (see raw)',
    }),
    percent: NullableNum(
      'percent of the face value (cash dividend) or of the shares held (bonus, right); null when unreadable',
    ),
    label: NullableStr('interim number (i, ii, iii) or F (final) as printed; null when absent'),
    amount_per_share: NullableNum(
      'PKR per share for a cash dividend: percent × the face value assumed in meta.coverage.face_value (Rs 10; companies with Rs 5 or Rs 1 shares read 2× or 10× too high); null for bonus and right issues',
    ),
    announced_at: NullableStr('the announcement time, ISO 8601 with +05:00'),
    book_closure_from: NullableDate('first day of the book closure'),
    book_closure_to: NullableDate('last day of the book closure'),
    ex_date: NullableDate(
      'first trading day a purchase no longer carries the entitlement: the record day (the trading day before the book closure) under the settlement cycle',
    ),
    last_day_to_buy: NullableDate(
      'last trading day a purchase still carries the entitlement: the record day less the settlement cycle’s trading days (weekdays; the portal publishes no holidays)',
    ),
    settlement_cycle: NullableStr('the cycle the dates assume: T+1 (trades from 2025-02-10) or T+2 (before)'),
    details: Type.String({ description: 'the announcement cell as printed (spaces collapsed)' }),
    raw: NullableStr(
      'the announcement or book-closure text when it could not be read (kind/percent or the dates are then null); null when everything parsed',
    ),
  },
  {
    $id: 'MarketPayout',
    description:
      'One entitlement of the market-wide payouts page. A cell announcing two entitlements (`10%(i) (D) - 5%(i) (D)`) gives two rows.',
  },
);
export type MarketPayoutT = Static<typeof MarketPayout>;

export const MEETING_TYPES = ['AGM', 'EOGM'] as const;

export const Meeting = Type.Object(
  {
    symbol: Type.String(),
    company: NullableStr('company name as published'),
    type: Type.String({ description: 'AGM or EOGM (another code as published, should one appear)' }),
    date: NullableDate('the meeting day'),
    time: NullableStr('HH:MM, Karachi time'),
    city: NullableStr('as published, trailing punctuation removed (`Lahore.` → `Lahore`)'),
    period_end: NullableDate(
      'end of the financial period the meeting is about (an EOGM may name an earlier year)',
    ),
  },
  { $id: 'Meeting' },
);
export type MeetingT = Static<typeof Meeting>;

export const ANNOUNCEMENT_TYPES = ['companies', 'psx', 'secp', 'cdc', 'nccpl'] as const;
export type AnnouncementType = (typeof ANNOUNCEMENT_TYPES)[number];

export const MarketAnnouncement = Type.Object(
  {
    date: NullableDate('publication day'),
    time: NullableStr('HH:MM, Karachi time'),
    published_at: NullableStr('date and time, ISO 8601 with +05:00'),
    symbol: NullableStr('the company’s symbol (companies only)'),
    company: NullableStr('the company’s name (companies only)'),
    title: Type.String(),
    revoked: Type.Boolean({ description: 'the portal tags the announcement REVOKED' }),
    document_url: NullableStr(
      'absolute URL of the PDF (or attachment) the announcement links; null when it has none',
    ),
    image_only: Type.Boolean({
      description: 'the announcement has images (the portal’s `View` link) and no PDF',
    }),
    images: Type.Array(Type.String(), {
      description:
        'the page images the portal’s `View` link shows (`283814-1.gif`), as the portal names them; empty when none',
    }),
  },
  { $id: 'MarketAnnouncement' },
);
export type MarketAnnouncementT = Static<typeof MarketAnnouncement>;

export const DebtInstrument = Type.Object(
  {
    code: Type.String({ description: 'security code (`P01GIS080227`, `BAFLTFC8`)' }),
    name: NullableStr('security name as printed (the portal cuts some short)'),
    table: Type.Integer({
      description:
        '1-based position of its table on the debt-market page: government securities first, then corporate issues',
    }),
    group: NullableStr(
      'the title of its table: the page’s tab (`GoP Ijarah Sukuk`, `Public Debt Securities`, `Privately Debt Securities`, `Government Debt Securities`), else a heading the page prints',
    ),
    face_value: NullableNum('PKR'),
    listing_date: NullableDate('listing day'),
    issue_date: NullableDate('issue day'),
    issue_size: NullableNum('PKR (the page prints 53.71B, 1.00T)'),
    maturity_date: NullableDate('maturity day'),
    coupon_rate: NullableNum('percent a year (0 for discounted bills)'),
    previous_coupon_date: NullableDate('last coupon or rental day'),
    next_coupon_date: NullableDate('next coupon or rental day'),
    outstanding_days: NullableNum('days to maturity, as printed'),
    remaining_years: NullableNum('years to maturity, as printed'),
  },
  { $id: 'DebtInstrument' },
);
export type DebtInstrumentT = Static<typeof DebtInstrument>;

const boardQuoteFields = {
  bid_volume: NullableNum('units at the best bid (0: nothing bid)'),
  bid_price: NullableNum('PKR (0: nothing bid)'),
  offer_volume: NullableNum('units at the best offer (0: nothing offered)'),
  offer_price: NullableNum('PKR (0: nothing offered)'),
  ldcp: NullableNum("PKR; last day's closing price"),
  change: NullableNum('PKR against LDCP'),
  volume: NullableNum('units traded today'),
};

export const DebtQuote = Type.Object(
  {
    code: Type.String(),
    name: NullableStr('security name from the debt-market page'),
    ...boardQuoteFields,
    bid_yield: NullableNum('percent'),
    offer_yield: NullableNum('percent'),
    last_price: NullableNum('PKR; last traded price (LTP)'),
    last_yield: NullableNum('percent; last traded yield (LTY)'),
    ldcy: NullableNum("percent; last day's closing yield"),
  },
  {
    $id: 'DebtQuote',
    description:
      'The bills-and-bonds board’s row, as printed (zeros where nothing is bid, offered or traded).',
  },
);
export type DebtQuoteT = Static<typeof DebtQuote>;

/** API board name → the portal's market code (eligible-scrips table id) and trading-board path. */
export const BOARDS = {
  futures: { market: 'FUT', path: '/trading-board/FUT/fut', title: 'Future Deliverable Contract Market' },
  'cash-settled-futures': {
    market: 'CSF',
    path: '/trading-board/CSF/csf',
    title: 'Cash Settled Future Contract Market',
  },
  'index-futures': {
    market: 'SIF',
    path: '/trading-board/SIF/sif',
    title: 'Stock Index Future Contract Market',
  },
  'odd-lot': { market: 'ODL', path: '/trading-board/ODL/odl', title: 'Odd Lot Market' },
  'bills-and-bonds': { market: 'BNB', path: '/trading-board/BNB/bnb', title: 'Bills and Bond Market' },
} as const;
export type BoardName = keyof typeof BOARDS;
export const BOARD_NAMES = Object.keys(BOARDS) as BoardName[];

export const BoardQuote = Type.Object(
  {
    symbol: Type.String({ description: 'as the board prints it; futures carry their month (`AGHA-APR`)' }),
    name: NullableStr('from the board, else from the eligible-scrips page'),
    eligible: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'listed for this market on the eligible-scrips page; null when that page could not be had (meta.missing names it)',
    }),
    on_board: Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'the board has a row for it today (false: eligible, no row; its quote fields are null); null when the board page could not be had (meta.missing names it, and every quote field is null)',
    }),
    ...boardQuoteFields,
    last_price: NullableNum('PKR; LTP where the board prints it'),
  },
  { $id: 'BoardQuote' },
);
export type BoardQuoteT = Static<typeof BoardQuote>;

export const feedSchemas = [MarketPayout, Meeting, MarketAnnouncement, DebtInstrument, DebtQuote, BoardQuote];

/** meta.trading_days of the payouts: which trading days ex_date and last_day_to_buy counted. */
export const PayoutsTradingDays = Type.Object(
  {
    archive_from: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    archive_to: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    rows_on_weekdays: Type.Integer({
      description: 'rows whose dates counted a day outside the archive as a weekday',
    }),
  },
  {
    description:
      "the trading days ex_date and last_day_to_buy count: the archive's (days with bars, so a holiday moves them) between archive_from and archive_to (the archived days read, three weeks either side of the rows' book closures), weekdays outside",
  },
);

/** meta.archive of the payouts: the rows served from the archive. */
export const PayoutsFromArchive = Type.Object(
  {
    rows: Type.Integer({ description: 'rows of data served from the archive' }),
    positions: Type.Array(Type.Integer(), {
      description: 'their positions in data (0-based)',
    }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'why the archive served them; null when it served none',
    }),
  },
  {
    description:
      'rows the portal no longer has (announced before its rolling window) or could not give now, served from the archive, which keeps every payouts row the service reads (absent without an archive)',
  },
);
