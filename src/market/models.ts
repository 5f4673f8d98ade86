// The service's resources as the spec names them. These TypeBox schemas are the single source of
// truth: they type the market services, validate requests, describe responses in /openapi.json,
// and the contract tests check real responses against them.
import { Type, type Static } from 'typebox';
import { ANOMALY_REASONS, type AnomalyReason } from './anomalies.ts';

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
    sector_code: NullableStr('4-digit PSX sector code, e.g. `0813`'),
    listed_in: Type.Array(Type.String(), { description: 'index codes the symbol is a constituent of' }),
    price: NullableNum('PKR; market-watch CURRENT, else the screener PRICE'),
    market_cap: NullableNum('PKR'),
    pe_ratio: NullableNum('trailing twelve months'),
    dividend_yield: NullableNum('percent'),
    free_float: NullableNum('shares'),
    volume_avg_30d: NullableNum('shares a day, 30-day average'),
    change_1y_pct: NullableNum('percent'),
    ldcp: NullableNum("PKR; last day's closing price"),
    open: NullableNum('PKR'),
    high: NullableNum('PKR'),
    low: NullableNum('PKR'),
    volume: NullableNum('shares traded today'),
    change: NullableNum('PKR, against LDCP'),
    change_pct: NullableNum('percent, against LDCP (a number, never a formatted string)'),
  },
  { $id: 'Quote' },
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
    market_cap_m: NullableNum('millions of PKR'),
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
    advance: NullableNum(),
    decline: NullableNum(),
    unchanged: NullableNum(),
    turnover: NullableNum('shares'),
    market_cap_b: NullableNum('billions of PKR'),
  },
  { $id: 'SectorSummary' },
);

export const ScreenerRow = Type.Object(
  {
    symbol: Type.String(),
    sector: NullableNum('sector code as a number (0813 → 813)'),
    listed_in: NullableStr('comma-separated index codes'),
    market_cap: NullableNum('PKR'),
    price: NullableNum('PKR'),
    pe_ratio: NullableNum(),
    dividend_yield: NullableNum('percent'),
    free_float: NullableNum('shares'),
    volume_avg_30d: NullableNum('shares'),
    change_1y_pct: NullableNum('percent'),
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
export type MarketSummaryT = Record<string, number>;

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
  MarketStatus,
];
