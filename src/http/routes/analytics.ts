import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ACCEPTED, MAX_INDICATORS } from '../../analytics/indicator-spec.ts';
import { parseAdjustedFlags } from '../../market/adjusted-history.ts';
import { indicatorColumns, indicatorSpecs, stockIndicators } from '../../market/indicators.ts';
import { AdjustmentMeta } from '../../market/models.ts';
import { Performance, PERIOD_DESCRIPTION } from '../../market/models-analytics.ts';
import { DEFAULT_BENCHMARK, indexPerformance, stockPerformance } from '../../market/performance.ts';
import { historySource } from '../../market/member-series.ts';
import { marketPerformance, sectorPerformance } from '../../market/rankings.ts';
import { MemberReturn, SectorReturn } from '../../market/models-analytics.ts';
import { PERIODS, type Period } from '../../analytics/periods.ts';
import { BadRequestError } from '../../errors.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  query,
  singleEnvelope,
  SymbolParam,
} from '../schemas.ts';
import type { RouteDeps } from './deps.ts';

const ADJUSTED = Type.Optional(
  Type.Boolean({
    description:
      '`true` (default): closes adjusted for the capital changes the portal records and the raw prices confirm (as /stocks/{symbol}/historical?adjusted=true; meta.adjustment says how far it reaches), so a bonus or split is not a loss. `false`: raw prices, as traded',
  }),
);

const PERFORMANCE_DESCRIPTION = [
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

export function analyticsRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const members = deps.memberSeries ?? historySource(datasets);

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
        }),
        response: {
          200: singleEnvelope('Performance', 'the performance table', true, {
            adjustment: Type.Optional(AdjustmentMeta),
            missing: Type.Optional(
              Type.Array(Type.String(), { description: 'parts that could not be had (the benchmark)' }),
            ),
          }),
          ...errorResponses({
            400: 'adjusted or dividends not true/false; dividends=true with adjusted=false',
            404: 'unknown symbol or benchmark index',
          }),
        },
      },
    },
    async (req, reply) => {
      const symbol = req.params.symbol.toUpperCase();
      const flags = parseAdjustedFlags(req.query.adjusted ?? true, req.query.dividends);
      const answer = await stockPerformance(
        datasets,
        symbol,
        { ...flags, benchmark: req.query.benchmark ?? DEFAULT_BENCHMARK },
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

  r.get(
    '/indices/:name/performance',
    {
      schema: {
        operationId: 'getIndexPerformance',
        summary: "An index's returns, volatility, drawdown and 52-week range",
        description: `The same table as a stock's performance from the index's daily levels (no adjustment, no benchmark; the 52-week range reads closes, as the daily index series has no high or low).\n\n${PERFORMANCE_DESCRIPTION.split(
          '\n\n',
        )
          .filter((p) => !/Benchmark|Total return|beta_1y|Computed/.test(p))
          .join('\n\n')}`,
        tags: ['indices'],
        params: Type.Object({ name: Type.String({ maxLength: 40 }) }),
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('Performance', 'the performance table'),
          ...errorResponses({ 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await indexPerformance(datasets, req.params.name, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `index-${answer.data.index}-performance`,
        columns: columnsOf(Performance),
      });
    },
  );

  const PeriodParam = Type.Optional(
    Type.Enum([...PERIODS], { description: `the period (default 1M). ${PERIOD_DESCRIPTION}` }),
  );
  const coverage = Type.Object(
    {
      members: Type.Integer({ description: 'members asked for' }),
      with_data: Type.Integer({ description: 'members whose daily series could be had' }),
      missing: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
        description: 'members without a series and why (not fetched once the exchange-fetch budget is spent)',
      }),
      raw: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
        description:
          'members with data whose closes are raw, and why: no adjusted series could be had (a right’s ticker has none), so their returns are not adjusted for capital changes',
      }),
      sources: Type.Optional(
        Type.Object(
          {
            archive: Type.Integer({ description: 'members whose adjusted closes came from the archive' }),
            portal: Type.Integer({
              description: 'members whose series came from their own cached history (the portal)',
            }),
          },
          {
            description:
              'members with data, by where their series came from (present when the archiver is on)',
          },
        ),
      ),
    },
    {
      description:
        'how many members had data and from where: with the archiver on, each member the archive holds (its bars and corporate actions) is read from it; the rest from its own cached history (fetched within the portal budget). A partial answer is kept only a minute, so the missing members are asked for again',
    },
  );

  r.get(
    '/market/performance',
    {
      schema: {
        operationId: 'listMarketPerformance',
        summary: "An index's or a sector's members ranked by return over a period",
        description:
          'Members of `index` (default KSE100) or of `sector` (a code such as 0801 or a name), ranked by return_pct over `period`, highest first (members without a return last, rank null), each with the shares traded over the period; meta.index_return is the index’s own return over the period (from its daily levels), meta.coverage how many members had data. Returns are on adjusted closes, as /stocks/{symbol}/performance.',
        tags: ['market'],
        querystring: query({
          period: PeriodParam,
          index: Type.Optional(
            Type.String({ minLength: 1, maxLength: 40, description: 'an index code (default KSE100)' }),
          ),
          sector: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 60,
              description: 'a sector code (0801) or name, instead of index',
            }),
          ),
        }),
        response: {
          200: listEnvelope('MemberReturn', 'members, highest return first', {
            period: Type.String(),
            index_return: Type.Optional(
              Type.Object(
                {
                  index: Type.String(),
                  return_pct: Type.Union([Type.Number(), Type.Null()]),
                  start_date: Type.Union([Type.String(), Type.Null()]),
                  end_date: Type.Union([Type.String(), Type.Null()]),
                  reason: Type.Union([Type.String(), Type.Null()]),
                },
                { description: "the index's own return over the period" },
              ),
            ),
            coverage,
          }),
          ...errorResponses({ 400: 'both index and sector', 404: 'unknown index or sector' }),
        },
      },
    },
    async (req, reply) => {
      const { index, sector } = req.query;
      if (index !== undefined && sector !== undefined) {
        throw new BadRequestError('give index or sector, not both');
      }
      const period = (req.query.period ?? '1M') as Period;
      const answer = await marketPerformance(datasets, members, { period, index, sector }, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `market-performance-${period}`,
        columns: columnsOf(MemberReturn),
      });
    },
  );

  r.get(
    '/sectors/performance',
    {
      schema: {
        operationId: 'listSectorPerformance',
        summary: "Each sector's cap-weighted return over a period",
        description:
          'One row per sector of the sector page, ranked by its cap-weighted return over `period`: (Σ cap_i / Σ (cap_i / (1 + r_i)) − 1) × 100, r_i each member’s return on adjusted closes, cap_i its market cap today from the screener, over the members with both. meta.coverage says how many members had data.',
        tags: ['sectors'],
        querystring: query({ period: PeriodParam }),
        response: {
          200: listEnvelope('SectorReturn', 'sectors, highest return first', {
            period: Type.String(),
            coverage,
          }),
          ...errorResponses(),
        },
      },
    },
    async (req, reply) => {
      const period = (req.query.period ?? '1M') as Period;
      const answer = await sectorPerformance(datasets, members, period, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `sectors-performance-${period}`,
        columns: columnsOf(SectorReturn),
      });
    },
  );
}
