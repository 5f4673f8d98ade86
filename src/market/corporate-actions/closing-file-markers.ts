// The exchange's daily closing files mark a symbol's name on its ex-date: XD (ex-dividend), XB
// (ex-bonus), XR (ex-right). A marker is evidence that the day is an ex-date and of what kind, never
// of an amount or a ratio: it joins the evidence of the action known on its day, and a marked day
// with no known action is listed unconfirmed (applied: false), so it never moves an adjusted price.
import type { DailyFileRow } from '../../exchange/types.ts';
import type { MarketArchive } from '../archive/archive.ts';
import type { CorporateActionT } from '../models/resources.ts';

export type ClosingFileMarker = NonNullable<DailyFileRow['marker']>;

export interface MarkedDay {
  date: string;
  marker: ClosingFileMarker;
}

export const MARKER_EVIDENCE = 'closing_file_marker';

const MEANING: Record<ClosingFileMarker, string> = {
  XD: 'ex-dividend',
  XB: 'ex-bonus',
  XR: 'ex-right',
};

/** The action kind a marker speaks of: a bonus or a right issue is a capital change. */
const KIND_OF: Record<ClosingFileMarker, CorporateActionT['kind']> = {
  XD: 'cash_dividend',
  XB: 'capital_change',
  XR: 'capital_change',
};

/**
 * The days the archive's closing files mark `symbol`, oldest first; [] without an archive, while
 * its store is away (a request does not wait on it), or when the read fails (the answer is then
 * the one without markers, as without an archive).
 */
export async function markedDays(archive: MarketArchive | undefined, symbol: string): Promise<MarkedDay[]> {
  if (!archive?.available) return [];
  try {
    return await archive.dailyFiles((f) => f.symbolMarkers(symbol));
  } catch {
    return [];
  }
}

/**
 * `actions` (oldest first) with each marked day's evidence: an action of the marker's kind on the
 * marked day gets `closing_file_marker` in its evidence; when the day's actions are all of another
 * kind, each is given a note saying so (the marker is not taken as their evidence); a marked day
 * without an action is listed as an unconfirmed one. Never changes `applied`, never mutates its
 * input (the actions are shared by cached analyses).
 */
export function withClosingFileMarkers(
  actions: readonly CorporateActionT[],
  marked: readonly MarkedDay[],
): CorporateActionT[] {
  if (marked.length === 0) return [...actions];
  const byDate = new Map(marked.map((m) => [m.date, m.marker]));
  const out = actions.map((a) => {
    const marker = a.ex_date === null ? undefined : byDate.get(a.ex_date);
    if (marker === undefined) return a;
    if (a.kind === KIND_OF[marker])
      return a.evidence.includes(MARKER_EVIDENCE) ? a : { ...a, evidence: [...a.evidence, MARKER_EVIDENCE] };
    // One marker per name: a day with a dividend and a bonus shows one of them; only a day whose
    // known actions are all of another kind disagrees with its marker.
    if (actions.some((b) => b.ex_date === a.ex_date && b.kind === KIND_OF[marker])) return a;
    const seen = `the closing file marks this day ${marker} (${MEANING[marker]})`;
    const note =
      a.kind === 'other'
        ? seen
        : `${seen}, which is not a ${a.kind === 'cash_dividend' ? 'cash dividend' : 'capital change'}: not taken as evidence`;
    return { ...a, note: a.note === null ? note : `${a.note}; ${note}` };
  });
  const known = new Set(actions.map((a) => a.ex_date));
  for (const m of marked) {
    if (known.has(m.date)) continue;
    out.push(unconfirmed(m));
  }
  out.sort((a, b) =>
    (a.ex_date ?? '') < (b.ex_date ?? '') ? -1 : (a.ex_date ?? '') > (b.ex_date ?? '') ? 1 : 0,
  );
  return out;
}

function unconfirmed(m: MarkedDay): CorporateActionT {
  const missing =
    m.marker === 'XD'
      ? 'no payouts row gives its amount'
      : 'neither the adjusted series nor the payouts page gives its ratio';
  return {
    ex_date: m.date,
    kind: KIND_OF[m.marker],
    ratio: null,
    amount: null,
    evidence: [MARKER_EVIDENCE],
    applied: false,
    note: `the closing file marks this day ${m.marker} (${MEANING[m.marker]}); ${missing}: not applied`,
  };
}
