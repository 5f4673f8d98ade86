// Technical indicators of a stock, one row per trading day: every indicator is computed over the
// whole cached series (so its warm-up uses all the history there is) and only then cut to
// [start, end]; the same request over a window gives the values the whole history gives on those
// days. Computed once per dataset version and list of indicators.
import { columnsOf, parseIndicators, type IndicatorSpec } from '../../analytics/indicator-spec.ts';
import type { Line } from '../../analytics/indicators.ts';
import type { Bar } from '../../analytics/series.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { BadRequestError, ValidationError } from '../../errors.ts';
import { denoise } from '../../exchange/parsers/cells.ts';
import { answerKey, type Answer } from '../answer.ts';
import { symbolPage, type RequestContext } from '../context.ts';
import { normaliseSymbol } from '../symbols.ts';
import type { Datasets } from '../datasets.ts';
import { stockSeries } from './analytics-rows.ts';
import { selectRange } from '../history/history.ts';

export interface IndicatorsQuery {
  /** The `i` list as sent. */
  i: string;
  start?: string;
  end?: string;
  adjusted: boolean;
}

export type IndicatorRowT = { date: string; close: number } & Record<string, number | null | string>;

/** The parsed list, or a 422 naming what `i` accepts. */
export function indicatorSpecs(list: string): IndicatorSpec[] {
  const parsed = parseIndicators(list);
  if ('error' in parsed) throw new ValidationError(parsed.error);
  return parsed.specs;
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** 1e-6, 1e-5 … 1e8: the decades denoiseFast scales within. */
const DECADES = Array.from({ length: 15 }, (_, k) => Number(`1e${k - 6}`));

/**
 * `denoise` (12 significant digits) by scaled rounding, the same value (near a tie it is `denoise`
 * itself), several times faster over the tens of thousands of values of one table than
 * the decimal string round trip (bench/README.md). Outside 1e-6 … 1e8 it is `denoise` itself.
 * The value's decade is found by comparison with exact powers of ten (a logarithm costs more).
 */
export function denoiseFast(value: number): number {
  const a = Math.abs(value);
  if (!(a >= 1e-6 && a < 1e8)) return denoise(value);
  let decade = 0;
  while (a >= DECADES[decade + 1]!) decade++;
  const p = POW10[17 - decade]!;
  const scaled = value * p;
  // Near a tie the product's own rounding may tip it: there the decimal round trip decides.
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-3) return denoise(value);
  const r = Math.round(scaled) / p;
  return r === 0 ? 0 : r;
}

// The lists are the client's, so per series only the latest few are kept (each list is one table).
const tablesOf = memoByDataset((_bars: readonly Bar[]) => new Map<string, IndicatorRowT[]>());
const TABLES_PER_SERIES = 16;

/** The whole series' indicator table for these specs. */
export function indicatorTable(bars: readonly Bar[], specs: IndicatorSpec[]): IndicatorRowT[] {
  const key = specs.map((s) => s.text).join(',');
  const bySpecs = tablesOf(bars);
  const held = bySpecs.get(key);
  if (held !== undefined) return held;
  const cols = columnsOf(bars);
  const names: string[] = [];
  const lines: Line[] = [];
  for (const spec of specs) {
    names.push(...spec.columns);
    lines.push(...spec.compute(cols));
  }
  const make = rowMaker(names);
  const rows = bars.map((b, t) => make(b, t, lines, denoiseCell));
  if (bySpecs.size >= TABLES_PER_SERIES) bySpecs.delete(bySpecs.keys().next().value as string);
  bySpecs.set(key, rows);
  return rows;
}

const denoiseCell = (v: number | null): number | null => (v === null ? null : denoiseFast(v));

type RowMaker = (
  bar: Bar,
  t: number,
  lines: Line[],
  clean: (v: number | null) => number | null,
) => IndicatorRowT;
const makers = new Map<string, RowMaker>();

/**
 * Builds one row object as a literal of its columns (date, close, then each indicator's), compiled
 * once per column list: a table is 2,500 rows of up to 32 columns, and adding each column to an
 * object by a computed name costs several times what the literal does. The names are the specs'
 * own column names (letters, digits, `_` and `.`), written into the source as JSON strings.
 */
function rowMaker(names: string[]): RowMaker {
  const key = names.join(',');
  let make = makers.get(key);
  if (make === undefined) {
    const cells = names.map((name, k) => `${JSON.stringify(name)}: clean(lines[${k}][t])`);
    make = new Function(
      'bar',
      't',
      'lines',
      'clean',
      `return { date: bar.date, close: bar.close, ${cells.join(', ')} };`,
    ) as RowMaker;
    if (makers.size >= MAKERS_KEPT) makers.delete(makers.keys().next().value as string);
    makers.set(key, make);
  }
  return make;
}
/** Compiled row builders kept (one per distinct column list asked for). */
const MAKERS_KEPT = 64;

export function indicatorColumns(specs: IndicatorSpec[]): string[] {
  return ['date', 'close', ...specs.flatMap((s) => s.columns)];
}

export async function stockIndicators(
  datasets: Datasets,
  symbol: string,
  query: IndicatorsQuery,
  ctx: RequestContext,
): Promise<Answer<IndicatorRowT[]>> {
  const specs = indicatorSpecs(query.i);
  if (query.start && query.end && query.start > query.end) {
    throw new BadRequestError(`start (${query.start}) is after end (${query.end})`);
  }
  const series = await stockSeries(
    datasets,
    symbol,
    { adjusted: query.adjusted, dividends: false },
    symbolPage(ctx, normaliseSymbol(symbol)),
  );
  const all = indicatorTable(series.bars, specs);
  const canonical = specs.map((s) => s.text).join(',');
  const meta: Record<string, unknown> = { indicators: specs.map((s) => s.text) };
  if (series.adjustment) meta.adjustment = series.adjustment;
  return {
    key: answerKey('indicators', symbol.toUpperCase(), {
      i: canonical,
      start: query.start,
      end: query.end,
      adjusted: query.adjusted,
    }),
    asOf: series.answer.asOf,
    provenance: series.answer.provenance,
    data: selectRange(all, { start: query.start, end: query.end }),
    meta,
  };
}
