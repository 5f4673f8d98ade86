// The service's resources as the spec names them. These TypeBox schemas are the single source of
// truth: they type the market services, validate requests, describe responses in /openapi.json,
// and the contract tests check real responses against them.
import { Type, type Static } from 'typebox';
import { ANOMALY_REASONS, type AnomalyReason } from '../anomalies.ts';

const NullableNum = (description?: string) =>
  Type.Union([Type.Number(), Type.Null()], description ? { description } : {});
const NullableStr = (description?: string) =>
  Type.Union([Type.String(), Type.Null()], description ? { description } : {});

export const Health = Type.Object(
  {
    status: Type.String({
      description:
        '`ok` when the service is healthy and accepting requests; with ?ready=1, `degraded` while Redis is lost',
    }),
    store: Type.Optional(Type.String({ description: 'readiness only: `ok` or `failing`' })),
    redis: Type.Optional(Type.String({ description: 'readiness only: `ok`, `degraded` or `disabled`' })),
  },
  { $id: 'Health' },
);

export const Quote = Type.Object(
  {
    symbol: Type.String(),
    name: NullableStr('company name as the portal lists it'),
    sector_code: NullableStr(
      '4-digit PSX sector code as a string, e.g. `0813`, as /sectors gives it (the screener’s `sector` is the same code as a number, as the spec fixes it)',
    ),
    listed_in: NullableStr(
      'comma-separated codes of the indices the symbol is a constituent of, as the screener gives them; null when none',
    ),
    price: NullableNum('PKR; market-watch CURRENT, else the screener PRICE; null where the portal prints 0'),
    market_cap: NullableNum('PKR; null where the portal prints 0 (no share count)'),
    pe_ratio: NullableNum(
      'trailing twelve months; null where the portal prints 0 (loss-makers, no reported earnings)',
    ),
    dividend_yield: NullableNum('percent; 0 is a real value (no dividend)'),
    free_float: NullableNum('shares; null where the portal prints 0'),
    volume_avg_30d: NullableNum('shares a day, 30-day average; 0 is a real value'),
    change_1y_pct: NullableNum('percent; null where the portal prints 0 (listed less than a year)'),
    ldcp: NullableNum("PKR; last day's closing price; null where the portal prints 0"),
    open: NullableNum('PKR; null where the portal prints 0 (no trade today)'),
    high: NullableNum('PKR; null where the portal prints 0 (no trade today)'),
    low: NullableNum('PKR; null where the portal prints 0 (no trade today)'),
    volume: NullableNum(
      'shares traded today; 0 for a symbol not traded today (not on the market watch); null only where the market watch row has no volume',
    ),
    change: NullableNum(
      'PKR, against LDCP; 0 for a symbol not traded today (its price is its last close, unchanged), as the portal’s sector tables show it',
    ),
    change_pct: NullableNum(
      'percent, against LDCP (a number, never a formatted string); 0 for a symbol not traded today, like `change`',
    ),
    // Quote extras from the company page (src/market/quotes/quote-extras.ts): null until that page is held.
    circuit_breaker_low: NullableNum("PKR; today's lower price limit, from the company page"),
    circuit_breaker_high: NullableNum("PKR; today's upper price limit, from the company page"),
    day_range_low: NullableNum("PKR; today's low: the newer of the company page and the market watch"),
    day_range_high: NullableNum("PKR; today's high: the newer of the company page and the market watch"),
    week52_low: NullableNum('PKR; 52-week low (split-adjusted by the portal), from the company page'),
    week52_high: NullableNum('PKR; 52-week high (split-adjusted by the portal), from the company page'),
    bid_price: NullableNum('PKR; best bid; null when the page shows no bid (0.00)'),
    bid_volume: NullableNum('shares at the best bid'),
    ask_price: NullableNum('PKR; best ask; null when the page shows no ask (0.00)'),
    ask_volume: NullableNum('shares at the best ask'),
    var: NullableNum('percent; value-at-risk margin, from the company page'),
    haircut: NullableNum('percent, from the company page'),
    ytd_change_pct: NullableNum('percent, year to date, not adjusted for payouts (company page)'),
    as_of: Type.String({
      description:
        'the time the price describes, ISO 8601 with +05:00: the market watch’s fetch when it was fetched during a session, else the end of the last session (the screener’s, by the same rule, for a symbol not on the market watch)',
    }),
    extras_as_of: NullableStr(
      "when the extras were read: the company page's own `As of …` time, ISO 8601 with +05:00",
    ),
  },
  {
    $id: 'Quote',
    description:
      "The spec fields join the screener and the market watch. The extras (circuit_breaker_* … extras_as_of) come from the symbol's company page when the service holds a fresh copy; otherwise they are null and the page is fetched in the background (a quote never waits for it or fails because of it). Where both pages give a value (day_range_*), the newer page wins.",
  },
);

// The codes and their descriptions live with the detector; the schema lists them for API users.
const AnomalyReasonSchema = Type.Unsafe<AnomalyReason>({
  type: 'string',
  enum: ANOMALY_REASONS.map((r) => r.code),
  description: ANOMALY_REASONS.map((r) => `\`${r.code}\`: ${r.description}`).join('\n'),
});

export const HistoricalRow = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'trading day, YYYY-MM-DD (Asia/Karachi)' }),
    open: NullableNum('PKR'),
    high: NullableNum('PKR'),
    low: NullableNum('PKR'),
    close: NullableNum('PKR'),
    volume: Type.Union([Type.Integer(), Type.Null()], { description: 'shares' }),
    is_anomaly: Type.Boolean({
      description:
        'true flags a data point that may be suspect because of corporate actions or data-feed issues',
    }),
    anomaly_reasons: Type.Array(AnomalyReasonSchema, {
      description: 'anomaly codes; empty when the row is clean',
    }),
  },
  { $id: 'HistoricalRow' },
);

export const FundamentalsRow = Type.Object(
  {
    symbol: Type.String(),
    year: Type.String({ description: '4-digit year' }),
    type: Type.String({ description: 'report type as the portal names it: Annual, Quarterly, Half Yearly…' }),
    period_ended: Type.String({ description: 'YYYY for annual reports, YYYY-MM-DD otherwise' }),
    posting_date: Type.String({ description: 'YYYY-MM-DD' }),
    document: Type.String({ description: 'absolute URL of the PDF' }),
  },
  { $id: 'FundamentalsRow' },
);

export const IndexConstituent = Type.Object(
  {
    symbol: Type.String(),
    name: NullableStr(),
    current_index: NullableNum("PKR; the constituent's current price"),
    idx_weight: NullableNum('percent of the index'),
    idx_point: NullableNum('index points contributed today'),
    market_cap_m: NullableNum(
      "millions of PKR: the portal's MARKET CAP (M), the constituent's size in the index × its current price. Free-float indices (KSE100, KSE100PR, KSE30, KMI30, BKTI, OGTI, PSXDIV20, …; rows carry freefloat_m): free-float market capitalisation (FREEFLOAT (M) × price). Full-capitalisation indices (ALLSHR, KMIALLSHR; rows carry shares_m): total market capitalisation (SHARES (M) × price). 0 for a constituent without a trade today (current_index 0), as the portal prints it",
    ),
    freefloat_m: Type.Optional(NullableNum('millions of shares; on indices whose table has FREEFLOAT (M)')),
    shares_m: Type.Optional(NullableNum('millions of shares; on indices whose table has SHARES (M)')),
    ldcp: NullableNum('PKR'),
    change: NullableNum('PKR'),
    change_pct: NullableNum('percent'),
    volume: NullableNum('shares'),
  },
  { $id: 'IndexConstituent' },
);

export const IndexLevel = Type.Object(
  {
    index: Type.String({ description: 'index code, e.g. KSE100' }),
    current: NullableNum(),
    high: NullableNum('null where the portal shows N/A'),
    low: NullableNum('null where the portal shows N/A'),
    change: NullableNum('points'),
    change_pct: NullableNum('percent'),
  },
  { $id: 'IndexLevel' },
);

export const SectorSummary = Type.Object(
  {
    sector_code: Type.String(),
    sector_name: Type.String(),
    advance: NullableNum('symbols of the sector above LDCP (the portal’s count)'),
    decline: NullableNum('symbols of the sector below LDCP (the portal’s count)'),
    unchanged: NullableNum(
      'symbols of the sector at LDCP, including those not traded today (the portal’s count; /market/breadth counts alike)',
    ),
    turnover: NullableNum('shares'),
    market_cap_b: NullableNum('billions of PKR'),
  },
  { $id: 'SectorSummary' },
);

export const ScreenerRow = Type.Object(
  {
    symbol: Type.String(),
    sector: NullableNum('sector code as a number (0813 → 813)'),
    listed_in: NullableStr('comma-separated index codes; null when none'),
    market_cap: NullableNum('PKR; null where the portal prints 0 (no share count)'),
    price: NullableNum('PKR; null where the portal prints 0'),
    pe_ratio: NullableNum('trailing twelve months; null where the portal prints 0 (loss-makers)'),
    dividend_yield: NullableNum('percent; 0 is a real value (no dividend)'),
    free_float: NullableNum('shares; null where the portal prints 0'),
    volume_avg_30d: NullableNum('shares a day, 30-day average; 0 is a real value'),
    change_1y_pct: NullableNum('percent; null where the portal prints 0 (listed less than a year)'),
  },
  { $id: 'ScreenerRow' },
);

export const MarketSummary = Type.Record(Type.String(), Type.Number(), {
  $id: 'MarketSummary',
  description:
    'current index levels: `kse100`, `kse30`, `kmiallshare`, `allshare`, and every other index as its lowercase code',
});

export type QuoteT = Static<typeof Quote>;
export type HistoricalRowT = Static<typeof HistoricalRow>;
export type FundamentalsRowT = Static<typeof FundamentalsRow>;
export type IndexConstituentT = Static<typeof IndexConstituent>;
export type IndexLevelT = Static<typeof IndexLevel>;
export type SectorSummaryT = Static<typeof SectorSummary>;
export type ScreenerRowT = Static<typeof ScreenerRow>;

export const AdjustedHistoricalRow = Type.Object(
  {
    ...HistoricalRow.properties,
    open: NullableNum('PKR, adjusted: raw open × adjustment_factor'),
    high: NullableNum('PKR, adjusted'),
    low: NullableNum('PKR, adjusted'),
    close: NullableNum('PKR, adjusted'),
    volume: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'shares (a count, not PKR), adjusted: raw volume ÷ adjustment_factor, rounded to the nearest whole share on each row (halves up), so a sum over rows may differ from the raw sum ÷ factor by up to half a share a row; with dividends=true the factor includes the dividends too, and the volume is divided by it as well',
    }),
    adjustment_factor: NullableNum(
      'raw price × adjustment_factor = adjusted price; 1 after the last action; null (and raw prices) when no adjustment could be made, with the reason in meta.adjustment.reason',
    ),
  },
  { $id: 'AdjustedHistoricalRow' },
);

export const CorporateAction = Type.Object(
  {
    ex_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description:
        'first trading day without the entitlement, YYYY-MM-DD; for payouts, the trading day before the book closure starts (T+1 settlement); null when the payouts row gives no book closure',
    }),
    kind: Type.Union([Type.Literal('capital_change'), Type.Literal('cash_dividend'), Type.Literal('other')], {
      description:
        '`capital_change`: bonus, right or split (the share count changes); `cash_dividend`; `other`: a payouts row whose details could not be read (listed, never applied)',
    }),
    ratio: NullableNum(
      'capital changes: shares after ÷ shares before as the adjusted series prices it (1.1 for a 10 % bonus, 2 for a 1:1 split; for a right issue the price factor, which depends on its subscription price); null otherwise',
    ),
    amount: NullableNum(
      'cash dividends: PKR per share = percent × face value, the face value taken as Rs 10 (the portal gives only the percent); null otherwise',
    ),
    evidence: Type.Array(Type.String(), {
      description:
        'sources that agree: `adjusted_series_step` (the portal’s adjusted series steps by the ratio here), `raw_gap` (the raw prices gap by the ratio on this day, within the price limit around the previous close ÷ ratio), `beyond_price_limit` (the raw move exceeds the day’s circuit breaker), `payouts` (the company payouts page announces it), `closing_file_marker` (the exchange’s daily closing file, kept by the archive, marks the symbol’s name on this day with the action’s kind: XD for a cash dividend, XB or XR for a capital change; evidence of the day and kind, never of the amount or ratio)',
    }),
    applied: Type.Boolean({
      description:
        'capital changes: used by historical?adjusted=true (only when the raw prices confirm the step); cash dividends: used by adjusted=true&dividends=true (when the raw close before the ex-date is known)',
    }),
    note: NullableStr('why an action is not applied, what the payouts page calls it, assumptions'),
  },
  { $id: 'CorporateAction' },
);

/** `meta.adjustment` of `historical?adjusted=true`. */
export const AdjustmentMeta = Type.Object(
  {
    status: Type.Union([Type.Literal('full'), Type.Literal('partial'), Type.Literal('unavailable')], {
      description:
        '`full`: every row is adjusted for the actions the evidence confirms; `partial`: some rows are older than the adjusted series (see partial_before); `unavailable`: the adjusted series is missing, empty or unreadable, the prices are raw and adjustment_factor is null (see reason)',
    }),
    series_start: NullableStr('first day of the portal’s adjusted series (about five years back)'),
    partial_before: NullableStr(
      'rows before this date carry the factor known at series_start: capital changes before it are unknown; null when every row is covered',
    ),
    dividends: Type.Boolean({ description: 'true when cash dividends are in the factors (dividends=true)' }),
    dividends_from: NullableStr(
      'oldest announcement on the payouts page: dividends before it are unknown (the page keeps about 17–18 months)',
    ),
    reason: NullableStr(
      'why the adjustment is unavailable, or why dividends were asked for but are not in it',
    ),
  },
  { description: 'how far the adjustment reaches (adjusted=true only)' },
);

/** `meta.coverage` of `/stocks/{symbol}/corporate-actions`. */
export const CorporateActionsCoverage = Type.Object(
  {
    capital_changes_from: NullableStr(
      'first day of the portal’s adjusted series, or of the oldest one the archive’s record saw when older (meta.archive says so): capital changes before it cannot be found (null: no series and no record)',
    ),
    dividends_from: NullableStr(
      'oldest announcement on the payouts page (a rolling window of about 17–18 months); null when it lists none',
    ),
    face_value: Type.Number({
      description: 'PKR; the face value assumed for dividend amounts (the portal gives percents)',
    }),
  },
  { description: 'how far back the record reaches' },
);

export type AdjustedHistoricalRowT = Static<typeof AdjustedHistoricalRow>;
export type CorporateActionT = Static<typeof CorporateAction>;
const KarachiTime = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; ISO 8601 with +05:00 (Asia/Karachi)` });

export const MarketStatus = Type.Object(
  {
    state: Type.Union(
      [Type.Literal('pre_open'), Type.Literal('open'), Type.Literal('break'), Type.Literal('closed')],
      {
        description:
          '`open` during a session; `pre_open` the 15 minutes before the day’s first session; `break` between Friday’s two sessions; `closed` otherwise. Always `open` when `clock_followed` is false',
      },
    ),
    now: KarachiTime('the service’s clock'),
    next_open: KarachiTime('the next session open on the exchange’s timetable'),
    next_close: KarachiTime(
      'the close of the current trading day’s last session, or of the next trading day',
    ),
    session: Type.Union(
      [Type.Object({ open: KarachiTime('session open'), close: KarachiTime('session close') }), Type.Null()],
      { description: 'the timetable session under way now, or null outside one' },
    ),
    clock_followed: Type.Boolean({
      description:
        'false when the service runs with CACHE_FOLLOW_MARKET_CLOCK=false: it then treats the market as open around the clock (state `open`, plain TTLs, streaming always on); the times still describe the exchange’s timetable',
    }),
  },
  { $id: 'MarketStatus', additionalProperties: false },
);
export type MarketStatusT = Static<typeof MarketStatus>;

/** Every named schema, registered with Fastify so the OpenAPI document references them by name. */
export const namedSchemas = [
  Health,
  Quote,
  HistoricalRow,
  FundamentalsRow,
  IndexConstituent,
  IndexLevel,
  SectorSummary,
  ScreenerRow,
  MarketSummary,
  AdjustedHistoricalRow,
  CorporateAction,
  MarketStatus,
];

// ---- company data: the company page's profile, financials, announcements; symbol search ----

export const KeyPerson = Type.Object({
  name: Type.String(),
  role: NullableStr('as the page writes it: `CEO`, `Chairperson`, `Company Secretary`'),
});

export const Profile = Type.Object(
  {
    symbol: Type.String(),
    name: NullableStr('company name, from the company page'),
    sector: NullableStr('sector name, e.g. `COMMERCIAL BANKS`'),
    description: NullableStr('business description'),
    key_people: Type.Array(KeyPerson),
    address: NullableStr(),
    website: NullableStr('as linked by the page'),
    registrar: NullableStr('share registrar'),
    auditor: NullableStr(),
    fiscal_year_end: NullableStr('month name, e.g. `December`'),
    shares_outstanding: NullableNum('shares'),
    free_float_shares: NullableNum('shares'),
    free_float_pct: NullableNum('percent of shares outstanding (`40` for 40 %)'),
    market_cap: NullableNum("PKR (the page prints thousands, `Market Cap (000's)`: converted)"),
  },
  {
    $id: 'Profile',
    description:
      'From the portal company page. Fields of a page section that could not be read are null (the section is logged and counted in psxmd_exchange_sections_missing_total).',
  },
);

export const FinancialsRow = Type.Object(
  {
    period: Type.String({
      description: 'the column header of the page: `2025` (annual), `Q2 2026` (quarterly)',
    }),
  },
  {
    $id: 'FinancialsRow',
    additionalProperties: NullableNum(),
    description:
      "One period, newest first as the page shows them, with one number per line of the page's table. Line names are the page's row labels in snake_case: banks have `mark_up_earned`, other companies `sales`; then `total_income`, `profit_after_taxation`, `eps`. Amounts are PKR (the page prints thousands: converted); `eps` is PKR a share as printed. Annual rows also carry the ratios table: `net_profit_margin_pct`, `eps_growth_pct` (percent) and `peg`. Negative figures are printed in parentheses by the page and are negative numbers here.",
  },
);

export const Announcement = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
    time: NullableStr('the company page shows dates only: always null here'),
    title: Type.String(),
    category: Type.Union(
      [Type.Literal('financial-results'), Type.Literal('board-meetings'), Type.Literal('others')],
      { description: "the page's tab" },
    ),
    document_url: NullableStr(
      'absolute URL of the PDF (or attachment), where the page links one (some rows link only images)',
    ),
    images: Type.Array(Type.String(), {
      description:
        'the page images the row’s `View` link shows (`278158-1.gif`), as the portal names them; empty when none',
    }),
  },
  { $id: 'Announcement' },
);

export const StockMatch = Type.Object(
  {
    symbol: Type.String(),
    name: Type.String({ description: 'company name as /symbols gives it (the portal truncates some)' }),
    sector: Type.String({ description: 'sector name, e.g. `COMMERCIAL BANKS`' }),
  },
  { $id: 'StockMatch' },
);

export type ProfileT = Static<typeof Profile>;
export type FinancialsRowT = { period: string } & Record<string, string | number | null>;
export type AnnouncementT = Static<typeof Announcement>;
export type StockMatchT = Static<typeof StockMatch>;

export const companySchemas = [Profile, FinancialsRow, Announcement, StockMatch];
