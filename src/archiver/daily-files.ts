// The exchange's daily closing files (docs/archive.md): every weekday's file, newest first, back to
// the first one (2013-11-04), one fetch each within the archiver's pace; the portal's 404 page is
// kept as "no session" and not asked again, except in the last RECENT_DAYS (the exchange may publish
// late). After each day's close its file is asked for every TODAY_RECHECK_MS until it appears (the
// exchange publishes it between about 15:30 and 19:00 Karachi). A file that does not read is not
// stored (never an empty day) and is asked again next round.
import type { FileDayState } from '../archive/daily-files.ts';
import { UpstreamDataError } from '../errors.ts';
import type { MarketArchive } from '../market/archive/archive.ts';
import type { RequestContext } from '../market/context.ts';
import type { Datasets } from '../market/datasets.ts';
import { addDays, parseIsoDay, weekdayOf } from '../time/karachi.ts';
import { karachiDate, sessionsOfDay } from '../time/market-clock.ts';

/** The exchange's first file [M]: 2013-11-01 and earlier answer 404. */
export const FIRST_FILE_DATE = '2013-11-04';
/** Days behind today whose 404 is asked again (the exchange may publish a file late). */
export const RECENT_DAYS = 14;
const MINUTE = 60_000;
/** Today's file, after the close: asked again this often until it appears. */
const TODAY_RECHECK_MS = 15 * MINUTE;
/** A recent day without a file: asked again this often while it is recent. */
const RECENT_RECHECK_MS = 6 * 60 * MINUTE;

function isWeekday(date: string): boolean {
  const wd = weekdayOf(parseIsoDay(date));
  return wd !== 0 && wd !== 6;
}

/** The newest day whose file may exist at `nowMs`: today after its last session closed, else yesterday. */
export function newestFileDay(nowMs: number): string {
  const today = karachiDate(nowMs);
  const last = sessionsOfDay(nowMs).at(-1);
  return last !== undefined && nowMs >= last.close ? today : addDays(today, -1);
}

/** Weekdays in [from, to]. */
export function weekdaysBetween(from: string, to: string): number {
  let n = 0;
  for (let d = parseIsoDay(from), end = parseIsoDay(to); d <= end; d++) {
    const wd = weekdayOf(d);
    if (wd !== 0 && wd !== 6) n++;
  }
  return n;
}

/**
 * The days to ask now, newest first: weekdays from the newest day back to `from` that hold no kept
 * file and no settled 404 (a 404 older than RECENT_DAYS is settled; a recent one is asked again
 * after its interval).
 */
export function fileDaysDue(states: readonly FileDayState[], from: string, nowMs: number): string[] {
  const byDate = new Map(states.map((s) => [s.date, s]));
  const newest = newestFileDay(nowMs);
  const today = karachiDate(nowMs);
  const recentFrom = addDays(today, -RECENT_DAYS);
  const out: string[] = [];
  for (let d = newest; d >= from; d = addDays(d, -1)) {
    if (!isWeekday(d)) continue;
    const held = byDate.get(d);
    if (held?.found) continue;
    if (held) {
      if (d < recentFrom) continue;
      const every = d === today ? TODAY_RECHECK_MS : RECENT_RECHECK_MS;
      if (nowMs - held.checkedAt < every) continue;
    }
    out.push(d);
  }
  return out;
}

export interface FileRunHooks {
  archive: MarketArchive;
  datasets: Datasets;
  context: RequestContext;
  from: string;
  now: () => number;
  /** Waits for the archiver's pace (throws when it stops). */
  pace: () => Promise<void>;
  /** False when the archiver stopped or lost its lease: the run ends there. */
  keepGoing: () => Promise<boolean>;
  onFetch?: (outcome: 'ok' | 'failed') => void;
  onProgress: (done: number, total: number) => void;
  onUnreadable: (date: string, message: string) => void;
}

/**
 * Asks for the due days (only the recent ones when `recentOnly`), newest first. True when every
 * due day was asked; false when stopped. A portal or budget failure throws (the archiver backs off).
 */
export async function fetchDailyFiles(h: FileRunHooks, recentOnly: boolean): Promise<boolean> {
  const { archive, datasets, now } = h;
  const states = await archive.dailyFiles((f) => f.fileDays());
  const nowMs = now();
  const newest = newestFileDay(nowMs);
  const total = h.from <= newest ? weekdaysBetween(h.from, newest) : 0;
  let due = fileDaysDue(states, h.from, nowMs);
  if (recentOnly) {
    const recentFrom = addDays(karachiDate(nowMs), -RECENT_DAYS);
    due = due.filter((d) => d >= recentFrom);
  }
  const settled = new Set(states.filter((s) => s.date >= h.from && s.date <= newest).map((s) => s.date));
  let done = settled.size - due.filter((d) => settled.has(d)).length;
  h.onProgress(done, total);
  for (const date of due) {
    if (!(await h.keepGoing())) return false;
    await h.pace();
    let file;
    try {
      // The client refuses a file holding another day, and records the kind's drift state.
      file = await datasets.fetchDailyFile(date, h.context);
      h.onFetch?.('ok');
    } catch (err) {
      h.onFetch?.('failed');
      if (!(err instanceof UpstreamDataError)) throw err;
      h.onUnreadable(date, err.message);
      continue;
    }
    if (file === null) await archive.dailyFiles((f) => f.markNoSession(date, now()));
    else await archive.recordDailyFile(date, file.rows, now());
    if (!settled.has(date)) done++;
    h.onProgress(done, total);
  }
  return true;
}
