// A symbol's daily history as the archive keeps it, for answers that may stand in the archive for
// the portal's history page (the symbol overview, docs/archive.md): the kept bars (the history
// page's rows and the closing records) and, for days without one, the closing files' bar (the
// documented precedence: where both exist the history's bar is served). `upToDate` says whether the
// archive is complete through the newest day a bar can exist for, so "from the archive" never
// means "missing the last session".
import { addDays, formatDay, parseIsoDay, weekdayOf } from '../../time/karachi.ts';
import { lastClosedDay } from '../../time/market-clock.ts';
import type { HistoryRow } from '../../exchange/types.ts';
import type { MarketArchive } from './archive.ts';
import { ArchiveCalendar } from './trading-calendar.ts';

/** How far back the archive must hold the market without a gap (the overview's chart: a year). */
export const COVERED_DAYS = 366;

export interface ArchivedHistory {
  /** Newest first, as the portal's history page sends them. */
  rows: HistoryRow[];
  /**
   * The newest session the archive knows the symbol completely through: its newest bar, or a
   * later day the archive holds the whole market of (a closing record, or a closing file that
   * does not list the symbol: it did not trade).
   */
  through: string;
  /** The last closed session by the exchange's timetable (lastClosedDay). */
  expected: string;
  /**
   * True when the archive knows the symbol through `expected` (weekdays the archive holds as "no
   * session" in between skipped) and holds the market without a gap over the last COVERED_DAYS
   * (or since the symbol's first bar).
   */
  upToDate: boolean;
}

/**
 * The archive's history of `symbol` (every kept day) and whether it is up to date at `now`.
 * Undefined when the archive keeps no bar of it, or has not backfilled it (then its bars are
 * closing records only, not its history).
 */
export async function archivedHistory(
  archive: MarketArchive,
  symbol: string,
  now: number,
): Promise<ArchivedHistory | undefined> {
  const backfilled = await archive.backfilled();
  if (!backfilled.has(symbol)) return undefined;
  const [bars, files] = await Promise.all([
    archive.bars([symbol]),
    archive.dailyFiles((f) => f.symbolRows(symbol)),
  ]);
  const byDate = new Map<string, HistoryRow>();
  for (const f of files)
    byDate.set(f.date, {
      date: f.date,
      open: f.open,
      high: f.high,
      low: f.low,
      close: f.close,
      volume: f.volume,
    });
  // The history's bar wins where both exist (docs/archive.md).
  for (const b of bars) {
    byDate.set(b.date, {
      date: b.date,
      open: b.open,
      high: b.high,
      low: b.low,
      close: b.close,
      volume: b.volume,
    });
  }
  if (byDate.size === 0) return undefined;
  const rows = [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const expected = lastClosedDay(now);
  const known = await knownThrough(archive, rows[0]!.date, expected);
  // The portal's page starts at the symbol's first session: before that there is nothing to miss.
  const first = rows.at(-1)!.date;
  const yearStart = addDays(expected, -COVERED_DAYS);
  const upToDate =
    known.complete >= expected &&
    (await coveredWithoutGap(archive, first > yearStart ? first : yearStart, expected));
  return { rows, through: known.session, expected, upToDate };
}

/**
 * How far the archive knows a symbol whose newest bar is `newest`: each weekday after it, up to
 * `expected`, is known when the archive holds that day's whole market (a closing record or a kept
 * closing file: the symbol did not trade) or the portal's "no session" for its file (a holiday).
 * `session`: the last such day that had a session; `complete`: the last known day, holiday or not.
 */
async function knownThrough(
  archive: MarketArchive,
  newest: string,
  expected: string,
): Promise<{ session: string; complete: string }> {
  if (newest >= expected) return { session: newest, complete: newest };
  const [recorded, asked] = await Promise.all([
    archive.recordedDays(),
    archive.dailyFiles((f) => f.fileDays()),
  ]);
  const whole = new Set(recorded);
  const noSession = new Set<string>();
  for (const d of asked) if (d.date > newest) (d.found ? whole : noSession).add(d.date);
  let session = newest;
  let complete = newest;
  for (let n = parseIsoDay(newest) + 1, last = parseIsoDay(expected); n <= last; n++) {
    const weekday = weekdayOf(n);
    if (weekday === 0 || weekday === 6) continue;
    const day = formatDay(n);
    if (whole.has(day)) session = complete = day;
    else if (noSession.has(day)) complete = day;
    else break;
  }
  return { session, complete };
}

/**
 * Whether the archive holds the market on every trading day of [from, to]: each weekday is a day
 * with bars or a kept file, or a holiday the calendar can tell (a short run inside the span).
 */
async function coveredWithoutGap(archive: MarketArchive, from: string, to: string): Promise<boolean> {
  const [barDays, fileDays] = await Promise.all([
    archive.tradingDays(addDays(from, -14), to),
    archive.dailyFiles((f) => f.fileDates(addDays(from, -14), to)),
  ]);
  const calendar = new ArchiveCalendar([...new Set([...barDays, ...fileDays])].sort());
  for (let day = parseIsoDay(from), last = parseIsoDay(to); day <= last; day++) {
    const weekday = weekdayOf(day);
    if (weekday === 0 || weekday === 6) continue;
    if (calendar.isTradingDay(formatDay(day)) === undefined) return false;
  }
  return true;
}
