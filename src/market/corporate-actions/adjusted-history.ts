// `historical?adjusted=true[&dividends=true]`: the raw daily rows with prices adjusted for the
// corporate actions the evidence confirms (corporate-actions.ts). raw × adjustment_factor =
// adjusted; the factor is 1 after the last action. When the portal's adjusted series cannot be had
// or read, the rows stay raw with a null factor and meta says why: never a guessed factor.
import { combine, freshNoLaterThan } from '../../cache/types.ts';
import { BadRequestError, conflictingParameters, NotFoundError } from '../../errors.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';
import type { EodRow, PayoutRow } from '../../exchange/types.ts';
import type { Answer } from '../answer.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerKey, marketAsOf } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { ActionsAnalysis } from '../models/actions-analysis.ts';
import { analyseActionsOnce, reportAnalysis } from './corporate-actions.ts';
import type { Datasets } from '../datasets.ts';
import { historyRows, selectRange, type HistoryQuery } from '../history/history.ts';
import type { AdjustedHistoricalRowT, HistoricalRowT } from '../models/resources.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

export interface AdjustedQuery extends HistoryQuery {
  /** Also adjust for the cash dividends the payouts page lists. */
  dividends: boolean;
}

/** `meta.adjustment` of an adjusted answer (documented on the route). */
export interface AdjustmentMeta {
  status: 'full' | 'partial' | 'unavailable';
  series_start: string | null;
  partial_before: string | null;
  dividends: boolean;
  dividends_from: string | null;
  reason: string | null;
}

/** How long an answer without the adjusted series is kept before the series is asked for again. */
const RETRY_WITHOUT_SERIES_MS = 60_000;

const unadjusted = memoByDataset((rows: readonly HistoricalRowT[]): AdjustedHistoricalRowT[] =>
  rows.map((row) => ({ ...row, adjustment_factor: null })),
);

/** Once per analysis (itself once per version of the datasets, rows included) and switch. */
const adjustedRows = memoByDataset(
  (analysis: ActionsAnalysis, rows: readonly HistoricalRowT[], dividends: boolean) =>
    adjust(rows, analysis, dividends),
);

const round4 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e4) / 1e4);

/** The factors an adjustment applies: from an analysis, or as the archive kept them. */
export type AppliedFactors = Pick<ActionsAnalysis, 'applied' | 'dividendFactors'>;

/** The price factors in the order adjust() multiplies them: newest ex-date first. */
export function factorSteps(
  analysis: AppliedFactors,
  dividends: boolean,
): Array<{ exDate: string; factor: number }> {
  const steps = analysis.applied.map((a) => ({ exDate: a.exDate, factor: 1 / a.ratio }));
  if (dividends) steps.push(...analysis.dividendFactors);
  steps.sort((a, b) => (a.exDate < b.exDate ? 1 : -1)); // newest first
  return steps;
}

/** Rows oldest first; each gets the product of the factors of every action after its date. */
export function adjust(
  rows: readonly HistoricalRowT[],
  analysis: AppliedFactors,
  dividends: boolean,
): AdjustedHistoricalRowT[] {
  const steps = factorSteps(analysis, dividends);
  const exDates = new Set(analysis.applied.map((a) => a.exDate));
  const out = new Array<AdjustedHistoricalRowT>(rows.length);
  let factor = 1;
  let next = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i] as HistoricalRowT;
    while (next < steps.length && steps[next]!.exDate > row.date) factor *= steps[next++]!.factor;
    const action = exDates.has(row.date);
    out[i] = {
      date: row.date,
      open: round4(row.open === null ? null : row.open * factor),
      high: round4(row.high === null ? null : row.high * factor),
      low: round4(row.low === null ? null : row.low * factor),
      close: round4(row.close === null ? null : row.close * factor),
      volume: row.volume === null ? null : Math.round(row.volume / factor),
      is_anomaly: row.is_anomaly || action,
      anomaly_reasons: action ? [...row.anomaly_reasons, 'corporate_action'] : row.anomaly_reasons,
      adjustment_factor: factor,
    };
  }
  return out;
}

export async function adjustedHistorical(
  datasets: Datasets,
  rawSymbol: string,
  query: AdjustedQuery,
  ctx: RequestContext,
): Promise<Answer<AdjustedHistoricalRowT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  if (query.start && query.end && query.start > query.end) {
    throw new BadRequestError(`start (${query.start}) is after end (${query.end})`);
  }
  const history = await datasets.history(symbol, ctx);
  const raw = history.value.rows;
  if (raw.length === 0 && !(await isKnownSymbol(datasets, symbol, ctx))) {
    throw new NotFoundError(`${symbol} not found`);
  }
  const all = historyRows(raw);
  // The adjusted series and the payouts page are secondary (src/market/partial.ts): without them
  // the rows stay raw, or unadjusted for dividends, and meta says which part is missing and why.
  const [eod, payouts] = await Promise.all([
    secondary<EodRow[]>('adjustment', datasets.eod(symbol, ctx)),
    query.dividends
      ? secondary<PayoutRow[]>('dividends', datasets.payouts(symbol, ctx))
      : Promise.resolve(null),
  ]);
  const missing = lacking([eod, payouts]);
  const missingParts = missingMeta(missing);

  const seriesProblem =
    eod instanceof Missing
      ? `the portal's adjusted series for ${symbol} could not be had (${eod.reason}); prices are raw`
      : eod.value.length === 0
        ? `the portal has no adjusted series for ${symbol}; prices are raw`
        : null;
  if (seriesProblem !== null || eod instanceof Missing) {
    const meta: AdjustmentMeta = {
      status: 'unavailable',
      series_start: null,
      partial_before: null,
      dividends: false,
      dividends_from: null,
      reason: seriesProblem,
    };
    const served = degraded(combine(had([history, eod])), missing);
    // Ask for the series again soon rather than serving raw prices for the whole freshness window.
    const provenance = freshNoLaterThan(served, served.fetchedAt + RETRY_WITHOUT_SERIES_MS, '+raw');
    return {
      key: adjustedKey(symbol, query),
      asOf: marketAsOf(history.fetchedAt),
      data: selectRange(unadjusted(all), query),
      provenance,
      meta: { adjustment: meta, ...(missingParts ? { missing: missingParts } : {}) },
    };
  }

  const payoutsOk = payouts !== null && !(payouts instanceof Missing);
  const analysis = analyseActionsOnce(raw, eod.value, payoutsOk ? payouts.value : null);
  reportAnalysis(datasets, symbol, raw, analysis);
  const rows = selectRange(adjustedRows(analysis, all, payoutsOk), query);
  const oldest = rows.reduce<string | null>((min, r) => (min === null || r.date < min ? r.date : min), null);
  const partial = analysis.seriesStart !== null && oldest !== null && oldest < analysis.seriesStart;
  const meta: AdjustmentMeta = {
    status: partial ? 'partial' : 'full',
    series_start: analysis.seriesStart,
    partial_before: partial ? analysis.seriesStart : null,
    dividends: payoutsOk,
    dividends_from: payoutsOk ? analysis.payoutsSince : null,
    reason:
      payouts instanceof Missing
        ? `the payouts page for ${symbol} could not be had (${payouts.reason}); dividends are not adjusted`
        : null,
  };
  return {
    key: adjustedKey(symbol, query),
    asOf: marketAsOf(history.fetchedAt),
    data: rows,
    provenance: degraded(combine(had([history, eod, ...(payouts ? [payouts] : [])])), missing),
    meta: { adjustment: meta, ...(missingParts ? { missing: missingParts } : {}) },
  };
}

/** One view per symbol, range, order and switch: `adjusted` is in every key, `dividends` too. */
function adjustedKey(symbol: string, query: AdjustedQuery): string {
  return answerKey('historical', symbol, {
    ...query,
    order: query.order ?? 'asc',
    adjusted: true,
    dividends: query.dividends === true,
  });
}

/**
 * The `adjusted` and `dividends` switches (booleans checked by the route's schema); dividends
 * without adjusted contradict each other: a 400.
 */
export function parseAdjustedFlags(
  adjusted: boolean | undefined,
  dividends: boolean | undefined,
): { adjusted: boolean; dividends: boolean } {
  const flags = { adjusted: adjusted === true, dividends: dividends === true };
  if (flags.dividends && !flags.adjusted) {
    throw conflictingParameters('dividends=true adjusts prices: use it with adjusted=true');
  }
  return flags;
}
