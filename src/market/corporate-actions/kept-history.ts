// A symbol's raw daily history for the corporate-actions analysis: the portal's page, or, when the
// page fails (an error, garbage, the portal down, no cached copy), the bars the archive kept of it.
// Raw bars never change once printed, so the kept ones are the page's own rows up to the last day
// the archive recorded; days after that are missing and said so.
import type { Provenance } from '../../cache/types.ts';
import type { HistoryRow } from '../../exchange/types.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { marketAsOf } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { karachiInstant } from '../../time/karachi.ts';
import { isPageFailure, RETRY_MISSING_MS, type MissingPart } from '../partial.ts';

export interface RawHistory {
  /** Newest first, as the portal sends them. */
  rows: readonly HistoryRow[];
  provenance: Provenance;
  asOf: string;
  /** Set when the archive's bars stood in for the failed page. */
  missing: MissingPart | null;
  /** Bars served from the archive (0: the page's own). */
  archivedRows: number;
}

/** The raw history page of `symbol`, or the archive's bars of it when the page fails. */
export async function historyOrKept(
  datasets: Datasets,
  symbol: string,
  ctx: RequestContext,
  archive: MarketArchive | undefined,
): Promise<RawHistory> {
  try {
    const history = await datasets.history(symbol, ctx);
    return {
      rows: history.value.rows,
      provenance: history,
      asOf: marketAsOf(history.fetchedAt),
      missing: null,
      archivedRows: 0,
    };
  } catch (err) {
    if (!isPageFailure(err) || !archive?.available) throw err;
    let bars;
    try {
      bars = await archive.bars([symbol]);
    } catch {
      throw err;
    }
    if (bars.length === 0) throw err;
    const rows: HistoryRow[] = bars
      .map(({ date, open, high, low, close, volume }) => ({ date, open, high, low, close, volume }))
      .reverse();
    const last = rows[0]!.date;
    const now = datasets.now();
    return {
      rows,
      provenance: {
        state: 'MISS',
        fetchedAt: now,
        freshUntil: now + RETRY_MISSING_MS,
        version: `archive-history:${rows.length}:${last}`,
      },
      // The close of the last kept day (the day's end, as of the exchange's timetable).
      asOf: marketAsOf(karachiInstant(last, 24 * 60 - 1)),
      missing: {
        part: 'raw_history',
        reason: `${err.message}; the archive's raw bars stand in, through ${last}: a later day is not known`,
      },
      archivedRows: rows.length,
    };
  }
}
