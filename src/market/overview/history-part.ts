// The symbol overview's chart (its last year of daily bars) without spending a portal fetch where
// the archive already holds it: a reader clicking through symbols on a fresh demo gets each chart
// and 52-week range while the portal budget goes on the parts only the portal has (issue #40).
// - A fresh cached history page: served as before.
// - Otherwise, the archive's history up to date (archivedHistory: the last closed session's bar
//   present, no gap over the year): served from the archive, as_of the close of its newest bar.
// - Otherwise the portal's page, as before; when that cannot be had now (the budget spent, the
//   portal down) and the archive holds older bars, those are served as STALE, as_of their own
//   newest close, and meta.missing names the sessions after it.
import type { Provenance } from '../../cache/types.ts';
import { ServiceError } from '../../errors.ts';
import { closeOf, nextSessionClose } from '../../time/market-clock.ts';
import type { Answer } from '../answer.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { archivedHistory, type ArchivedHistory } from '../archive/symbol-history.ts';
import type { RequestContext } from '../context.ts';
import type { RawHistory } from '../corporate-actions/kept-history.ts';
import type { Datasets } from '../datasets.ts';
import { historical, historyRows } from '../history/history.ts';
import type { HistoricalRowT } from '../models/resources.ts';
import type { MissingPart } from '../partial.ts';

/** When the portal is asked again after archived bars stood in for its failed page. */
const STALE_RETRY_MS = 60_000;

/** Where the overview's history came from: `meta.history_source`. */
export type HistorySource = 'portal' | 'archive';

export interface OverviewHistory {
  answer: () => Promise<Answer<HistoricalRowT[]>>;
  /** Set once `answer` has settled. */
  source: () => HistorySource;
  /** The archive's stand-in for a page that could not be had (meta.missing). */
  missing: () => MissingPart | null;
  /** The raw series the archive gave, for the corporate-actions part (null: it reads the page). */
  raw: () => RawHistory | undefined;
}

/** The overview's history, read as the top of this file says. */
export function overviewHistory(
  datasets: Datasets,
  symbol: string,
  ctx: RequestContext,
  archive: MarketArchive | undefined,
): OverviewHistory {
  let source: HistorySource = 'portal';
  let missing: MissingPart | null = null;
  let raw: RawHistory | undefined;
  const answer = async (): Promise<Answer<HistoricalRowT[]>> => {
    const portal = () => historical(datasets, symbol, {}, ctx);
    if (archive === undefined || !archive.available || datasets.holdsFreshHistory(symbol)) return portal();
    let kept: ArchivedHistory | undefined;
    try {
      kept = await archivedHistory(archive, symbol, datasets.now());
    } catch (err) {
      // The archive unreachable: the portal, as without it.
      if (!(err instanceof ServiceError)) throw err;
    }
    if (kept?.upToDate) {
      const now = datasets.now();
      source = 'archive';
      return fromArchive(symbol, kept, {
        state: 'HIT',
        fetchedAt: now,
        // A newer bar is expected only once the next session has closed.
        freshUntil: nextSessionClose(now),
        version: archiveVersion(kept),
      });
    }
    try {
      return await portal();
    } catch (err) {
      if (kept === undefined || !(err instanceof ServiceError) || !err.staleServable) throw err;
      const now = datasets.now();
      source = 'archive';
      missing = {
        part: 'history',
        reason: `${err.message}; the archive's bars stand in, through ${kept.through}: the sessions after it (to ${kept.expected}) are not known`,
      };
      const retryMs = err.retryAfter !== undefined ? err.retryAfter * 1000 : STALE_RETRY_MS;
      return fromArchive(symbol, kept, {
        state: 'STALE',
        fetchedAt: now,
        freshUntil: now + retryMs,
        version: `${archiveVersion(kept)}:stale`,
      });
    }
  };
  const fromArchive = (
    sym: string,
    kept: ArchivedHistory,
    provenance: Provenance,
  ): Answer<HistoricalRowT[]> => {
    const asOf = closeOf(kept.through!);
    raw = { rows: kept.rows, provenance, asOf, missing: null, archivedRows: kept.rows.length };
    return { key: `overview-history:${sym}`, data: historyRows(kept.rows), provenance, asOf };
  };
  return { answer, source: () => source, missing: () => missing, raw: () => raw };
}

function archiveVersion(kept: ArchivedHistory): string {
  return `archive-history:${kept.through}:${kept.rows.length}`;
}
