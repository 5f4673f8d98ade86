// The capital changes the archive kept for a symbol (src/archive/adjustments.ts), joined with what
// the portal's adjusted series shows now. The series reaches back about five years and can fail;
// the archive keeps every capital change an analysis applied (a step of the adjusted series that
// the raw prices confirmed), so it stands in for the series where the series is missing or no
// longer reaches. Only applied steps are kept: a step the raw prices contradicted is not.
import type { AdjustmentRecord } from '../../archive/store.ts';
import { daysBetween } from '../../time/karachi.ts';
import type { MarketArchive } from '../archive/archive.ts';
import type { CorporateActionT } from '../models/resources.ts';

/** Two dates this close (calendar days) are one event, as in the analysis. */
const MATCH_DAYS = 5;

/** The kept record of `symbol`, or undefined without an archive, a record, or while the store is away. */
export async function keptRecord(
  archive: MarketArchive | undefined,
  symbol: string,
): Promise<AdjustmentRecord | undefined> {
  try {
    // While the store is away (readiness pings it back) a request does not wait on it.
    if (!archive?.available) return undefined;
    return (await archive.adjustments([symbol])).get(symbol);
  } catch {
    return undefined;
  }
}

export interface KeptCapitalChanges {
  /** The actions with the archive's capital changes added, oldest first. */
  actions: CorporateActionT[];
  /** Ex-dates of the capital-change rows served from the archive, oldest first. */
  exDates: string[];
  /** Why the archive served rows; null when it served none. */
  reason: string | null;
  /** The oldest adjusted series the record's analyses saw, when older than the series now (or it failed). */
  seriesStart: string | null;
}

const byExDate = (a: CorporateActionT, b: CorporateActionT): number =>
  (a.ex_date ?? '') < (b.ex_date ?? '') ? -1 : (a.ex_date ?? '') > (b.ex_date ?? '') ? 1 : 0;

/**
 * `actions` (the analysis of the pages had now) with the record's capital changes the adjusted
 * series does not show: all of them when the series failed (`seriesStart` null), else those before
 * its first day. A payouts announcement of a bonus or right near a kept change corroborates it
 * (as it corroborates a step of the series) instead of being listed again as unapplied.
 */
export function withKeptCapitalChanges(
  actions: readonly CorporateActionT[],
  record: AdjustmentRecord | undefined,
  seriesStart: string | null,
  seriesFailed: boolean,
): KeptCapitalChanges {
  const none = { actions: [...actions], exDates: [], reason: null, seriesStart: null };
  if (record === undefined) return none;
  const older =
    record.seriesStart !== null && (seriesStart === null || record.seriesStart < seriesStart)
      ? record.seriesStart
      : null;
  const shown = new Set(actions.filter((a) => a.kind === 'capital_change').map((a) => a.ex_date));
  const kept = record.factors.filter(
    (f) =>
      f.kind === 'capital_change' && !shown.has(f.exDate) && (seriesStart === null || f.exDate < seriesStart),
  );
  if (kept.length === 0)
    return older === null
      ? none
      : {
          ...none,
          reason: `the archive's record reaches back to ${older} (the oldest adjusted series seen) and kept no capital change before ${seriesStart ?? 'its last check'}`,
          seriesStart: older,
        };
  let out = [...actions];
  const added: CorporateActionT[] = kept.map((f) => {
    const ratio = f.ratio ?? Math.round((1 / f.factor) * 1e4) / 1e4;
    const row: CorporateActionT = {
      ex_date: f.exDate,
      kind: 'capital_change',
      ratio,
      amount: null,
      evidence: ['adjusted_series_step', 'raw_gap'],
      applied: true,
      note: `kept by the archive: the portal's adjusted series stepped by ×${ratio} here and the raw prices confirmed it when the service read them`,
    };
    // An announcement the analysis could not match (the series did not show this step).
    const announced = out.find(
      (a) =>
        a.kind === 'capital_change' &&
        !a.applied &&
        a.evidence.length === 1 &&
        a.evidence[0] === 'payouts' &&
        a.ex_date !== null &&
        Math.abs(daysBetween(a.ex_date, f.exDate)) <= MATCH_DAYS,
    );
    if (announced !== undefined) {
      out = out.filter((a) => a !== announced);
      row.evidence.push('payouts');
      const name = (announced.note ?? '').split(', but ')[0];
      if (name) row.note = `${name}; ${row.note}`;
    }
    return row;
  });
  out.push(...added);
  out.sort(byExDate);
  return {
    actions: out,
    exDates: added.map((a) => a.ex_date as string),
    reason:
      seriesStart !== null
        ? "capital changes older than the adjusted series' window, kept by the archive when the series showed them"
        : `the adjusted series ${seriesFailed ? 'failed' : 'is empty'}; the capital changes are those the archive kept, checked through ${record.checkedThrough}`,
    seriesStart: older,
  };
}
