// The company payouts page joined with what the archive kept of it: the page keeps about 17–18
// months, the archive every row the service ever read. Archived rows are added only where the page
// no longer reaches (announced before its oldest row) or when the page could not be had.
import type { PayoutRow } from '../../exchange/types.ts';
import { memoLatestByDataset } from '../../cache/memo.ts';
import type { MarketArchive } from '../archive/archive.ts';

export interface KeptPayouts {
  /** The page's rows and the archived ones it lacks, newest first; null when neither has any. */
  rows: readonly PayoutRow[] | null;
  /** Rows from the archive. */
  archived: number;
  /** Why the archive served rows; null when it served none. */
  reason: string | null;
}

const keyOf = (r: PayoutRow): string => `${r.announced ?? ''}|${r.details}`;

// The same page joined with the same archived rows gives the same list object, so the analyses
// memoised on it (memoByDataset) are shared across requests. The join depends on the archive's
// rows too, which grow as the archive keeps more: only the latest join per page is kept.
const joined = memoLatestByDataset<readonly PayoutRow[], readonly PayoutRow[]>();

/** `page` (null: it failed) with the archive's rows of `symbol` it no longer has. */
export async function withKeptPayouts(
  archive: MarketArchive | undefined,
  symbol: string,
  page: readonly PayoutRow[] | null,
): Promise<KeptPayouts> {
  let kept: PayoutRow[] = [];
  try {
    // While the store is away (readiness pings it back) a request does not wait on it.
    if (archive?.available) kept = await archive.companyPayouts(symbol);
  } catch {
    // The archive away: the page alone, as without one.
  }
  if (page === null) {
    if (kept.length === 0) return { rows: null, archived: 0, reason: null };
    return {
      rows: kept,
      archived: kept.length,
      reason:
        'the payouts page failed; the dividends are the rows the archive kept when the page printed them',
    };
  }
  const held = new Set(page.map(keyOf));
  let oldest: string | null = null;
  for (const r of page)
    if (r.announced !== null && (oldest === null || r.announced < oldest)) oldest = r.announced;
  const extra = kept.filter(
    (r) => !held.has(keyOf(r)) && (oldest === null || (r.announced !== null && r.announced < oldest)),
  );
  if (extra.length === 0) return { rows: page, archived: 0, reason: null };
  const rows = joined(page, extra.map(keyOf).join('\n'), () => Object.freeze([...page, ...extra]));
  return {
    rows,
    archived: extra.length,
    reason: "rows older than the payouts page's window, kept by the archive when the page printed them",
  };
}
