// A stock's performance and technical indicators (the arithmetic: docs/analytics.md).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ACCEPTED, MAX_INDICATORS } from '../../../analytics/params.ts';
import { parseAdjustedFlags } from '../../../market/corporate-actions/adjusted-history.ts';
import { AdjustmentMeta } from '../../../market/models/resources.ts';
import { analyticsModules } from '../../../market/analytics/lazy.ts';
import { DEFAULT_BENCHMARK, Performance, PERIOD_DESCRIPTION } from '../../../market/models/analytics.ts';
import {
  columnsOf,
  errorResponses,
  listEnvelope,
  query,
  singleEnvelope,
  SymbolParam,
} from '../../pipeline/schemas.ts';
import { karachiDate } from '../../../time/market-clock.ts';
import type { RouteDeps } from '../deps.ts';

const ADJUSTED = Type.Optional(
  Type.Boolean({
    description:
      '`true` (default): closes adjusted for the capital changes the portal records and the raw prices confirm (as /stocks/{symbol}/historical?adjusted=true; meta.adjustment says how far it reaches), so a bonus or split is not a loss. `false`: raw prices, as traded',
  }),
);

/** `end=` of the performance endpoints (the analysis as of a past day). */
export const EndParam = Type.Optional(
  Type.String({
    format: 'date',
    description:
      'YYYY-MM-DD (Karachi): the analysis as of that day, from the daily rows dated on or before it (the periods end at the last of them; as_of is that day’s close). Default: the last row. A day after today is a 400; a day before the first row a 404',
  }),
);

export const PERFORMANCE_DESCRIPTION = [
  'Returns, risk and range of a symbol from its daily closes, adjusted by default.',
  `**Periods.** ${PERIOD_DESCRIPTION} return_pct = (end_close / start_close − 1) × 100.`,
  '**Benchmark** (default KSE100, `benchmark=none` for none): its return over the same dates, from its daily levels (the last level on or before each of the period’s start and end dates); excess_return_pct = return_pct − benchmark_return_pct (percentage points).',
  '**Total return.** `dividends=true` adjusts the closes for cash dividends too (the payouts page reaches back about 17–18 months: meta.adjustment.dividends_from), so the returns include the dividends reinvested on their ex-dates.',
  '**volatility_1y** = the sample standard deviation (n − 1) of the daily log returns ln(close_t / close_t−1) over the 1Y window × √n, n the number of those returns (the year’s own count of trading days).',
  '**max_drawdown_1y / _all**: the lowest close_t / running-max(close) − 1 over the 1Y window / the whole history, with the peak, trough and first recovery (close ≥ peak close) dates.',
  '**beta_1y**: beta = cov(r, r_b) / var(r_b), correlation = cov / (σ_r σ_b), r and r_b the daily simple returns between consecutive dates both series have, over the 1Y window.',
  '**range_52w**: the highest daily high and lowest daily low (the close where a row has none) over the rows dated on or after E − 364 days.',
  'Computed once per version of the data (the history, the adjustment and the benchmark). When the benchmark cannot be had, the table comes without it and meta.missing says why.',
].join('\n\n');

const INDICATORS_DESCRIPTION = [
  'One row per trading day: date, the close read, and each indicator’s columns. Every indicator is computed over the whole history and then cut to [start, end], so its warm-up uses all the history there is; rows still inside the warm-up are null, never a partial value.',
  `**i** (at most ${MAX_INDICATORS}, comma-separated; ${ACCEPTED}):`,
  '- `sma:N` → sma_N = mean of the last N closes (first on row N).',
  '- `ema:N` → ema_N: α = 2 / (N + 1), seeded with the SMA of the first N closes, then EMA_t = α·close_t + (1 − α)·EMA_t−1.',
  '- `rsi:N` → rsi_N (Wilder): changes d_t = close_t − close_t−1; average gain and loss seeded with the mean of the first N gains/losses, then avg_t = (avg_t−1·(N − 1) + x_t) / N; RSI = 100 − 100 / (1 + avg gain / avg loss); 100 when the average loss is 0, null when both are 0. First on row N + 1.',
  '- `macd:F:S:G` → macd_F_S_G = EMA_F − EMA_S of the closes (each seeded with its own SMA), macd_signal_F_S_G = EMA_G of the MACD line seeded with the SMA of its first G values, macd_hist_F_S_G = MACD − signal.',
  '- `bbands:N:K` → bb_middle_N_K = SMA_N, bb_upper/lower_N_K = middle ± K·σ, σ the population standard deviation (÷ N) of the N closes.',
  '- `atr:N` → atr_N (Wilder): true range max(high − low, |high − close_t−1|, |low − close_t−1|) (high − low on the first row), smoothed as RSI’s averages, seeded with the mean of the first N.',
  '- `obv` → obv: 0 on the first row of the history, then ± the day’s volume on an up/down close (unchanged on an equal close).',
  '- `vwap:N` → vwap_N: rolling over the last N trading days, Σ typical price × volume / Σ volume, typical price = (high + low + close) / 3; null where the window traded nothing.',
  'Computed once per version of the history and list of indicators.',
].join('\n');

export function stockAnalyticsRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, marketClock } = deps;

  r.get(
    '/stocks/:symbol/performance',
    {
      schema: {
        operationId: 'getStockPerformance',
        summary: 'Returns, volatility, drawdown, beta and 52-week range',
        description: PERFORMANCE_DESCRIPTION,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: query({
          adjusted: ADJUSTED,
          dividends: Type.Optional(
            Type.Boolean({
              description:
                '`true`: total return, closes also adjusted for cash dividends (with adjusted=true). `false` (default)',
            }),
          ),
          benchmark: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 40,
              description: `an index code (default ${DEFAULT_BENCHMARK}), or none`,
            }),
          ),
          end: EndParam,
        }),
        response: {
          200: singleEnvelope('Performance', 'the performance table', true, {
            adjustment: Type.Optional(AdjustmentMeta),
            missing: Type.Optional(
              Type.Array(Type.String(), { description: 'parts that could not be had (the benchmark)' }),
            ),
          }),
          ...errorResponses({
            400: 'adjusted or dividends not true/false; dividends=true with adjusted=false; end after today',
            404: 'unknown symbol or benchmark index; no daily row on or before end',
          }),
        },
      },
    },
    async (req, reply) => {
      const symbol = req.params.symbol.toUpperCase();
      const flags = parseAdjustedFlags(req.query.adjusted ?? true, req.query.dividends);
      const { end } = req.query;
      const { checkEnd, stockPerformance } = await analyticsModules();
      if (end !== undefined) checkEnd(end, karachiDate(marketClock.now()));
      const answer = await stockPerformance(
        datasets,
        symbol,
        { ...flags, benchmark: req.query.benchmark ?? DEFAULT_BENCHMARK, end },
        contextOf(req),
      );
      return respond.send(req, reply, answer, {
        filename: `${symbol}-performance`,
        columns: columnsOf(Performance),
      });
    },
  );

  r.get(
    '/stocks/:symbol/indicators',
    {
      schema: {
        operationId: 'listStockIndicators',
        summary: 'Technical indicators, one row per trading day',
        description: INDICATORS_DESCRIPTION,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: query({
          i: Type.String({
            minLength: 1,
            maxLength: 400,
            description: `the indicators, comma-separated (at most ${MAX_INDICATORS}): ${ACCEPTED}; e.g. i=sma:20,rsi:14,macd:12:26:9`,
          }),
          start: Type.Optional(
            Type.String({ format: 'date', description: 'first day, inclusive, YYYY-MM-DD' }),
          ),
          end: Type.Optional(Type.String({ format: 'date', description: 'last day, inclusive, YYYY-MM-DD' })),
          adjusted: ADJUSTED,
        }),
        response: {
          200: listEnvelope('IndicatorRow', 'one row per trading day in [start, end]', {
            indicators: Type.Array(Type.String(), {
              description: 'the indicators computed, in canonical form (defaults filled in)',
            }),
            adjustment: Type.Optional(AdjustmentMeta),
          }),
          ...errorResponses({
            400: 'start is after end; adjusted not true/false',
            404: 'unknown symbol',
            422: 'an unknown indicator, a bad parameter (sma:0, sma:abc, rsi:100000), more than 10 indicators; the message names what i accepts',
          }),
        },
      },
    },
    async (req, reply) => {
      const symbol = req.params.symbol.toUpperCase();
      const flags = parseAdjustedFlags(req.query.adjusted ?? true, undefined);
      const { i, start, end } = req.query;
      const { indicatorColumns, indicatorSpecs, stockIndicators } = await analyticsModules();
      const answer = await stockIndicators(
        datasets,
        symbol,
        { i, start, end, adjusted: flags.adjusted },
        contextOf(req),
      );
      return respond.send(req, reply, answer, {
        filename: `${symbol}-indicators`,
        columns: indicatorColumns(indicatorSpecs(i)),
      });
    },
  );
}
