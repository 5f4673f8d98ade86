// A symbol's daily history as the archive keeps it, for answers that may stand in the archive for
// the portal's history page (the symbol overview, docs/archive.md): the kept bars (the history
// page's rows and the closing records) and, for days without one, the closing files' bar (the
// documented precedence: where both exist the history's bar is served). `upTo` says whether the
// archive is complete through the newest day a bar can exist for, so "from the archive" never
// means "missing the last session".
import { addDays, formatDay, karachiInstant, parseIsoDay, weekdayOf } from '../../time/karachi.ts';
import { karachiDate, lastClosedDay, lastSessionClose } from '../../time/market-clock.ts';
import type { HistoryRow } from '../../exchange/types.ts';
import type { MarketArchive } from './archive.ts';
import { ArchiveCalendar } from './trading-calendar.ts';

/** How far back the archive must hold the market without a gap (the overview's chart: a year). */
export const COVERED_DAYS = 366;

export interface ArchivedHistory {
  /** Newest first, as the portal's history page sends them. */
  rows: HistoryRow[];
  /** The newest kept day (null: none). */
  through: string | null;
  /** The newest day a complete bar can exist for (the last closed session, holidays the archive knows skipped). */
  expected: string;
  /**
   * True when the rows reach `expected` and the archive holds the market without a gap over the
   * last COVERED_DAYS (or since the symbol's first bar).
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
  const through = rows[0]!.date;
  const expected = await expectedDay(archive, now, through);
  // The portal's page starts at the symbol's first session: before that there is nothing to miss.
  const first = rows.at(-1)!.date;
  const yearStart = addDays(expected, -COVERED_DAYS);
  const upToDate =
    through >= expected &&
    (await coveredWithoutGap(archive, first > yearStart ? first : yearStart, expected));
  return { rows, through, expected, upToDate };
}

/**
 * The last closed session's day, stepping back over weekdays the archive knows had no session (the
 * portal's 404 for that day's closing file), down to `through` at most.
 */
async function expectedDay(archive: MarketArchive, now: number, through: string): Promise<string> {
  let day = lastClosedDay(now);
  if (through >= day) return day;
  const noSession = new Set(
    (await archive.dailyFiles((f) => f.fileDays()))
      .filter((d) => !d.found && d.date > through)
      .map((d) => d.date),
  );
  while (day > through && noSession.has(day)) day = previousSessionDay(day);
  return day;
}

/** The weekday before `date` (the exchange's timetable; holidays unknown). */
function previousSessionDay(date: string): string {
  return karachiDate(lastSessionClose(karachiInstant(date, 0)));
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
