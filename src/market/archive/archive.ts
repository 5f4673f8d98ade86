// The market as a dataset: the archive (src/archive) seen from the market layer. Portal rows are
// flagged here (anomalies need the whole series) before they are kept; reads come back in the
// API's row shapes. Whole-market readers (other market services, analytics) use dailyBars() and
// closePanel(); the routes use the answers in archive-answers.ts.
import type { Logger } from 'pino';
import {
  ArchiveUnavailableError,
  type AdjustmentFactor,
  type AdjustmentRecord,
  type ArchivedPayout,
  type ArchiveStore,
  type DailyBar,
  type WriteResult,
} from '../../archive/store.ts';
import type { DailyFileRow, DailyFileStore } from '../../archive/daily-files.ts';
import { NotReadyError } from '../../errors.ts';
import { addDays } from '../../time/karachi.ts';
import type { MarketPayoutRow } from '../../exchange/feed-types.ts';
import type {
  HistoryRow,
  IndexLevelsPage,
  IndexSeriesRow,
  IntradayTick,
  MarketWatchRow,
  PayoutRow,
} from '../../exchange/types.ts';
import { flagAnomalies } from '../anomalies.ts';
import type { ActionsAnalysis } from '../models/actions-analysis.ts';

/** What an archive endpoint answers while the store is unreachable (the OpenAPI examples quote it). */
export const ARCHIVE_UNAVAILABLE =
  'the archive is unavailable right now; endpoints that do not read it keep working, try again shortly';

/** Seconds a client is told to wait when the archive cannot be reached. */
export const ARCHIVE_RETRY_AFTER_S = 10;

export interface MarketArchiveOptions {
  store: ArchiveStore;
  logger?: Logger;
  /** Stored values the portal now prints differently (each is logged too). */
  onDisagreements?: (count: number) => void;
  /** Bars written (backfill and closing records). */
  onRowsWritten?: (count: number) => void;
}

/** The archiver's progress (src/archiver), as GET /archive/status shows it. */
export interface ArchiverStatus {
  phase: 'starting' | 'backfill' | 'idle' | 'backoff' | 'follower' | 'stopped';
  symbolsDone: number;
  symbolsTotal: number;
  /** Symbols backfilled a minute, over this process's backfill so far. */
  ratePerMinute: number | null;
  /** Until the whole backfill is done: the histories left and the corporate actions after them. */
  etaSeconds: number | null;
  /**
   * Backfilled symbols whose corporate actions (adjusted series and payouts: two fetches each) are
   * still to be fetched; null before the archiver has looked.
   */
  actionsLeft: number | null;
  perMinute: number;
  lastError: { at: number; message: string } | null;
  lastRecordedDay: string | null;
  /** Daily closing files: days settled (a file kept, or the portal's no-session page) of the days to ask. */
  filesDone: number;
  filesTotal: number;
  /** Symbols whose page could not be read this round (retried next round). */
  unreadable: string[];
}

/** A close panel: dates oldest first, and per symbol its close on each date (null: no bar). */
export interface ClosePanel {
  dates: string[];
  closes: Map<string, Array<number | null>>;
}

export class MarketArchive {
  /** False after a call failed to reach the store, until one succeeds: readiness reports it. */
  available = true;

  constructor(private readonly opts: MarketArchiveOptions) {}

  get backend(): ArchiveStore['backend'] {
    return this.opts.store.backend;
  }

  /** Every symbol's raw bar on `date` (YYYY-MM-DD), by symbol; [] when the archive has no such day. */
  dailyBars(date: string): Promise<DailyBar[]> {
    return this.use((s) => s.dailyBars(date));
  }

  /** Raw bars of `symbols` within [start, end], by symbol (in the order given) then date. */
  bars(symbols: readonly string[], start?: string, end?: string): Promise<DailyBar[]> {
    return this.use((s) => s.bars(symbols, start, end));
  }

  /** Per symbol (in the order given) its dates, raw closes and volumes within [start, end], oldest first. */
  async closesAndVolumes(
    symbols: readonly string[],
    start?: string,
    end?: string,
  ): Promise<
    Array<{ symbol: string; dates: string[]; closes: Array<number | null>; volumes: Array<number | null> }>
  > {
    const [closes, volumes] = await Promise.all([
      this.use((s) => s.field(symbols, 'close', start, end)),
      this.use((s) => s.field(symbols, 'volume', start, end)),
    ]);
    return closes.map((c, k) => ({
      symbol: c.symbol,
      dates: c.dates,
      closes: c.values,
      volumes: volumes[k]!.values,
    }));
  }

  /** Raw closes of `symbols` on every date any of them has a bar within [start, end]. */
  async closePanel(symbols: readonly string[], start?: string, end?: string): Promise<ClosePanel> {
    const series = await this.use((s) => s.field(symbols, 'close', start, end));
    const dateSet = new Set<string>();
    for (const s of series) for (const d of s.dates) dateSet.add(d);
    const dates = [...dateSet].sort();
    const at = new Map(dates.map((d, i) => [d, i]));
    const closes = new Map<string, Array<number | null>>();
    for (const s of series) {
      const column = new Array<number | null>(dates.length).fill(null);
      for (let i = 0; i < s.dates.length; i++) column[at.get(s.dates[i]!)!] = s.values[i]!;
      closes.set(s.symbol, column);
    }
    return { dates, closes };
  }

  tradingDays(from: string, to: string): Promise<string[]> {
    return this.use((s) => s.tradingDays(from, to));
  }

  neighbours(date: string): Promise<{ previous: string | null; next: string | null }> {
    return this.use((s) => s.neighbours(date));
  }

  backfilled(): Promise<Set<string>> {
    return this.use((s) => s.backfilled());
  }

  recordedDays(): Promise<Set<string>> {
    return this.use((s) => s.recordedDays());
  }

  stats() {
    return this.use((s) => s.stats());
  }

  intraday(code: string, date: string) {
    return this.use((s) => s.intraday(code, date));
  }

  snapshots(date: string) {
    return this.use((s) => s.snapshots(date));
  }

  /** The corporate-action records of `symbols` (every symbol's when absent). */
  adjustments(symbols?: readonly string[]): Promise<Map<string, AdjustmentRecord>> {
    return this.use((s) => s.adjustments(symbols));
  }

  /**
   * A symbol's corporate-actions analysis (over its raw history, newest first): the factors it
   * applies (capital changes the raw prices confirmed, cash dividends) and how far it reached.
   */
  async recordAdjustment(
    symbol: string,
    rawNewestFirst: readonly HistoryRow[],
    analysis: ActionsAnalysis,
    at: number,
  ): Promise<WriteResult | undefined> {
    const newest = rawNewestFirst[0]?.date;
    if (newest === undefined || analysis.seriesStart === null) return undefined;
    const factors: AdjustmentFactor[] = [
      ...analysis.applied.map((a): AdjustmentFactor => ({
        exDate: a.exDate,
        kind: 'capital_change',
        factor: 1 / a.ratio,
        ratio: a.ratio,
        amount: null,
      })),
      ...analysis.dividendFactors.map((d): AdjustmentFactor => ({
        exDate: d.exDate,
        kind: 'cash_dividend',
        factor: d.factor,
        ratio: null,
        amount: dividendAmount(analysis, d.exDate),
      })),
    ];
    const record: AdjustmentRecord = {
      symbol,
      checkedAt: at,
      checkedThrough: newest,
      seriesStart: analysis.seriesStart,
      dividendsFrom: analysis.payoutsSince,
      dividendsKnown: analysis.payoutsRead,
      factors,
    };
    const result = await this.use((s) => s.writeAdjustments(record));
    // Disagreements are reported like a bar's; factors are not bars (rows_written counts bars).
    this.report({ ...result, inserted: 0 });
    return result;
  }

  /** A day's closing file: every row and the day's mark in one transaction (daily-files.ts). */
  async recordDailyFile(date: string, rows: readonly DailyFileRow[], at: number): Promise<WriteResult> {
    return this.report(await this.use((s) => s.files.writeFile(date, rows, at)));
  }

  /** The exchange's daily closing files as kept: the days asked, rows, disagreements, stats. */
  dailyFiles<T>(read: (files: DailyFileStore) => Promise<T>): Promise<T> {
    return this.use((s) => read(s.files));
  }

  /** Whether the store answers now (readiness). */
  async check(): Promise<boolean> {
    try {
      await this.use((s) => s.ping());
      return true;
    } catch {
      return false;
    }
  }

  /** A symbol's whole history (newest first, as the portal sends it), flagged, and its done mark. */
  async recordHistory(
    symbol: string,
    newestFirst: readonly HistoryRow[],
    doneAt: number,
  ): Promise<WriteResult> {
    const bars = flagAnomalies([...newestFirst].reverse()).map((r): DailyBar => ({
      symbol,
      date: r.date,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      anomaly_reasons: r.anomaly_reasons,
    }));
    return this.report(await this.use((s) => s.writeHistory(symbol, bars, doneAt)));
  }

  /** An index's daily series (oldest first). */
  async recordIndexSeries(code: string, rows: readonly IndexSeriesRow[]): Promise<WriteResult> {
    const levels = rows.map((r) => ({
      index: code,
      date: r.date,
      open: r.open,
      high: null,
      low: null,
      close: r.close,
      volume: r.volume,
    }));
    return this.report(await this.use((s) => s.writeIndexLevels(levels)));
  }

  /**
   * A closed session from the closing market watch and index levels: one bar per traded symbol
   * (flagged against its LDCP) and one level per index, in one transaction.
   */
  async recordDay(
    date: string,
    board: readonly MarketWatchRow[],
    levels: IndexLevelsPage,
    recordedAt: number,
  ): Promise<WriteResult> {
    const bars: DailyBar[] = [];
    for (const row of board) {
      if (row.current === null) continue;
      const today: HistoryRow = {
        date,
        open: row.open,
        high: row.high,
        low: row.low,
        close: row.current,
        volume: row.volume,
      };
      // The previous close is the LDCP; its date only needs to be the day before for the limit.
      const previous: HistoryRow[] =
        row.ldcp === null
          ? []
          : [
              {
                date: dayBefore(date),
                open: row.ldcp,
                high: row.ldcp,
                low: row.ldcp,
                close: row.ldcp,
                volume: 1,
              },
            ];
      const flagged = flagAnomalies([...previous, today]).at(-1)!;
      bars.push({ symbol: row.symbol, ...today, anomaly_reasons: flagged.anomaly_reasons });
    }
    const indices = levels.rows
      .filter((r) => r.staleSince === null && r.current !== null)
      .map((r) => ({
        index: r.index,
        date,
        open: null,
        high: r.high,
        low: r.low,
        close: r.current,
        volume: null,
      }));
    return this.report(await this.use((s) => s.writeDay(date, bars, indices, recordedAt)));
  }

  /** An index's or symbol's ticks of a closed day. */
  async recordIntraday(code: string, date: string, ticks: readonly IntradayTick[]): Promise<WriteResult> {
    const points = ticks.map((t): [number, number, number] => [t.epoch, t.price, t.volume]);
    return this.report(await this.use((s) => s.writeIntraday(code, date, points)));
  }

  /** One market-watch look during a session (the stream poller's cadence). */
  async recordSnapshot(date: string, at: number, board: readonly MarketWatchRow[]): Promise<void> {
    const rows = board.map(
      (r) =>
        [r.symbol, r.current, r.change, r.volume, r.high, r.low, r.open] as [
          string,
          number | null,
          number | null,
          number | null,
          number | null,
          number | null,
          number | null,
        ],
    );
    await this.use((s) => s.writeSnapshot(date, at, rows));
  }

  /**
   * The market-wide payouts page's rows, kept for good (the portal forgets them). Once per page
   * read from the portal: a cached page is the same object and is not written again. A store
   * failure is logged, never the reader's failure.
   */
  keepMarketPayouts(rows: readonly MarketPayoutRow[]): Promise<void> {
    return this.keepOnce('market', rows, (r) => ({
      symbol: r.symbol,
      announced: r.announced,
      details: r.details,
      row: r,
    }));
  }

  /** The company payouts page's rows of `symbol`, kept as keepMarketPayouts keeps the market's. */
  keepCompanyPayouts(symbol: string, rows: readonly PayoutRow[]): Promise<void> {
    return this.keepOnce('company', rows, (r) => ({
      symbol,
      announced: r.announced,
      details: r.details,
      row: r,
    }));
  }

  /** Kept market-wide payout rows announced within [from, to], newest first. */
  async marketPayouts(from: string, to: string, symbol?: string): Promise<MarketPayoutRow[]> {
    const kept = await this.use((s) => s.keptPayouts('market', from, to, symbol));
    return kept.map((k) => k.row as MarketPayoutRow);
  }

  /** Every kept company payouts row of `symbol`, newest first. */
  async companyPayouts(symbol: string): Promise<PayoutRow[]> {
    const kept = await this.use((s) => s.payouts(symbol));
    return kept.map((k) => k.row as PayoutRow);
  }

  close(): Promise<void> {
    return this.opts.store.close();
  }

  private readonly keptPages = new WeakSet<object>();

  private async keepOnce<R>(
    source: 'market' | 'company',
    rows: readonly R[],
    toKept: (row: R) => ArchivedPayout,
  ): Promise<void> {
    if (this.keptPages.has(rows) || rows.length === 0) return;
    this.keptPages.add(rows);
    const write = this.use((s) => s.keepPayouts(source, rows.map(toKept)))
      .then((result) => {
        // Counted as disagreements like bars; the rows-written count is of bars only.
        this.report({ ...result, inserted: 0 });
      })
      .catch((err: unknown) => {
        // Tried again with the next page read from the portal.
        this.keptPages.delete(rows);
        this.opts.logger?.warn({ err }, 'payout rows not archived');
      });
    // While the store is away a reader does not wait for it.
    if (this.available) await write;
  }

  private report(result: WriteResult): WriteResult {
    if (result.inserted > 0) this.opts.onRowsWritten?.(result.inserted);
    if (result.disagreements.length > 0) {
      this.opts.onDisagreements?.(result.disagreements.length);
      this.opts.logger?.warn(
        { disagreements: result.disagreements.slice(0, 20), count: result.disagreements.length },
        'the portal now prints archived values differently; the archived values are kept',
      );
    }
    return result;
  }

  /** A store call; unreachable → 503 not_ready with Retry-After for a client. */
  private async use<T>(call: (store: ArchiveStore) => Promise<T>): Promise<T> {
    try {
      const out = await call(this.opts.store);
      this.available = true;
      return out;
    } catch (err) {
      if (!(err instanceof ArchiveUnavailableError)) throw err;
      if (this.available) this.opts.logger?.error({ err }, 'archive unavailable');
      this.available = false;
      const e = new NotReadyError(ARCHIVE_UNAVAILABLE);
      e.retryAfter = ARCHIVE_RETRY_AFTER_S;
      throw e;
    }
  }
}

export type PanelField = 'open' | 'high' | 'low' | 'close' | 'volume';

/** Long bars → one column per symbol on the union of their dates. */
export function widePanel(
  bars: readonly Pick<DailyBar, 'symbol' | 'date' | PanelField>[],
  symbols: readonly string[],
  field: PanelField,
): ClosePanel {
  const dateSet = new Set<string>();
  for (const b of bars) dateSet.add(b.date);
  const dates = [...dateSet].sort();
  const at = new Map(dates.map((d, i) => [d, i]));
  const closes = new Map<string, Array<number | null>>();
  for (const s of symbols) closes.set(s, new Array<number | null>(dates.length).fill(null));
  for (const b of bars) closes.get(b.symbol)![at.get(b.date)!] = b[field];
  return { dates, closes };
}

/** The applied cash dividends of an ex-date, PKR a share. */
function dividendAmount(analysis: ActionsAnalysis, exDate: string): number | null {
  let total = 0;
  for (const a of analysis.actions)
    if (a.kind === 'cash_dividend' && a.applied && a.ex_date === exDate) total += a.amount ?? 0;
  return total > 0 ? Math.round(total * 1e4) / 1e4 : null;
}

function dayBefore(date: string): string {
  return addDays(date, -1);
}
