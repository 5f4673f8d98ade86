// The archiver: keeps the market in the archive without starving users of the portal budget.
// - Backfill: every listed non-debt symbol's whole history, one portal fetch per symbol, at most
//   `perMinute` fetches in any minute (a share of the portal budget, config ARCHIVE_BUDGET_SHARE).
//   A symbol's rows and its done mark are one transaction, so a restart (even after kill -9)
//   resumes with the symbols not yet done and never fetches a done one again.
// - Corporate actions: once a symbol's bars are in, its adjusted series and payouts page (two more
//   fetches, same pacing) give the factors adjusted=true applies to the archive's bars.
// - Closing record: after each session's close, the closing market watch and index levels give
//   every symbol's bar and every index's level for the day (a few fetches, not one per symbol),
//   and each index's ticks of the day are kept.
// - Payouts: once a day, the market-wide payouts page's last week (a few pages).
// - Daily closing files (daily-files.ts): every weekday's file back to 2013-11-04, one fetch each,
//   and the new day's file after each close until it appears.
// - Backs off while the portal is down, answers 429 or the budget says no, and while the archive
//   cannot be written; the last error is in the status.
// - Runs on one replica at a time (a Redis lease, like the stream poller's).
// Pacing and the rate use real elapsed time (a budget is spent in real minutes); every recorded
// time and the session schedule come from the injected clock.
import type { Logger } from 'pino';
import { UpstreamDataError } from '../errors.ts';
import type { ArchiverStatus, MarketArchive } from '../market/archive/archive.ts';
import type { RequestContext } from '../market/context.ts';
import type { Datasets } from '../market/datasets.ts';
import { FeedDatasets } from '../market/feeds/feed-datasets.ts';
import { INDEX_CODES } from '../market/listings/indices.ts';
import { analyseActions } from '../market/corporate-actions/corporate-actions.ts';
import type { HistoryRow, PayoutRow } from '../exchange/types.ts';
import { addDays } from '../time/karachi.ts';
import { karachiDate, sessionsOfDay } from '../time/market-clock.ts';
import { fetchDailyFiles, FIRST_FILE_DATE } from './daily-files.ts';
import type { Lease } from './lease.ts';

// The archiver's fetches are the service's own: one budget address for all of them, and spare, so
// readers' pages keep at least half of every minute's global budget (src/limits/portal-budget.ts).
const ARCHIVER: RequestContext = { clientIp: 'archiver', spare: true };
const MINUTE = 60_000;
// A symbol's corporate actions are looked at again after a new closing record, at most this often.
const RECHECK_MS = 20 * 60 * MINUTE;
// The closing pages settle a few minutes after the last session's close.
const CLOSE_SETTLE_MS = 10 * MINUTE;
// The payouts recorded each day: the last week's announcements, at most three portal pages
// (100 rows each; a busy week at results season has about 200).
const PAYOUT_DAYS = 7;
const PAYOUT_PAGES = 3;

export interface ArchiverOptions {
  archive: MarketArchive;
  datasets: Datasets;
  lease: Lease;
  /** Portal fetches a minute at most (the archiver's share of the budget). */
  perMinute: number;
  /** A progress line in the log every this many symbols. */
  progressEvery: number;
  /** First wait after a failure; doubles up to maxBackoffMs while failures go on. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Wait between rounds once everything is archived (new listings, the next close). */
  idleMs: number;
  /** The oldest daily closing file to keep (default the exchange's first, 2013-11-04). */
  filesFrom?: string;
  now: () => number;
  logger?: Logger;
  onFetch?: (outcome: 'ok' | 'failed') => void;
  onProgress?: (done: number, total: number) => void;
  onBackoff?: () => void;
}

export class Archiver {
  private state: ArchiverStatus;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly fetchTimes: number[] = [];
  private backoff: number;
  private indicesDone = false;
  private checkedCloseOf: string | undefined;
  private payoutsOf: string | undefined;
  private started: { at: number; done: number; fetches: number } | undefined;
  /** Portal fetches this process has made for the archive: the pace the time left is reckoned at. */
  private fetches = 0;
  /** Symbols whose adjusted series is empty: asked for once a process, not every round. */
  private readonly noSeries = new Set<string>();

  constructor(private readonly opts: ArchiverOptions) {
    this.backoff = opts.backoffMs;
    this.state = {
      phase: 'starting',
      symbolsDone: 0,
      symbolsTotal: 0,
      ratePerMinute: null,
      etaSeconds: null,
      actionsLeft: null,
      perMinute: opts.perMinute,
      lastError: null,
      lastRecordedDay: null,
      filesDone: 0,
      filesTotal: 0,
      unreadable: [],
    };
  }

  status(): ArchiverStatus {
    return { ...this.state, unreadable: [...this.state.unreadable] };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.state.phase = 'stopped';
    await this.opts.lease.resign().catch(() => undefined);
  }

  /** One round: the closing record if due, then the backfill; the outcome says what to do next. */
  async round(): Promise<'done' | 'follower' | 'stopped'> {
    if (!(await this.opts.lease.lead())) {
      this.state.phase = 'follower';
      return 'follower';
    }
    await this.recordClosedDay();
    await this.recordPayouts();
    const finished = (await this.backfill()) && (await this.backfillActions());
    if (!finished) return 'stopped';
    // The recent files (the day's file after its close) once the symbols are in, then the old ones.
    if (!(await this.dailyFiles(true))) return 'stopped';
    if (!this.indicesDone) await this.backfillIndices();
    if (!(await this.dailyFiles(false))) return 'stopped';
    this.state.phase = 'idle';
    return 'done';
  }

  private async run(): Promise<void> {
    const { logger } = this.opts;
    while (this.running) {
      let wait = this.opts.idleMs;
      try {
        const outcome = await this.round();
        this.backoff = this.opts.backoffMs;
        if (outcome === 'follower') wait = Math.min(this.opts.idleMs, 10_000);
      } catch (err) {
        if (err instanceof ArchiverStopped) break;
        const retryAfter = (err as { retryAfter?: number }).retryAfter;
        wait = Math.max(this.backoff, (retryAfter ?? 0) * 1000);
        this.backoff = Math.min(this.backoff * 2, this.opts.maxBackoffMs);
        this.state.phase = 'backoff';
        this.state.lastError = { at: this.opts.now(), message: (err as Error).message };
        this.opts.onBackoff?.();
        logger?.warn({ err, waitMs: wait }, 'archiver backing off');
      }
      if (this.running) await this.sleep(wait);
    }
  }

  /** True when every symbol is done; false when stopped (or the lease lost) half-way. */
  private async backfill(): Promise<boolean> {
    const { archive, datasets, logger, now } = this.opts;
    const listed = (await datasets.symbols(ARCHIVER)).value
      .filter((s) => !s.isDebt)
      .map((s) => s.symbol)
      .sort();
    const done = await archive.backfilled();
    const todo = listed.filter((s) => !done.has(s));
    this.state.symbolsTotal = listed.length;
    this.state.symbolsDone = listed.length - todo.length;
    this.state.unreadable = [];
    this.opts.onProgress?.(this.state.symbolsDone, this.state.symbolsTotal);
    if (todo.length === 0) return true;
    this.state.phase = 'backfill';
    // Every symbol without a kept corporate-actions record gets one after the histories.
    const kept = await archive.adjustments();
    this.state.actionsLeft = listed.filter((s) => !kept.has(s) && !this.noSeries.has(s)).length;
    this.started ??= { at: performance.now(), done: this.state.symbolsDone, fetches: this.fetches };
    for (const symbol of todo) {
      if (!this.running && this.loop !== undefined) return false;
      if (!(await this.opts.lease.lead())) return false;
      await this.pace();
      let rows;
      try {
        rows = await datasets.fetchHistory(symbol, ARCHIVER);
        this.opts.onFetch?.('ok');
      } catch (err) {
        this.opts.onFetch?.('failed');
        // A page that no longer parses is skipped (nothing written) and tried again next round;
        // anything else (portal down, 429, budget) stops the round and backs off.
        if (!(err instanceof UpstreamDataError)) throw err;
        this.state.unreadable.push(symbol);
        this.state.lastError = { at: now(), message: `${symbol}: ${err.message}` };
        continue;
      }
      await archive.recordHistory(symbol, rows, now());
      this.backoff = this.opts.backoffMs;
      this.state.symbolsDone++;
      this.updateRate();
      this.opts.onProgress?.(this.state.symbolsDone, this.state.symbolsTotal);
      if (
        this.state.symbolsDone % this.opts.progressEvery === 0 ||
        this.state.symbolsDone === listed.length
      ) {
        logger?.info(
          {
            done: this.state.symbolsDone,
            total: this.state.symbolsTotal,
            ratePerMinute: this.state.ratePerMinute,
            etaSeconds: this.state.etaSeconds,
          },
          'archive backfill progress',
        );
      }
    }
    return true;
  }

  /**
   * Each backfilled symbol without a corporate-actions record: its adjusted series and payouts
   * page, analysed over its archived bars (as adjusted-history.ts does), kept in the archive.
   * True when every such symbol is done; false when stopped or the lease lost.
   */
  private async backfillActions(): Promise<boolean> {
    const { archive, datasets, logger, now } = this.opts;
    const [done, recorded, days] = await Promise.all([
      archive.backfilled(),
      archive.adjustments(),
      archive.recordedDays(),
    ]);
    const lastDay = [...days].reduce((a, b) => (a > b ? a : b), '');
    // Only symbols that traded on that day have rows their check has not seen.
    const traded = new Set(lastDay === '' ? [] : (await archive.dailyBars(lastDay)).map((b) => b.symbol));
    const at = now();
    // A record older than the last closing record is looked at again, at most once per RECHECK_MS:
    // an action since its check would otherwise be missing (the answers say `partial` meanwhile).
    const stale = (s: string): boolean => {
      const r = recorded.get(s);
      if (r === undefined) return !this.noSeries.has(s);
      return r.checkedThrough < lastDay && traded.has(s) && at - r.checkedAt >= RECHECK_MS;
    };
    const todo = [...done].filter(stale).sort();
    let count = 0;
    if (todo.length > 0) {
      this.started ??= { at: performance.now(), done: this.state.symbolsDone, fetches: this.fetches };
    }
    for (const [i, symbol] of todo.entries()) {
      this.state.actionsLeft = todo.length - i;
      this.updateRate();
      if (!this.running && this.loop !== undefined) return false;
      if (!(await this.opts.lease.lead())) return false;
      let eod;
      let payouts: PayoutRow[] | null;
      try {
        await this.pace();
        eod = await datasets.fetchEod(symbol, ARCHIVER);
        this.opts.onFetch?.('ok');
      } catch (err) {
        this.opts.onFetch?.('failed');
        if (!(err instanceof UpstreamDataError)) throw err;
        this.state.lastError = { at: now(), message: `${symbol} adjusted series: ${err.message}` };
        continue;
      }
      if (eod.length === 0) {
        this.noSeries.add(symbol);
        continue;
      }
      try {
        await this.pace();
        payouts = await datasets.fetchPayouts(symbol, ARCHIVER);
        this.opts.onFetch?.('ok');
      } catch (err) {
        this.opts.onFetch?.('failed');
        if (!(err instanceof UpstreamDataError)) throw err;
        // Capital changes are kept without the dividends; a later analysis can add them.
        payouts = null;
      }
      const raw: HistoryRow[] = (await archive.bars([symbol]))
        .map(({ date, open, high, low, close, volume }) => ({ date, open, high, low, close, volume }))
        .reverse();
      await archive.recordAdjustment(symbol, raw, analyseActions(raw, eod, payouts), now());
      this.backoff = this.opts.backoffMs;
      if (++count % this.opts.progressEvery === 0 || count === todo.length)
        logger?.info({ done: count, total: todo.length }, 'archive corporate actions progress');
    }
    this.state.actionsLeft = 0;
    this.updateRate();
    return true;
  }

  /** The daily closing files due (only the last two weeks' when `recentOnly`): daily-files.ts. */
  private dailyFiles(recentOnly: boolean): Promise<boolean> {
    const { archive, datasets, now } = this.opts;
    return fetchDailyFiles(
      {
        archive,
        datasets,
        context: ARCHIVER,
        from: this.opts.filesFrom ?? FIRST_FILE_DATE,
        now,
        pace: async () => {
          if (!recentOnly) this.state.phase = 'backfill';
          this.started ??= { at: performance.now(), done: this.state.symbolsDone, fetches: this.fetches };
          await this.pace();
        },
        keepGoing: async () => (this.running || this.loop === undefined) && (await this.opts.lease.lead()),
        onFetch: this.opts.onFetch,
        onProgress: (done, total) => {
          this.state.filesDone = done;
          this.state.filesTotal = total;
          this.updateRate();
        },
        onUnreadable: (date, message) => {
          this.state.lastError = { at: now(), message: `daily file ${date}: ${message}` };
        },
      },
      recentOnly,
    );
  }

  private async backfillIndices(): Promise<void> {
    const { archive, datasets } = this.opts;
    for (const code of INDEX_CODES) {
      if (!this.running && this.loop !== undefined) return;
      await this.pace();
      const series = await datasets.indexSeries(code, ARCHIVER);
      this.opts.onFetch?.('ok');
      await archive.recordIndexSeries(code, series.value);
    }
    this.indicesDone = true;
  }

  /** After the day's last session closed (and settled), the day from the closing pages, once. */
  private async recordClosedDay(): Promise<void> {
    const { archive, datasets, now, logger } = this.opts;
    const at = now();
    const day = karachiDate(at);
    if (this.checkedCloseOf === day) return;
    const sessions = sessionsOfDay(at);
    const last = sessions.at(-1);
    if (!last || at < last.close + CLOSE_SETTLE_MS) return;
    const recorded = await archive.recordedDays();
    if (recorded.has(day)) {
      this.checkedCloseOf = day;
      this.state.lastRecordedDay = day;
      return;
    }
    await this.pace();
    const board = await datasets.reloadMarketWatch(ARCHIVER);
    await this.pace();
    const levels = await datasets.indexLevels(ARCHIVER);
    // On a holiday the pages still show the last session: it is recorded under its own date.
    const date = levels.value.asOf?.slice(0, 10) ?? day;
    if (!recorded.has(date)) {
      const result = await archive.recordDay(date, board.value, levels.value, at);
      for (const code of INDEX_CODES) {
        await this.pace();
        const series = await datasets.intraday(code, ARCHIVER);
        const ticks = series.value.ticks.filter((t) => karachiDate(t.epoch * 1000) === date);
        if (ticks.length > 0) await archive.recordIntraday(code, date, ticks);
      }
      logger?.info(
        { date, inserted: result.inserted, disagreements: result.disagreements.length },
        'archive day recorded',
      );
    }
    this.checkedCloseOf = day;
    this.state.lastRecordedDay = date;
  }

  /**
   * Once a day, the market-wide payouts page's announcements of the last week (a few pages): the
   * portal forgets them, the archive keeps them. A failure waits for the next day (the rows stay
   * on the portal for months) and never holds up the backfill.
   */
  private async recordPayouts(): Promise<void> {
    const { archive, datasets, now, logger } = this.opts;
    const today = karachiDate(now());
    if (this.payoutsOf === today) return;
    this.payoutsOf = today;
    const feeds = new FeedDatasets(datasets);
    const query = { from: addDays(today, -PAYOUT_DAYS), to: today, symbol: '' };
    try {
      let offset = 0;
      for (let page = 0; page < PAYOUT_PAGES; page++) {
        await this.pace();
        const read = await feeds.payouts({ ...query, offset }, ARCHIVER);
        this.opts.onFetch?.('ok');
        await archive.keepMarketPayouts(read.value.rows);
        const total = read.value.paging?.total ?? read.value.rows.length;
        offset = read.value.paging?.last ?? offset + read.value.rows.length;
        if (read.value.rows.length === 0 || offset >= total) break;
      }
    } catch (err) {
      if (err instanceof ArchiverStopped) throw err;
      this.opts.onFetch?.('failed');
      this.state.lastError = { at: now(), message: `payouts: ${(err as Error).message}` };
      logger?.warn({ err }, 'archiver: payouts not recorded today');
    }
  }

  /**
   * Waits until one more fetch keeps every minute within perMinute, spread evenly. A schedule, not
   * a limit: the portal budget (src/limits/portal-budget.ts) still counts and refuses these fetches
   * like any client's. The limits' fixed-window counters answer "may this one go now?"; pacing asks
   * "when may the next one go?", which needs a sliding minute and an even spacing they do not keep.
   */
  private async pace(): Promise<void> {
    const { perMinute } = this.opts;
    const spacing = MINUTE / perMinute;
    for (;;) {
      const t = performance.now();
      while (this.fetchTimes.length > 0 && this.fetchTimes[0]! <= t - MINUTE) this.fetchTimes.shift();
      const lastAt = this.fetchTimes.at(-1);
      const untilSpaced = lastAt === undefined ? 0 : lastAt + spacing - t;
      const untilWindow = this.fetchTimes.length >= perMinute ? this.fetchTimes[0]! + MINUTE - t : 0;
      const wait = Math.max(untilSpaced, untilWindow);
      if (wait <= 0) break;
      await this.sleep(wait);
      if (!this.running && this.loop !== undefined) throw new ArchiverStopped();
    }
    this.fetchTimes.push(performance.now());
    this.fetches++;
  }

  /**
   * Symbols a minute, and the time left: the fetches still to make (a history each, two for each
   * symbol's corporate actions, one per daily file) at the pace this process has fetched so far.
   */
  private updateRate(): void {
    if (!this.started) return;
    const minutes = (performance.now() - this.started.at) / MINUTE;
    const doneHere = this.state.symbolsDone - this.started.done;
    const fetchedHere = this.fetches - this.started.fetches;
    if (minutes <= 0 || fetchedHere <= 0) return;
    if (doneHere > 0) this.state.ratePerMinute = Math.round((doneHere / minutes) * 100) / 100;
    const fetchesLeft =
      this.state.symbolsTotal -
      this.state.symbolsDone +
      2 * (this.state.actionsLeft ?? 0) +
      (this.state.filesTotal - this.state.filesDone);
    this.state.etaSeconds = Math.round((fetchesLeft / (fetchedHere / minutes)) * 60);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      timer.unref();
      this.wake = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** Stopping interrupts a wait for the budget; the round ends there. */
class ArchiverStopped extends Error {
  override name = 'ArchiverStopped';
}
