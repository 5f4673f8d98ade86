// Resources of the analytics endpoints (performance, indicators, rankings), registered with Fastify
// like models.ts. Every formula is in the descriptions and in docs/analytics.md.
import { Type, type Static } from 'typebox';

const Num = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Int = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
const DateOrNull = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.Null()], { description });
const Reason = Type.Union([Type.String(), Type.Null()], {
  description:
    'why a value above is null (a period longer than the history, too few rows…); null when every value is there',
});

/** The index a stock's returns are compared with unless the request names another. */
export const DEFAULT_BENCHMARK = 'KSE100';

export const PERIOD_DESCRIPTION =
  'Each period ends on the last row (E). 1D starts on the previous trading day; 1W on the last trading day on or before E − 7 calendar days; 1M, 3M, 6M, 1Y, 3Y, 5Y on the last trading day on or before E − 1, 3, 6, 12, 36, 60 calendar months (the day clamped to the month’s end: 03-31 − 1M = 02-28); YTD on the last trading day on or before 31 December of the previous year (the previous year’s last close); ALL on the first row. A period whose start lies before the first row is null with the reason, never a shorter period.';

export const PeriodReturn = Type.Object(
  {
    period: Type.String({ description: '1D, 1W, 1M, 3M, 6M, YTD, 1Y, 3Y, 5Y or ALL' }),
    start_date: DateOrNull('the start row (see the periods’ definition)'),
    start_close: Num('close on start_date'),
    end_date: DateOrNull('the last row'),
    end_close: Num('close on end_date'),
    return_pct: Num('(end_close / start_close − 1) × 100, percent'),
    benchmark_start_date: Type.Optional(DateOrNull("the benchmark's last level on or before start_date")),
    benchmark_end_date: Type.Optional(DateOrNull("the benchmark's last level on or before end_date")),
    benchmark_return_pct: Type.Optional(Num("the benchmark's return between those two levels, percent")),
    excess_return_pct: Type.Optional(Num('return_pct − benchmark_return_pct, percentage points')),
    reason: Reason,
  },
  { $id: 'PeriodReturn', description: PERIOD_DESCRIPTION },
);

export const Volatility = Type.Object(
  {
    value_pct: Num(
      'annualised volatility, percent: the sample standard deviation (n − 1) of the daily log returns ln(close_t / close_t−1) over the 1Y window, × √n, n = the number of those returns (the year’s own count of trading days, not a fixed 245 or 252)',
    ),
    daily_returns: Int('n'),
    start_date: DateOrNull('the 1Y start row'),
    end_date: DateOrNull('the last row'),
    reason: Reason,
  },
  { $id: 'Volatility' },
);

export const Drawdown = Type.Object(
  {
    value_pct: Num(
      'maximum drawdown, percent (≤ 0): the lowest close_t / max(close_start … close_t) − 1 over the window; 0 when no close fell below an earlier one',
    ),
    start_date: DateOrNull('first row of the window'),
    peak_date: DateOrNull('the running high the largest fall started from'),
    peak_close: Num('close on peak_date'),
    trough_date: DateOrNull('the low of the largest fall'),
    trough_close: Num('close on trough_date'),
    recovery_date: DateOrNull('first day after the trough closing at or above peak_close; null when not yet'),
    reason: Reason,
  },
  { $id: 'Drawdown' },
);

export const Relation = Type.Object(
  {
    beta: Num(
      'cov(r, r_b) / var(r_b): r and r_b the daily simple returns of the series and the benchmark between consecutive dates both have, over the 1Y window',
    ),
    correlation: Num('cov(r, r_b) / (σ_r σ_b) over the same returns (Pearson)'),
    daily_returns: Int('return pairs used'),
    start_date: DateOrNull('first shared date of the window'),
    end_date: DateOrNull('last shared date'),
    reason: Reason,
  },
  { $id: 'Relation' },
);

export const Range52 = Type.Object(
  {
    high: Type.Number({
      description: 'highest daily high (the close where a row has none) over the 52 weeks',
    }),
    high_date: Type.String({ format: 'date', description: 'its date (the earliest on a tie)' }),
    low: Type.Number({ description: 'lowest daily low (the close where a row has none)' }),
    low_date: Type.String({ format: 'date' }),
    start_date: Type.String({
      format: 'date',
      description: 'first row of the window: rows dated on or after E − 364 days (52 weeks, E included)',
    }),
  },
  { $id: 'Range52' },
);

export const Performance = Type.Object(
  {
    symbol: Type.Optional(Type.String({ description: 'the stock (stock performance)' })),
    index: Type.Optional(Type.String({ description: 'the index code (index performance)' })),
    adjusted: Type.Boolean({
      description:
        'true: closes adjusted for confirmed capital changes (meta.adjustment); false: raw closes, because adjusted=false was asked or no adjustment could be made (meta.adjustment.status `unavailable` says why)',
    }),
    dividends: Type.Boolean({
      description: 'cash dividends also in the adjustment: returns are total returns',
    }),
    benchmark: Type.Union([Type.String(), Type.Null()], { description: 'the benchmark index code, or null' }),
    last_date: DateOrNull('the last row (E)'),
    last_close: Num('its close'),
    returns: Type.Array(Type.Unsafe({ $ref: 'PeriodReturn#' })),
    volatility_1y: Type.Unsafe({ $ref: 'Volatility#' }),
    max_drawdown_1y: Type.Unsafe({ $ref: 'Drawdown#' }),
    max_drawdown_all: Type.Unsafe({ $ref: 'Drawdown#' }),
    beta_1y: Type.Optional(Type.Unsafe({ $ref: 'Relation#' })),
    range_52w: Type.Union([Type.Unsafe({ $ref: 'Range52#' }), Type.Null()]),
  },
  { $id: 'Performance' },
);

export type PeriodReturnT = Static<typeof PeriodReturn>;
export type VolatilityT = Static<typeof Volatility>;
export type DrawdownT = Static<typeof Drawdown>;
export type RelationT = Static<typeof Relation>;
export type Range52T = Static<typeof Range52>;
export interface PerformanceT {
  symbol?: string;
  index?: string;
  adjusted: boolean;
  dividends: boolean;
  benchmark: string | null;
  last_date: string | null;
  last_close: number | null;
  returns: PeriodReturnT[];
  volatility_1y: VolatilityT;
  max_drawdown_1y: DrawdownT;
  max_drawdown_all: DrawdownT;
  beta_1y?: RelationT;
  range_52w: Range52T | null;
}

export const IndicatorRow = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'trading day' }),
    close: Type.Number({ description: 'the close the indicators read (adjusted unless adjusted=false)' }),
  },
  {
    $id: 'IndicatorRow',
    additionalProperties: Type.Union([Type.Number(), Type.Null()]),
    description:
      'date, close, then each requested indicator’s columns (null during its warm-up): sma_N, ema_N, rsi_N, macd_F_S_G + macd_signal_F_S_G + macd_hist_F_S_G, bb_lower_N_K + bb_middle_N_K + bb_upper_N_K, atr_N, obv, vwap_N',
  },
);

export const MemberReturn = Type.Object(
  {
    rank: Int('1 = the highest return; null for a member without a return over the period'),
    symbol: Type.String(),
    adjusted: Type.Boolean({
      description:
        'true: the closes are adjusted for the capital changes the evidence confirms; false: raw closes, the adjustment was unavailable (meta.coverage.raw says why), so a bonus or split in the period shows as a loss',
    }),
    return_pct: Num(
      '(end_close / start_close − 1) × 100 on adjusted closes (raw when adjusted is false), percent',
    ),
    start_date: DateOrNull('the period’s start row (as on /stocks/{symbol}/performance)'),
    start_close: Num('adjusted close on start_date'),
    end_date: DateOrNull('the member’s last row'),
    end_close: Num('close on end_date'),
    volume: Int(
      'shares (a count, not PKR and not millions) traded over the period: the sum of the daily volumes after start_date through end_date, each day adjusted for capital changes (raw ÷ adjustment_factor, rounded to a whole share that day), so in today’s shares: a split in the period does not inflate it; raw volumes when adjusted is false',
    ),
    reason: Reason,
    delisted: Type.Optional(
      Type.Boolean({
        description:
          'true: no longer listed; with end= and sector= or index=ALLSHR (which holds every listed share), an equity of the period’s start day’s closing file (GET /market/universe) that the exchange has delisted since, ranked on its raw closes (no adjusted series) from that start day to its last close on or before end (its last day of trading if it stopped before end). Absent on other rows',
      }),
    ),
  },
  { $id: 'MemberReturn' },
);

export const SectorReturn = Type.Object(
  {
    rank: Int('1 = the highest return; null without one'),
    sector_code: Type.String({ description: '4-digit sector code' }),
    sector_name: Type.String(),
    return_pct: Num(
      'cap-weighted return, percent: (Σ cap_i / Σ (cap_i / (1 + r_i)) − 1) × 100 over the members counted, r_i each member’s return over the period on adjusted closes, cap_i its market cap today (the screener’s); the return of holding the members in proportion to their caps at the period’s start',
    ),
    members: Type.Integer({ description: 'members on the sector page' }),
    members_counted: Type.Integer({
      description: 'members with both a return over the period and a market cap',
    }),
    market_cap: Num('Σ cap_i of the members counted, PKR (at end= when given)'),
    reason: Reason,
    members_at_start: Type.Integer({
      description:
        'members that traded at the period’s start (a close on or before its start day, so a return over the period), the equities of the sector delisted since included (delisted_members): the members equal_weight_return_pct and median_return_pct are over. Can exceed members, which counts today’s',
    }),
    delisted_members: Int(
      'of members_at_start, the equities of the sector in the period’s start day’s closing file (GET /market/universe) that the exchange has delisted since, each on raw closes from the start day to its last close by the period’s end; null when that file is not in the archive (archive off, the files not reaching back, or period ALL): then the figures are over today’s members only (meta.coverage.membership says why)',
    ),
    equal_weight_return_pct: Num(
      'the mean of r_i over members_at_start, percent: survivorship-free where delisted_members is not null (a delisted equity has no market cap, so return_pct, cap-weighted, cannot include it)',
    ),
    median_return_pct: Num('the median of r_i over members_at_start, percent'),
  },
  { $id: 'SectorReturn' },
);

export type MemberReturnT = Static<typeof MemberReturn>;
export type SectorReturnT = Static<typeof SectorReturn>;

export const analyticsSchemas = [
  PeriodReturn,
  Volatility,
  Drawdown,
  Relation,
  Range52,
  Performance,
  IndicatorRow,
  MemberReturn,
  SectorReturn,
];
