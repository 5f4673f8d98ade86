// Corporate actions from the portal's own evidence, never from price gaps alone (a gap may be a
// real crash). Three sources:
// - the adjusted series (`/timeseries/eod`): where its close and the raw close differ by a steady
//   ratio that steps at a date, the portal has recorded a capital change with that ex-date;
// - the raw history: the ex-date's prices must gap by that ratio (a close within the day's price
//   limit around the previous close ÷ ratio), usually beyond the limit of the raw close itself;
//   a step the raw prices contradict is reported and not applied;
// - the payouts page: cash dividends (a percent of face value), bonus and right announcements;
// - with the archive, the daily closing files' ex-markers (closing-file-markers.ts): the kind and
//   day of an ex-date, never its amount or ratio.
import { NotFoundError } from '../../errors.ts';
import type { EodRow, HistoryRow, PayoutRow } from '../../exchange/types.ts';
import type { MarketArchive } from '../archive/archive.ts';
import type { ActionsAnalysis, CapitalChange } from '../models/actions-analysis.ts';
import { withKeptPayouts } from './kept-payouts.ts';
import { keptRecord, withKeptCapitalChanges } from './kept-capital-changes.ts';
import { historyOrKept, type RawHistory } from './kept-history.ts';
import { MARKER_EVIDENCE, markedDays, withClosingFileMarkers } from './closing-file-markers.ts';
import { flagAnomalies, type FlaggedRow } from '../anomalies.ts';
import { answerKey, type Answer } from '../answer.ts';
import { combine } from '../../cache/types.ts';
import { daysBetween } from '../../time/karachi.ts';
import { shiftTradingDays } from '../../time/settlement.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { degraded, had, lacking, missingMeta, secondary, Missing } from '../partial.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { CorporateActionT } from '../models/resources.ts';
import { MAX_LDCP, priceLimitBand } from '../price-limit.ts';
import { isKnownSymbol, normaliseSymbol } from '../symbols.ts';

/**
 * Face value of a share, PKR. The payouts page gives dividends as a percent of it; the portal
 * publishes no face value per company, and Rs 10 is the usual one (not universal: some companies
 * have Rs 5 or Rs 1 shares, whose amounts would read 2× or 10× too high).
 */
export const FACE_VALUE = 10;

/** A new ratio level must hold this many consecutive days to be a step (fewer: stray rows). */
const STEP_MIN_DAYS = 3;
/** Two payouts dates this close (calendar days) are one event. */
const PAYOUT_MATCH_DAYS = 5;
/** A step this close to a dividend's price factor (relative) is that dividend. */
const DIVIDEND_STEP_TOLERANCE = 0.003;

interface LevelPoint {
  date: string;
  /** raw close ÷ adjusted close. */
  level: number;
  /** Relative tolerance: both closes are rounded to the paisa. */
  tolerance: number;
  /** The lower of the two closes: what bounds the precision of `level`. */
  price: number;
}

interface Segment {
  start: string;
  ref: number;
  levels: number[];
  prices: number[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Steps of the raw ÷ adjusted ratio, oldest first. The ratio is steady between capital changes;
 * a different level counts only once it holds STEP_MIN_DAYS days in a row (a single restated
 * row is not a step). The step's ratio = level before ÷ level after = shares after ÷ before.
 */
export function detectSteps(
  rawOldestFirst: readonly HistoryRow[],
  eodNewestFirst: readonly EodRow[],
): CapitalChange[] {
  const adjusted = new Map<string, number>();
  for (const row of eodNewestFirst) if (row.close > 0) adjusted.set(row.date, row.close);
  const points: LevelPoint[] = [];
  for (const row of rawOldestFirst) {
    const adj = adjusted.get(row.date);
    if (adj === undefined || row.close === null || !(row.close > 0)) continue;
    // Both closes are rounded to the paisa: each moves the ratio by up to 0.005 ÷ its price, so
    // 0.012 ÷ the lower price covers both with a margin; 0.2 % more absorbs the portal's own
    // rounding of an adjusted close. A 10 % bonus still stands far outside it, even at Rs 1.
    points.push({
      date: row.date,
      level: row.close / adj,
      tolerance: 0.002 + 0.012 / Math.min(row.close, adj),
      price: Math.min(row.close, adj),
    });
  }
  if (points.length === 0) return [];
  const matches = (p: LevelPoint, level: number): boolean => Math.abs(p.level / level - 1) <= p.tolerance;

  const segmentOf = (first: readonly LevelPoint[]): Segment => ({
    start: first[0]!.date,
    ref: first[0]!.level,
    levels: first.map((q) => q.level),
    prices: first.map((q) => q.price),
  });
  const segments: Segment[] = [];
  let current = segmentOf([points[0]!]);
  let pending: LevelPoint[] = [];
  for (const p of points.slice(1)) {
    if (matches(p, current.ref)) {
      current.levels.push(p.level);
      current.prices.push(p.price);
      pending = [];
      continue;
    }
    pending = pending.length > 0 && matches(p, pending[0]!.level) ? [...pending, p] : [p];
    if (pending.length >= STEP_MIN_DAYS) {
      // Only the first segment can be this short: a stray first row, not a level of its own.
      if (current.levels.length >= STEP_MIN_DAYS) segments.push(current);
      current = segmentOf(pending);
      pending = [];
    }
  }
  segments.push(current);

  const steps: CapitalChange[] = [];
  for (let i = 1; i < segments.length; i++) {
    const before = segments[i - 1]!;
    const after = segments[i]!;
    steps.push({ exDate: after.start, ratio: stepRatio(before, after) });
  }
  return steps;
}

/**
 * level before ÷ level after, to 4 decimals; snapped to 3 decimals (1.0997 → 1.1) when the
 * difference is within what paisa rounding allows at the segments' prices, since announced bonus
 * and split ratios are round numbers and a cheap stock's rounding would otherwise show as a
 * ratio nobody announced. A right issue's price factor (1.2931) keeps its 4 decimals.
 */
function stepRatio(before: Segment, after: Segment): number {
  const ratio = median(before.levels) / median(after.levels);
  const precision = (0.006 / Math.min(median(before.prices), median(after.prices))) * ratio;
  const snapped = Math.round(ratio * 1000) / 1000;
  return Math.abs(ratio - snapped) <= precision ? snapped : round4(ratio);
}

/** The weekday before `date` (for a book closure beyond the raw history). */
function weekdayBefore(date: string): string {
  return shiftTradingDays(date, -1);
}

/**
 * The ex-date of a payout: the trading day before its book closure starts. PSX settles T+1 (since
 * February 2025 [L]: before that T+2 would put it a day earlier; the payouts window reaches back
 * only to 2025 anyway), so a buyer on that day is no longer on the register.
 */
function payoutExDate(row: PayoutRow, rawOldestFirst: readonly HistoryRow[]): string | null {
  const from = row.bookClosureFrom;
  if (from === null) return null;
  let lo = 0;
  let hi = rawOldestFirst.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rawOldestFirst[mid]!.date < from) lo = mid + 1;
    else hi = mid;
  }
  const last = rawOldestFirst[rawOldestFirst.length - 1];
  // Book closure after the newest raw row: the ex-date has not been traded yet.
  if (last === undefined || from > last.date) return weekdayBefore(from);
  return lo > 0 ? rawOldestFirst[lo - 1]!.date : weekdayBefore(from);
}

function formatPercent(percent: number): string {
  return `${percent} %`;
}

/** Everything the evidence says about one symbol. Pure: the inputs are the cached datasets. */
export function analyseActions(
  rawNewestFirst: readonly HistoryRow[],
  eodNewestFirst: readonly EodRow[],
  payouts: readonly PayoutRow[] | null,
): ActionsAnalysis {
  const raw = [...rawNewestFirst].reverse();
  const flagged = flagAnomalies(raw);
  const indexOf = new Map<string, number>();
  raw.forEach((row, i) => indexOf.set(row.date, i));

  const steps = detectSteps(raw, eodNewestFirst);
  const capital = steps.map((step) => capitalRow(step, raw, flagged, indexOf.get(step.exDate)));
  const fromPayouts = payoutActions(payouts ?? [], raw, indexOf, capital);

  const actions = [...capital, ...fromPayouts.actions];
  actions.sort((a, b) =>
    (a.ex_date ?? '') < (b.ex_date ?? '') ? -1 : (a.ex_date ?? '') > (b.ex_date ?? '') ? 1 : 0,
  );
  const announced = (payouts ?? []).map((p) => p.announced?.slice(0, 10)).filter((d): d is string => !!d);
  return {
    actions,
    // Decided last: a payouts row may have shown a step to be a dividend.
    applied: steps.filter((_, i) => capital[i]!.applied),
    dividendFactors: fromPayouts.dividendFactors,
    seriesStart: eodNewestFirst.length > 0 ? eodNewestFirst[eodNewestFirst.length - 1]!.date : null,
    payoutsSince: announced.length > 0 ? announced.reduce((a, b) => (a < b ? a : b)) : null,
    payoutsRead: payouts !== null,
  };
}

/** A capital-change row of the adjusted series within PAYOUT_MATCH_DAYS of a payout's ex-date. */
function stepNear(capital: readonly CorporateActionT[], exDate: string | null): CorporateActionT | undefined {
  if (exDate === null) return undefined;
  return capital.find((r) => Math.abs(daysBetween(r.ex_date as string, exDate)) <= PAYOUT_MATCH_DAYS);
}

/**
 * The payouts page's rows as actions: cash dividends (with their factors), and bonus and right
 * announcements, which corroborate a step of the adjusted series near their ex-date (marked on
 * that step's row) or are listed unapplied without one.
 */
function payoutActions(
  payouts: readonly PayoutRow[],
  raw: readonly HistoryRow[],
  indexOf: Map<string, number>,
  capital: CorporateActionT[],
): { actions: CorporateActionT[]; dividendFactors: { exDate: string; factor: number }[] } {
  const actions: CorporateActionT[] = [];
  const dividendFactors: { exDate: string; factor: number }[] = [];
  for (const payout of payouts) {
    const exDate = payoutExDate(payout, raw);
    if (payout.entries.length === 0) {
      actions.push({
        ex_date: exDate,
        kind: 'other',
        ratio: null,
        amount: null,
        evidence: ['payouts'],
        applied: false,
        note: `payouts details not understood: "${payout.details}"`,
      });
      continue;
    }
    let dividendTotal = 0;
    let capitalAnnounced = false;
    const dividendRows: CorporateActionT[] = [];
    for (const entry of payout.entries) {
      if (entry.kind === 'dividend') {
        const amount = round4((entry.percent / 100) * FACE_VALUE);
        dividendTotal += amount;
        const row: CorporateActionT = {
          ex_date: exDate,
          kind: 'cash_dividend',
          ratio: null,
          amount,
          evidence: ['payouts'],
          applied: false,
          note: `${formatPercent(entry.percent)} of the face value, taken as Rs ${FACE_VALUE} (the portal gives only the percent)`,
        };
        dividendRows.push(row);
        actions.push(row);
        continue;
      }
      capitalAnnounced = true;
      const name = `${entry.kind} ${formatPercent(entry.percent)} on the payouts page`;
      const match = stepNear(capital, exDate);
      if (match !== undefined) {
        if (!match.evidence.includes('payouts')) match.evidence.push('payouts');
        match.note = match.note === null ? name : `${name}; ${match.note}`;
        continue;
      }
      actions.push({
        ex_date: exDate,
        kind: 'capital_change',
        ratio: entry.kind === 'bonus' ? round4(1 + entry.percent / 100) : null,
        amount: null,
        evidence: ['payouts'],
        applied: false,
        note: `${name}, but the adjusted series shows no step there: not applied`,
      });
    }
    if (dividendRows.length === 0) continue;
    const outcome = dividendFactor(exDate, raw, indexOf, dividendTotal);
    if (typeof outcome === 'string') {
      for (const row of dividendRows) row.note = `${row.note}; not applied: ${outcome}`;
      continue;
    }
    for (const row of dividendRows) row.applied = true;
    dividendFactors.push({ exDate: exDate as string, factor: outcome.factor });
    // The portal says its series is adjusted for splits only. Should it ever fold in dividends,
    // a step the size of this dividend is the dividend, not a capital change: applying it as one
    // would adjust for dividends unasked (and twice with dividends=true).
    const step = capitalAnnounced ? undefined : stepNear(capital, exDate);
    if (step?.ratio != null && Math.abs(step.ratio * outcome.factor - 1) <= DIVIDEND_STEP_TOLERANCE) {
      step.applied = false;
      step.note = `the step matches the cash dividend of Rs ${round4(dividendTotal)} on the payouts page, not a capital change: not applied`;
    }
  }
  return { actions, dividendFactors };
}

/** The dividend's factor (1 − D ÷ the close before the ex-date), or why it cannot be applied. */
function dividendFactor(
  exDate: string | null,
  raw: readonly HistoryRow[],
  indexOf: Map<string, number>,
  amount: number,
): string | { factor: number } {
  if (exDate === null) return 'the payouts row gives no book closure';
  const i = indexOf.get(exDate);
  if (i === undefined) return `no raw row on the ex-date ${exDate} (not traded yet, or outside the history)`;
  const before = raw[i - 1]?.close;
  if (before === undefined || before === null || !(before > amount))
    return 'no usable close before the ex-date';
  return { factor: 1 - amount / before };
}

function capitalRow(
  step: CapitalChange,
  raw: readonly HistoryRow[],
  flagged: readonly FlaggedRow[],
  index: number | undefined,
): CorporateActionT {
  const evidence = ['adjusted_series_step'];
  const row = index === undefined ? undefined : raw[index];
  const previous = index === undefined ? undefined : raw[index - 1];
  const base = { ex_date: step.exDate, kind: 'capital_change' as const, ratio: step.ratio, amount: null };
  if (row === undefined || previous === undefined || previous.close === null || !(previous.close > 0)) {
    return {
      ...base,
      evidence,
      applied: false,
      note: 'no raw close before the ex-date to confirm the step: not applied',
    };
  }
  if (flagged[index as number]?.anomaly_reasons.includes('beyond_price_limit'))
    evidence.push('beyond_price_limit');
  const expected = previous.close / step.ratio;
  const gapFits =
    expected > 0 &&
    expected <= MAX_LDCP &&
    [row.close, row.open].some((price) => withinBand(price, expected, step.exDate));
  if (gapFits) evidence.push('raw_gap');
  // Keep evidence in a stable order: series, raw gap, price limit.
  evidence.sort((a, b) => EVIDENCE_ORDER.indexOf(a) - EVIDENCE_ORDER.indexOf(b));
  if (!gapFits) {
    return {
      ...base,
      evidence,
      applied: false,
      note: `the raw prices show no gap of ×${step.ratio} on ${step.exDate} (close ${row.close} after ${previous.close}; expected about ${round4(expected)}): not applied`,
    };
  }
  return { ...base, evidence, applied: true, note: null };
}

const EVIDENCE_ORDER = ['adjusted_series_step', 'raw_gap', 'beyond_price_limit', 'payouts', MARKER_EVIDENCE];

function withinBand(price: number | null, ldcp: number, date: string): boolean {
  if (price === null || !(price > 0)) return false;
  const band = priceLimitBand(ldcp, date);
  // One paisa: the portal's rounding of the limit may differ from ours by a tick.
  return price >= band.lower - 0.01 && price <= band.upper + 0.01;
}

/**
 * `GET /stocks/{symbol}/corporate-actions`. The raw history is the primary page (a 503 or 502 when
 * it cannot be had, as everywhere). The adjusted series and the payouts page are secondary: when
 * one fails, the other's actions are served and `meta.missing` names the part left out
 * (`capital_changes` or `dividends`) and why, so an empty list never reads as "no actions". When
 * both fail there is nothing to serve: the series' failure is the answer.
 */
export async function corporateActions(
  datasets: Datasets,
  rawSymbol: string,
  ctx: RequestContext,
  archive?: MarketArchive,
  /** The raw history the caller holds already (the symbol overview's, read from the archive). */
  held?: RawHistory,
): Promise<Answer<CorporateActionT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  // The archive's kept bars stand in for the raw history page when it fails.
  const history = held ?? (await historyOrKept(datasets, symbol, ctx, archive));
  if (history.rows.length === 0 && !(await isKnownSymbol(datasets, symbol, ctx))) {
    throw new NotFoundError(`${symbol} not found`);
  }
  const [eod, payouts] = await Promise.all([
    secondary('capital_changes', datasets.eod(symbol, ctx)),
    secondary('dividends', datasets.payouts(symbol, ctx)),
  ]);
  // The archive's rows reach back past the page's window, and stand in when the page fails.
  const [kept, record, marked] = await Promise.all([
    withKeptPayouts(archive, symbol, payouts instanceof Missing ? null : payouts.value),
    keptRecord(archive, symbol),
    markedDays(archive, symbol),
  ]);
  if (eod instanceof Missing && kept.rows === null && record === undefined) throw eod.error;
  const missing = lacking([eod, payouts]);
  const analysis = analyseActionsOnce(history.rows, eod instanceof Missing ? NO_EOD : eod.value, kept.rows);
  if (!(eod instanceof Missing) && eod.value.length > 0)
    reportAnalysis(datasets, symbol, history.rows, analysis);
  // Likewise the capital changes the archive kept, where the adjusted series fails or no longer reaches.
  const capital = withKeptCapitalChanges(
    analysis.actions,
    record,
    analysis.seriesStart,
    eod instanceof Missing,
  );
  const missingParts = missingMeta([
    ...(history.missing ? [history.missing] : []),
    ...missing.map((m) =>
      m.part === 'capital_changes' && record !== undefined
        ? {
            part: m.part,
            reason: `${m.reason}; the archive's record of capital changes stands in, checked through ${record.checkedThrough}: one since then is not known`,
          }
        : m,
    ),
  ]);
  const actions = withClosingFileMarkers(capital.actions, marked);
  const fromArchive = kept.archived + capital.exDates.length + history.archivedRows + marked.length;
  const archiveTag =
    fromArchive > 0 || capital.seriesStart !== null
      ? `${kept.archived}:${capital.exDates.length}:${capital.seriesStart ?? ''}:${marked.length}`
      : null;
  return {
    key: answerKey('corporate-actions', symbol),
    asOf: history.asOf,
    data: actions,
    provenance: withArchived(
      degraded(combine(had([history.provenance, eod, payouts])), missingParts ?? []),
      archiveTag,
    ),
    meta: {
      coverage: {
        capital_changes_from: capital.seriesStart ?? analysis.seriesStart,
        dividends_from: analysis.payoutsSince,
        face_value: FACE_VALUE,
      },
      ...(missingParts ? { missing: missingParts } : {}),
      ...(archiveTag !== null
        ? {
            archive: {
              payouts_rows: kept.archived,
              reason: kept.reason,
              capital_changes: capital.exDates,
              capital_changes_reason: capital.reason,
              raw_history_rows: history.archivedRows,
              closing_file_markers: marked.length,
            },
          }
        : {}),
    },
  };
}

/** Told of each new analysis made over a symbol's adjusted series (the archive keeps its factors). */
export type AnalysisObserver = (
  symbol: string,
  rawNewestFirst: readonly HistoryRow[],
  analysis: ActionsAnalysis,
) => void;

// Per Datasets (one per service): a process may run several services, each with its own archive.
const observers = new WeakMap<Datasets, AnalysisObserver>();
const reported = new WeakSet<ActionsAnalysis>();

/** `observer` hears of every analysis the market services make with `datasets`, once each. */
export function observeAnalyses(datasets: Datasets, observer: AnalysisObserver): void {
  observers.set(datasets, observer);
}

/** Passes an analysis made over a non-empty adjusted series to the observer, once. */
export function reportAnalysis(
  datasets: Datasets,
  symbol: string,
  rawNewestFirst: readonly HistoryRow[],
  analysis: ActionsAnalysis,
): void {
  const observer = observers.get(datasets);
  if (observer === undefined || reported.has(analysis) || analysis.seriesStart === null) return;
  reported.add(analysis);
  observer(symbol, rawNewestFirst, analysis);
}

/** An answer with archived rows is another version of it (its ETag changes as the archive grows). */
function withArchived<P extends { version: string }>(provenance: P, tag: string | null): P {
  return tag !== null ? { ...provenance, version: `${provenance.version}+archive:${tag}` } : provenance;
}

const NO_EOD = Object.freeze([]) as readonly EodRow[];

/** analyseActions, once per version of its three datasets (a burst shares one analysis). */
export const analyseActionsOnce = memoByDataset(analyseActions);
