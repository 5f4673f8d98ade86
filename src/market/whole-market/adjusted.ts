// adjusted=true on the whole-market endpoints: the archive's raw bars with the corporate-action
// factors it keeps (src/archive/adjustments.ts), applied exactly as a symbol's own adjusted
// history applies its analysis (adjusted-history.ts). A symbol without a kept record is served raw
// with a null factor and named in meta.adjustment.unavailable, never silently raw.
import type { AdjustmentRecord, DailyBar } from '../../archive/store.ts';
import { adjust, factorSteps, type AppliedFactors } from '../corporate-actions/adjusted-history.ts';
import type { AdjustmentMeta } from '../corporate-actions/adjusted-history.ts';
import type { AdjustedHistoricalRowT, HistoricalRowT } from '../models/resources.ts';
import type { AdjustedDailyBarT, ArchiveAdjustmentMetaT } from '../models/archive.ts';
import { memoByDataset } from '../../cache/memo.ts';

export type SymbolAdjustment =
  | { symbol: string; status: 'full' }
  | {
      symbol: string;
      status: 'partial';
      partial_before: string | null;
      checked_through: string | null;
      reason: string;
    }
  | { symbol: string; status: 'unavailable'; reason: string };

/** A kept record as the factors adjust() reads, in the order an analysis lists them. */
const appliedOf = memoByDataset((record: AdjustmentRecord): AppliedFactors => {
  const capital = record.factors.filter((f) => f.kind === 'capital_change');
  // An analysis lists dividends in the payouts page's order: newest first.
  const dividends = record.factors.filter((f) => f.kind === 'cash_dividend').reverse();
  return {
    applied: capital.map((f) => ({ exDate: f.exDate, ratio: f.ratio ?? 1 / f.factor })),
    dividendFactors: dividends.map((f) => ({ exDate: f.exDate, factor: f.factor })),
  };
});

/** A kept bar as a symbol's history row: the archive's volume is a whole number of shares. */
export function historicalRowOf(b: DailyBar): HistoricalRowT {
  return {
    date: b.date,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume === null ? null : Math.round(b.volume),
    is_anomaly: b.anomaly_reasons.length > 0,
    anomaly_reasons: b.anomaly_reasons as HistoricalRowT['anomaly_reasons'],
  };
}

const withSymbol = (symbol: string, r: AdjustedHistoricalRowT): AdjustedDailyBarT => ({ symbol, ...r });

/**
 * One symbol's archived bars (oldest first) adjusted with its kept record, and how far that goes:
 * partial before the oldest adjusted series the analyses saw and after the last day they checked,
 * and (with dividends) when no analysis read the payouts page.
 */
export function adjustArchived(
  symbol: string,
  bars: readonly DailyBar[],
  record: AdjustmentRecord | undefined,
  dividends: boolean,
): { rows: AdjustedDailyBarT[]; adjustment: SymbolAdjustment } {
  const rows = bars.map(historicalRowOf);
  if (record === undefined) {
    return {
      rows: rows.map((r) => withSymbol(symbol, { ...r, adjustment_factor: null })),
      adjustment: {
        symbol,
        status: 'unavailable',
        reason: `the archive keeps no corporate-actions record for ${symbol} yet (the archiver makes one for each symbol it backfills); prices are raw`,
      },
    };
  }
  const withDividends = dividends && record.dividendsKnown;
  const adjusted = adjust(rows, appliedOf(record), withDividends).map((r) => withSymbol(symbol, r));
  const first = rows[0]?.date;
  const last = rows.at(-1)?.date;
  const before = record.seriesStart !== null && first !== undefined && first < record.seriesStart;
  const after = last !== undefined && last > record.checkedThrough;
  const reasons: string[] = [];
  if (before)
    reasons.push(
      `capital changes before ${record.seriesStart} (the oldest adjusted series seen) are unknown`,
    );
  if (after)
    reasons.push(
      `corporate actions were last checked through ${record.checkedThrough}; an action since then is not applied`,
    );
  if (dividends && !record.dividendsKnown)
    reasons.push('the payouts page was never read: dividends are not adjusted');
  else if (
    withDividends &&
    record.dividendsFrom !== null &&
    first !== undefined &&
    first < record.dividendsFrom
  )
    reasons.push(`cash dividends before ${record.dividendsFrom} (the oldest payouts row seen) are unknown`);
  if (reasons.length === 0) return { rows: adjusted, adjustment: { symbol, status: 'full' } };
  return {
    rows: adjusted,
    adjustment: {
      symbol,
      status: 'partial',
      partial_before: before ? record.seriesStart : null,
      checked_through: after ? record.checkedThrough : null,
      reason: reasons.join('; '),
    },
  };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Adjusted closes and volumes only (what a ranking reads), computed as adjust() computes them,
 * without a row object per day. Input and output oldest first; days without a close are left out.
 */
export function adjustedCloses(
  dates: readonly string[],
  closes: readonly (number | null)[],
  volumes: readonly (number | null)[],
  record: AdjustmentRecord,
): {
  dates: string[];
  bars: Array<{ date: string; open: null; high: null; low: null; close: number; volume: number | null }>;
} {
  const steps = factorSteps(appliedOf(record), false);
  const n = dates.length;
  const bars = new Array<{
    date: string;
    open: null;
    high: null;
    low: null;
    close: number;
    volume: number | null;
  }>();
  let factor = 1;
  let next = 0;
  for (let i = n - 1; i >= 0; i--) {
    const date = dates[i]!;
    while (next < steps.length && steps[next]!.exDate > date) factor *= steps[next++]!.factor;
    const close = closes[i];
    if (close === null || close === undefined || !Number.isFinite(close)) continue;
    const volume = volumes[i] ?? null;
    bars.push({
      date,
      open: null,
      high: null,
      low: null,
      close: round4(close * factor),
      volume: volume === null ? null : Math.round(Math.round(volume) / factor),
    });
  }
  bars.reverse();
  return { dates: bars.map((b) => b.date), bars };
}

/** A symbol's own adjusted history's meta (from the portal) in the whole-market form. */
export function fromHistoryMeta(
  symbol: string,
  meta: AdjustmentMeta | undefined,
  dividends: boolean,
): SymbolAdjustment {
  if (meta === undefined || meta.status === 'unavailable')
    return {
      symbol,
      status: 'unavailable',
      reason: meta?.reason ?? 'no adjustment could be made; prices are raw',
    };
  const reasons: string[] = [];
  if (meta.status === 'partial')
    reasons.push(
      `capital changes before ${meta.series_start} (the start of the portal's adjusted series) are unknown`,
    );
  if (dividends && !meta.dividends) reasons.push(meta.reason ?? 'dividends are not adjusted');
  if (reasons.length === 0) return { symbol, status: 'full' };
  return {
    symbol,
    status: 'partial',
    partial_before: meta.partial_before,
    checked_through: null,
    reason: reasons.join('; '),
  };
}

/** meta.adjustment: per symbol, full, partial (and why) or unavailable (and why). */
export function adjustmentSummary(
  parts: readonly SymbolAdjustment[],
  dividends: boolean,
): ArchiveAdjustmentMetaT {
  const out: ArchiveAdjustmentMetaT = { status: 'full', dividends, full: [], partial: [], unavailable: [] };
  for (const p of parts) {
    if (p.status === 'full') out.full.push(p.symbol);
    else if (p.status === 'partial') {
      const { symbol, partial_before, checked_through, reason } = p;
      out.partial.push({ symbol, partial_before, checked_through, reason });
    } else out.unavailable.push({ symbol: p.symbol, reason: p.reason });
  }
  out.status =
    out.partial.length === 0 && out.unavailable.length === 0
      ? 'full'
      : out.full.length === 0 && out.partial.length === 0
        ? 'unavailable'
        : 'partial';
  return out;
}
