// The archive: what the service keeps of the market for good: every symbol's daily bars (raw, as
// traded, with their anomaly flags), index levels, the intraday series it saw (an index's ticks,
// the market watch's snapshots) and payout rows. Unlike the cache, nothing here expires and a row
// once written is never changed: history does not change, so a later disagreement with the portal
// is reported (and counted by the caller), never written over.
//
// Two backends behind this one interface: SQLite in CACHE_DIR (embedded, the default) and
// PostgreSQL when DATABASE_URL is set (shared by replicas). Both pass the same test suite.
import { formatDay, parseIsoDay } from '../time/karachi.ts';
import type { DailyFileKind, DailyFileRow } from '../exchange/types.ts';

/** A daily bar as the portal printed it, with the flags the market layer gave it. */
export interface DailyBar {
  symbol: string;
  /** Karachi calendar date, YYYY-MM-DD. */
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  /** Anomaly reason codes (src/market/anomalies.ts); empty when the row is clean. */
  anomaly_reasons: string[];
}

export type BarField = 'open' | 'high' | 'low' | 'close' | 'volume';

/** One day of an index: from its daily series (open, close, volume) or the closing levels page. */
export interface IndexLevel {
  index: string;
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

/** A trade or index value of an intraday series: epoch seconds, price, volume. */
export type IntradayPoint = [epoch: number, price: number, volume: number];

/** One look at the market watch: per symbol [symbol, price, change, volume, high, low, open]. */
export type SnapshotRow = [
  symbol: string,
  price: number | null,
  change: number | null,
  volume: number | null,
  high: number | null,
  low: number | null,
  open: number | null,
];

/** A payouts-page row kept after it leaves the portal's ~17-month window. */
export interface ArchivedPayout {
  symbol: string;
  /** ISO 8601 announcement time, or null when unreadable. */
  announced: string | null;
  details: string;
  /** The whole parsed row (src/exchange/types.ts PayoutRow), as JSON. */
  row: unknown;
}

/** One price factor of a symbol's adjustment: a capital change confirmed by the raw prices, or a cash dividend. */
export interface AdjustmentFactor {
  /** The ex-date, YYYY-MM-DD: rows before it are multiplied by `factor`. */
  exDate: string;
  kind: 'capital_change' | 'cash_dividend';
  /** Price factor: 1 ÷ ratio for a capital change, 1 − dividend ÷ the close before for a dividend. */
  factor: number;
  /** Capital change: shares after ÷ shares before (or a right issue's price factor); else null. */
  ratio: number | null;
  /** Cash dividend: PKR a share; else null. */
  amount: number | null;
}

/**
 * What the evidence (src/market/corporate-actions/corporate-actions.ts) said about a symbol's corporate actions.
 * Factors are kept as first written, like bars: the portal's adjusted series reaches back about
 * five years and its payouts page 17 months, so the archive remembers actions they forget.
 */
export interface AdjustmentRecord {
  symbol: string;
  /** When the actions were last analysed (epoch ms). */
  checkedAt: number;
  /** The newest raw day the analyses saw: later rows may carry an action not known yet. */
  checkedThrough: string;
  /** The oldest day of the adjusted series seen: older capital changes are unknown. */
  seriesStart: string | null;
  /** The oldest payouts-page announcement seen: older dividends are unknown. */
  dividendsFrom: string | null;
  /** Whether an analysis had the payouts page (dividends are known from dividendsFrom). */
  dividendsKnown: boolean;
  /** Oldest first. */
  factors: AdjustmentFactor[];
}

/** Which payouts page a kept row is from: the company's (`POST /company/payouts`) or the market's (`POST /payouts`). */
export type PayoutSource = 'company' | 'market';

/**
 * [from, to] as bounds on announcement times held as ISO text: at or after `from`, before the day
 * after `to` (fixed-width ISO text sorts by time, whatever the database's collation).
 */
export function announcedBounds(from: string, to: string): [string, string] {
  return [from, dayText(dayNumber(to) + 1)];
}

/** A kept payout row read again: the same JSON is unchanged, any other is a disagreement. */
export function comparePayout(p: ArchivedPayout, storedJson: string, seenJson: string): Disagreement[] {
  if (storedJson === seenJson) return [];
  return [
    {
      key: p.symbol,
      date: p.announced ?? '',
      field: `payout ${p.details}`,
      stored: storedJson,
      seen: seenJson,
    },
  ];
}

/** A stored value that the portal now prints differently: reported, never written over. */
export interface Disagreement {
  key: string;
  date: string;
  field: string;
  stored: number | string | null;
  seen: number | string | null;
}

export interface WriteResult {
  inserted: number;
  /** Rows already held with the same values. */
  unchanged: number;
  disagreements: Disagreement[];
}

export interface ArchiveStats {
  /** Symbols whose whole history has been backfilled. */
  symbolsBackfilled: number;
  /** Daily bars held. */
  rows: number;
  /** Distinct dates with at least one bar. */
  days: number;
  firstDate: string | null;
  lastDate: string | null;
}

export interface ArchiveStore {
  readonly backend: 'sqlite' | 'postgres';
  /** The exchange's daily closing files (daily-files.ts). */
  readonly files: DailyFileStore;
  /**
   * A symbol's backfilled history and its "done" mark, in one transaction: after a crash either
   * both are there or neither, so a restart refetches exactly the symbols not marked done.
   */
  writeHistory(symbol: string, bars: readonly DailyBar[], doneAt: number): Promise<WriteResult>;
  /** A whole trading day, every symbol's bar and the index levels, in one transaction. */
  writeDay(
    date: string,
    bars: readonly DailyBar[],
    indices: readonly IndexLevel[],
    recordedAt: number,
  ): Promise<WriteResult>;
  /** Index levels (a backfilled daily series), one transaction. */
  writeIndexLevels(levels: readonly IndexLevel[]): Promise<WriteResult>;
  /** Every symbol's bar on `date`, by symbol. */
  dailyBars(date: string): Promise<DailyBar[]>;
  /** The bars of `symbols` within [start, end] (inclusive, optional), by symbol then date. */
  bars(symbols: readonly string[], start?: string, end?: string): Promise<DailyBar[]>;
  /**
   * One field of `symbols` within [start, end]: per symbol (in the order given) its dates and
   * values, oldest first. The panel's path: no row objects.
   */
  field(
    symbols: readonly string[],
    field: BarField,
    start?: string,
    end?: string,
  ): Promise<Array<{ symbol: string; dates: string[]; values: Array<number | null> }>>;
  /** Index levels within [start, end], by index then date. */
  indexLevels(indices: readonly string[], start?: string, end?: string): Promise<IndexLevel[]>;
  /** Dates with at least one bar within [from, to], oldest first. */
  tradingDays(from: string, to: string): Promise<string[]>;
  /** The nearest dates with bars before and after `date`. */
  neighbours(date: string): Promise<{ previous: string | null; next: string | null }>;
  /** Symbols whose history is backfilled. */
  backfilled(): Promise<Set<string>>;
  /** Dates recorded whole by a closing record (writeDay). */
  recordedDays(): Promise<Set<string>>;
  stats(): Promise<ArchiveStats>;
  /** A day's intraday series of a symbol or index; kept as first written. */
  writeIntraday(code: string, date: string, points: readonly IntradayPoint[]): Promise<WriteResult>;
  intraday(code: string, date: string): Promise<IntradayPoint[] | undefined>;
  /** One market-watch look at `at` (epoch ms) on Karachi `date`. */
  writeSnapshot(date: string, at: number, rows: readonly SnapshotRow[]): Promise<void>;
  /** The day's snapshots, oldest first. */
  snapshots(date: string): Promise<Array<{ at: number; rows: SnapshotRow[] }>>;
  /** Payout rows not held yet are added (keyed by symbol, announcement and details). */
  writePayouts(rows: readonly ArchivedPayout[]): Promise<number>;
  payouts(symbol: string): Promise<ArchivedPayout[]>;
  /**
   * A symbol's corporate-actions analysis: factors not held are added (a held one that now reads
   * differently is a disagreement, kept as stored), the coverage widened; one transaction.
   */
  writeAdjustments(record: AdjustmentRecord): Promise<WriteResult>;
  /** The adjustment records of `symbols` (every symbol's when absent); symbols never analysed are absent. */
  adjustments(symbols?: readonly string[]): Promise<Map<string, AdjustmentRecord>>;
  /**
   * Payout rows as the service read them, kept for good: `company` rows (the company payouts
   * page) and `market` rows (the market-wide payouts page) in tables of their own. A row held
   * already is compared, never rewritten: a different reading is a disagreement.
   */
  keepPayouts(source: PayoutSource, rows: readonly ArchivedPayout[]): Promise<WriteResult>;
  /** Kept rows of `source` announced within [from, to] (YYYY-MM-DD), newest first; one symbol when given. */
  keptPayouts(source: PayoutSource, from: string, to: string, symbol?: string): Promise<ArchivedPayout[]>;
  /** Throws ArchiveUnavailableError when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The store cannot be reached or written (PostgreSQL down, disk full). */
export class ArchiveUnavailableError extends Error {
  override name = 'ArchiveUnavailableError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

const PRICE_FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;

/** The fields where `seen` differs from what is `stored` (floats compared to their 12 digits). */
export function compareBar(
  key: string,
  date: string,
  stored: Pick<DailyBar, (typeof PRICE_FIELDS)[number]>,
  seen: Pick<DailyBar, (typeof PRICE_FIELDS)[number]>,
): Disagreement[] {
  const out: Disagreement[] = [];
  for (const field of PRICE_FIELDS) {
    if (!sameNumber(stored[field], seen[field]))
      out.push({ key, date, field, stored: stored[field], seen: seen[field] });
  }
  return out;
}

function sameNumber(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** YYYY-MM-DD ↔ days since 1970-01-01: stored as small integers (a third of the text's bytes). */
export function dayNumber(date: string): number {
  return parseIsoDay(date);
}

// A panel reads hundreds of thousands of rows over a few thousand distinct days: each day's text is
// made once (formatting a day costs more than the rest of a row).
const DAY_TEXT = new Map<number, string>();

export function dayText(day: number): string {
  let text = DAY_TEXT.get(day);
  if (text === undefined) {
    text = formatDay(day);
    if (DAY_TEXT.size < 100_000) DAY_TEXT.set(day, text);
  }
  return text;
}

/** Anomaly reasons as stored: comma-separated, '' for a clean row. */
export function reasonsText(reasons: readonly string[]): string {
  return reasons.join(',');
}

const CLEAN: readonly string[] = Object.freeze([]);

/** A clean row's reasons are one shared frozen empty list (most rows are clean). */
export function reasonsList(text: string): string[] {
  return text === '' ? (CLEAN as string[]) : text.split(',');
}

// The exchange's daily closing files as kept (daily-files.ts has the schemas and helpers).

/** A day the archiver asked the portal for. */
export interface FileDayState {
  date: string;
  /** A file was stored; false: the portal answered its 404 page (no session that day). */
  found: boolean;
  /** When it was last asked (epoch ms). */
  checkedAt: number;
  rows: number;
}

/** A bar the closing file and the symbol's portal history print differently: both are kept. */
export interface FileDisagreement {
  symbol: string;
  date: string;
  field: 'open' | 'high' | 'low' | 'close' | 'volume';
  /** The closing file's value. */
  file: number | null;
  /** The portal history's (the bar `/market/daily` and `/historical` serve). */
  history: number | null;
}

export interface DailyFileStats {
  /** Days with a stored file. */
  files: number;
  /** Days the portal answered without a file (weekends are never asked). */
  noSession: number;
  firstDate: string | null;
  lastDate: string | null;
  rows: number;
}

/** A day a closing file marks a symbol's name: `XD` ex-dividend, `XB` ex-bonus, `XR` ex-right. */
export interface FileMarker {
  date: string;
  marker: 'XD' | 'XB' | 'XR';
}

export interface DailyFileStore {
  /**
   * A day's file, every row and the day's mark in one transaction, so a kill -9 leaves the day
   * whole or absent. The file's equity rows are compared with the bars held for that day; each
   * differing field is kept as a disagreement. A day stored already is left as it is.
   */
  writeFile(date: string, rows: readonly DailyFileRow[], fetchedAt: number): Promise<WriteResult>;
  /** The portal's 404 for `date`: no session (asked again only while recent). */
  markNoSession(date: string, checkedAt: number): Promise<void>;
  /** Every day asked for, oldest first. */
  fileDays(): Promise<FileDayState[]>;
  /** A day's rows of `kinds` (every kind when absent), by symbol. */
  fileRows(date: string, kinds?: readonly DailyFileKind[]): Promise<DailyFileRow[]>;
  /** A symbol's rows within [start, end], oldest first. */
  symbolRows(symbol: string, start?: string, end?: string): Promise<DailyFileRow[]>;
  /** The days whose file marks `symbol`'s name XD, XB or XR, oldest first (corporate-action evidence). */
  symbolMarkers(symbol: string): Promise<FileMarker[]>;
  /** Which of `symbols` appear in any file. */
  symbolsInFiles(symbols: readonly string[]): Promise<Set<string>>;
  /** Days with a file within [from, to], oldest first. */
  fileDates(from: string, to: string): Promise<string[]>;
  /** The disagreements, newest day first (at most `limit`), and how many there are. */
  disagreements(limit: number): Promise<{ total: number; rows: FileDisagreement[] }>;
  stats(): Promise<DailyFileStats>;
}
