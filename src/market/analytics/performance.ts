// Period returns, volatility, drawdowns, beta and the 52-week range of a stock or an index, from
// the cached daily series (src/analytics does the arithmetic; this file picks the series, aligns
// the benchmark and writes the API's shape). Computed once per dataset version: the result is
// memoised on the series arrays, which keep their identity until the data changes.
import { memoByDataset } from '../../cache/memo.ts';
import { combine, freshNoLaterThan, type Provenance } from '../../cache/types.ts';
import { PERIODS } from '../../analytics/periods.ts';
import {
  annualisedVolatility,
  maxDrawdown,
  periodReturn,
  range52,
  relation,
} from '../../analytics/returns.ts';
import { lastOnOrBefore } from '../../analytics/dates.ts';
import { periodStart } from '../../analytics/periods.ts';
import type { Bar } from '../../analytics/series.ts';
import { NotFoundError, ServiceError, clientText } from '../../errors.ts';
import { denoise } from '../../exchange/parsers/cells.ts';
import { answerKey, type Answer } from '../answer.ts';
import { symbolPage, type RequestContext } from '../context.ts';
import { normaliseSymbol } from '../symbols.ts';
import type { Datasets } from '../datasets.ts';
import { resolveIndexCode } from '../listings/indices.ts';
import { cutAt, indexSeriesOf, noRowBy, stockSeries, type Series } from './analytics-rows.ts';
import { closeOf } from '../../time/market-clock.ts';
import {
  DEFAULT_BENCHMARK,
  type DrawdownT,
  type PerformanceT,
  type PeriodReturnT,
  type RelationT,
  type VolatilityT,
} from '../models/analytics.ts';

export { DEFAULT_BENCHMARK };
export { checkEnd } from './analytics-rows.ts';

const pct = (fraction: number): number => denoise(fraction * 100);
const num = (x: number): number => denoise(x);

interface Benchmark {
  code: string;
  bars: readonly Bar[];
  dates: readonly string[];
}

function returnsOf(
  s: { bars: readonly Bar[]; dates: readonly string[] },
  bench: Benchmark | null,
): PeriodReturnT[] {
  const { bars, dates } = s;
  return PERIODS.map((period): PeriodReturnT => {
    const r = periodReturn(bars, dates, period);
    const row: PeriodReturnT = {
      period,
      start_date: null,
      start_close: null,
      end_date: dates[r.end] ?? null,
      end_close: bars[r.end]?.close ?? null,
      return_pct: null,
      ...(bench
        ? {
            benchmark_start_date: null,
            benchmark_end_date: null,
            benchmark_return_pct: null,
            excess_return_pct: null,
          }
        : {}),
      reason: null,
    };
    if (r.value === null) {
      row.reason = r.reason;
      return row;
    }
    row.start_date = dates[r.start]!;
    row.start_close = bars[r.start]!.close;
    row.return_pct = pct(r.value);
    if (bench) {
      // Over the same dates: the benchmark's last level on or before the stock's start and end.
      const i = lastOnOrBefore(bench.dates, row.start_date);
      const j = lastOnOrBefore(bench.dates, row.end_date!);
      if (i < 0 || j <= i) {
        row.reason = `${bench.code} has no level on or before ${row.start_date}`;
      } else {
        const b = bench.bars[j]!.close / bench.bars[i]!.close - 1;
        row.benchmark_start_date = bench.dates[i]!;
        row.benchmark_end_date = bench.dates[j]!;
        row.benchmark_return_pct = pct(b);
        row.excess_return_pct = pct(r.value - b);
      }
    }
    return row;
  });
}

function volatilityOf(bars: readonly Bar[], dates: readonly string[]): VolatilityT {
  const start = periodStart('1Y', dates);
  if (start.index === null)
    return { value_pct: null, daily_returns: null, start_date: null, end_date: null, reason: start.reason };
  const closes = closesOf(bars);
  const v = annualisedVolatility(closes, start.index, bars.length - 1);
  if (v.value === null)
    return { value_pct: null, daily_returns: null, start_date: null, end_date: null, reason: v.reason };
  return {
    value_pct: pct(v.value),
    daily_returns: v.returns,
    start_date: dates[start.index]!,
    end_date: dates[bars.length - 1]!,
    reason: null,
  };
}

const closesOf = memoByDataset((bars: readonly Bar[]): number[] => bars.map((b) => b.close));

function drawdownOf(bars: readonly Bar[], dates: readonly string[], period: '1Y' | 'ALL'): DrawdownT {
  const start = period === 'ALL' ? { index: 0 } : periodStart('1Y', dates);
  if (start.index === null) {
    return {
      value_pct: null,
      start_date: null,
      peak_date: null,
      peak_close: null,
      trough_date: null,
      trough_close: null,
      recovery_date: null,
      reason: start.reason,
    };
  }
  const closes = closesOf(bars);
  const d = maxDrawdown(closes, start.index, bars.length - 1);
  return {
    value_pct: pct(d.value),
    start_date: dates[start.index]!,
    peak_date: d.peak === null ? null : dates[d.peak]!,
    peak_close: d.peak === null ? null : closes[d.peak]!,
    trough_date: d.trough === null ? null : dates[d.trough]!,
    trough_close: d.trough === null ? null : closes[d.trough]!,
    recovery_date: d.recovery === null ? null : dates[d.recovery]!,
    reason: null,
  };
}

function relationOf(s: { bars: readonly Bar[]; dates: readonly string[] }, bench: Benchmark): RelationT {
  const start = periodStart('1Y', s.dates);
  const empty = { beta: null, correlation: null, daily_returns: null, start_date: null, end_date: null };
  if (start.index === null) return { ...empty, reason: start.reason };
  const r = relation(s.bars, bench.bars, s.dates[start.index]!);
  if ('reason' in r) return { ...empty, reason: r.reason };
  return {
    beta: num(r.beta),
    correlation: r.correlation === null ? null : num(r.correlation),
    daily_returns: r.returns,
    start_date: r.first,
    end_date: r.last,
    reason: r.correlation === null ? 'the series did not move: correlation is undefined' : null,
  };
}

/** The performance table of a series (its name and switches are the caller's). */
export function performanceTable(
  s: { bars: readonly Bar[]; dates: readonly string[] },
  bench: Benchmark | null,
): Omit<PerformanceT, 'symbol' | 'index' | 'adjusted' | 'dividends' | 'benchmark'> {
  const { bars, dates } = s;
  const n = bars.length;
  const range = range52(bars, dates);
  return {
    last_date: n > 0 ? dates[n - 1]! : null,
    last_close: n > 0 ? bars[n - 1]!.close : null,
    returns: returnsOf(s, bench),
    volatility_1y: volatilityOf(bars, dates),
    max_drawdown_1y: drawdownOf(bars, dates, '1Y'),
    max_drawdown_all: n > 0 ? drawdownOf(bars, dates, 'ALL') : drawdownOf(bars, dates, '1Y'),
    ...(bench ? { beta_1y: relationOf(s, bench) } : {}),
    range_52w: range
      ? {
          high: range.high,
          high_date: dates[range.highIndex]!,
          low: range.low,
          low_date: dates[range.lowIndex]!,
          start_date: dates[range.from]!,
        }
      : null,
  };
}

// Per series version, per benchmark version (or none), per last row (`end=`): the table is made
// once. Keyed on the bars: a series' dates are made from its bars (analytics-rows.ts), so they are
// the same version. The last row's index, not the client's date, keys the cut: dates between two
// trading days give the same table, and there are no more tables than rows.
const tableSlot = memoByDataset(
  (
    _bars: readonly Bar[],
    _benchmarkBars: readonly Bar[] | null,
    _last: number,
  ): { table?: PerformanceTable } => ({}),
);
type PerformanceTable = ReturnType<typeof performanceTable>;

function memoTable(s: Series, bench: Benchmark | null, last = s.bars.length - 1): PerformanceTable {
  const slot = tableSlot(s.bars, bench?.bars ?? null, last);
  return (slot.table ??= performanceTable(cutAt(s, s.dates[last]), bench));
}

/**
 * The index of the series' last row on or before `end` (its last row without one), and the
 * answer's as_of: the series' own while nothing is cut, else the close of that row's day.
 */
function asOfEnd(s: Series, name: string, end: string | undefined): { last: number; asOf: string } {
  const n = s.bars.length;
  if (end === undefined || n === 0 || s.dates[n - 1]! <= end) return { last: n - 1, asOf: s.answer.asOf };
  const last = lastOnOrBefore(s.dates, end);
  if (last < 0) throw noRowBy(name, s.dates, end);
  return { last, asOf: closeOf(s.dates[last]!) };
}

export interface StockPerformanceQuery {
  adjusted: boolean;
  dividends: boolean;
  /** An index code or name; `none` for no benchmark. */
  benchmark: string;
  /** YYYY-MM-DD, checked (checkEnd): the table as of that day's close; absent, as of the last row. */
  end?: string;
}

/** The benchmark's series, or why it is missing (a portal failure must not sink the stock's own table). */
async function benchmarkOf(
  datasets: Datasets,
  code: string,
  ctx: RequestContext,
): Promise<{ bench: Benchmark; provenance: Provenance } | { reason: string }> {
  try {
    const s = await indexSeriesOf(datasets, code, ctx);
    return { bench: { code, bars: s.bars, dates: s.dates }, provenance: s.answer.provenance };
  } catch (err) {
    if (err instanceof ServiceError && err.statusCode >= 500) {
      return { reason: `${code}'s daily levels could not be had (${err.message})` };
    }
    throw err;
  }
}

export function benchmarkCode(name: string): string | null {
  if (name.toLowerCase() === 'none') return null;
  const code = resolveIndexCode(name);
  if (!code) throw new NotFoundError(`benchmark index ${clientText(name)} not found`);
  return code;
}

export async function stockPerformance(
  datasets: Datasets,
  symbol: string,
  query: StockPerformanceQuery,
  ctx: RequestContext,
): Promise<Answer<PerformanceT>> {
  const code = benchmarkCode(query.benchmark);
  const [series, benchmark] = await Promise.all([
    stockSeries(datasets, symbol, query, symbolPage(ctx, normaliseSymbol(symbol))),
    code === null
      ? Promise.resolve(null)
      : benchmarkOf(datasets, code, symbolPage(ctx, normaliseSymbol(symbol))),
  ]);
  const bench = benchmark !== null && 'bench' in benchmark ? benchmark.bench : null;
  const name = symbol.toUpperCase();
  const { last, asOf } = asOfEnd(series, name, query.end);
  const table = memoTable(series, bench, last);
  const parts: Provenance[] = [series.answer.provenance];
  if (benchmark !== null && 'provenance' in benchmark) parts.push(benchmark.provenance);
  let provenance = combine(parts);
  const meta: Record<string, unknown> = {};
  if (series.adjustment) meta.adjustment = series.adjustment;
  if (benchmark !== null && 'reason' in benchmark) {
    meta.missing = [benchmark.reason];
    // Asked again soon: the table without its benchmark is not kept for a whole freshness window (a
    // cache lifetime of a minute, not a limit: nothing is counted or refused).
    provenance = freshNoLaterThan(provenance, provenance.fetchedAt + 60_000, '-benchmark');
  }
  return {
    key: answerKey('performance', name, { ...query, benchmark: code ?? 'none' }),
    asOf,
    provenance,
    data: {
      symbol: name,
      // Only when an adjustment was applied: without the adjusted series the closes are raw.
      adjusted: query.adjusted && series.adjustment?.status !== 'unavailable',
      dividends: query.adjusted && query.dividends && series.adjustment?.dividends === true,
      benchmark: bench?.code ?? null,
      ...table,
    },
    meta,
  };
}

export async function indexPerformance(
  datasets: Datasets,
  name: string,
  ctx: RequestContext,
  end?: string,
): Promise<Answer<PerformanceT>> {
  const series = await indexSeriesOf(datasets, name, ctx);
  const code = resolveIndexCode(name)!;
  const { last, asOf } = asOfEnd(series, code, end);
  return {
    key: answerKey('index-performance', code, ...(end === undefined ? [] : [{ end }])),
    asOf,
    provenance: series.answer.provenance,
    data: {
      index: code,
      adjusted: false,
      dividends: false,
      benchmark: null,
      ...memoTable(series, null, last),
    },
  };
}
