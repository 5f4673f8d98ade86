// The archive in SQLite (node:sqlite), a file of its own beside the cache's store in CACHE_DIR:
// the cache may be thrown away, the archive may not. WAL with synchronous=NORMAL: a killed process
// loses nothing committed. Dates are day numbers and rows are WITHOUT ROWID tables keyed the way
// they are read (a day's bars by date, a panel by symbol), so the store stays small.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  adjustmentRecords,
  compareFactors,
  factorRows,
  mergedCoverage,
  SQLITE_ADJUSTMENT_SCHEMA,
} from './adjustments.ts';
import { SQLITE_FILE_SCHEMA, type DailyFileStore } from './daily-files.ts';
import {
  barRowOf,
  coverageRowOf,
  dayValueOf,
  factorRowOf,
  heldBarOf,
  levelRowOf,
  type BarRow,
  type DbRow,
  type HeldBar,
} from './rows.ts';
import { SqliteDailyFiles } from './sqlite-files.ts';
import {
  announcedBounds,
  ArchiveUnavailableError,
  compareBar,
  comparePayout,
  dayNumber,
  dayText,
  reasonsList,
  reasonsText,
  type AdjustmentRecord,
  type ArchivedPayout,
  type ArchiveStats,
  type ArchiveStore,
  type BarField,
  type PayoutSource,
  type DailyBar,
  type IndexLevel,
  type IntradayPoint,
  type SnapshotRow,
  type WriteResult,
} from './store.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bars (
  symbol TEXT NOT NULL, day INTEGER NOT NULL,
  open REAL, high REAL, low REAL, close REAL, volume REAL, reasons TEXT NOT NULL,
  PRIMARY KEY (symbol, day)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS bars_by_day ON bars (day, symbol);
CREATE TABLE IF NOT EXISTS index_levels (
  code TEXT NOT NULL, day INTEGER NOT NULL,
  open REAL, high REAL, low REAL, close REAL, volume REAL,
  PRIMARY KEY (code, day)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS backfill (symbol TEXT PRIMARY KEY, done_at INTEGER NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS recorded_days (day INTEGER PRIMARY KEY, recorded_at INTEGER NOT NULL, symbols INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS intraday (
  code TEXT NOT NULL, day INTEGER NOT NULL, points TEXT NOT NULL, PRIMARY KEY (code, day)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (day INTEGER NOT NULL, at INTEGER NOT NULL, rows TEXT NOT NULL, PRIMARY KEY (day, at)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS payouts (
  symbol TEXT NOT NULL, announced TEXT NOT NULL, details TEXT NOT NULL, row TEXT NOT NULL,
  PRIMARY KEY (symbol, announced, details)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS payouts_by_announced ON payouts (announced);
CREATE TABLE IF NOT EXISTS market_payouts (
  symbol TEXT NOT NULL, announced TEXT NOT NULL, details TEXT NOT NULL, row TEXT NOT NULL,
  PRIMARY KEY (symbol, announced, details)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS market_payouts_by_announced ON market_payouts (announced);
`;

/** The table of each payouts page's kept rows. */
const PAYOUT_TABLES = { company: 'payouts', market: 'market_payouts' } as const;

export class SqliteArchive implements ArchiveStore {
  readonly backend = 'sqlite' as const;
  private readonly db: DatabaseSync;
  private readonly s: Record<string, StatementSync>;
  private closed = false;
  private readonly fieldStatements: Record<BarField, StatementSync>;
  readonly files: DailyFileStore;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.db = new DatabaseSync(join(dir, 'archive.sqlite'));
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    // A closing file's rows touch every leaf of the by-symbol index, so each commit rewrites most
    // of it into the WAL; checkpointing every 4,000 pages (16 MB, default 1,000) writes those pages
    // back once per several files instead of once per file (bench/README.md, archive-files).
    this.db.exec('PRAGMA wal_autocheckpoint = 4000');
    this.db.exec('PRAGMA busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.db.exec(SQLITE_ADJUSTMENT_SCHEMA);
    this.db.exec(SQLITE_FILE_SCHEMA);
    this.files = new SqliteDailyFiles(
      this.db,
      (work) => this.transaction(work),
      (work) => this.read(work),
    );
    const p = (sql: string) => this.db.prepare(sql);
    const fieldStatement = (f: BarField) => {
      // The column name is one of five fixed words, never input.
      const st = this.db.prepare(
        `SELECT day, ${f} FROM bars WHERE symbol = ? AND day BETWEEN ? AND ? ORDER BY day`,
      );
      st.setReturnArrays(true);
      return st;
    };
    this.fieldStatements = {
      open: fieldStatement('open'),
      high: fieldStatement('high'),
      low: fieldStatement('low'),
      close: fieldStatement('close'),
      volume: fieldStatement('volume'),
    };
    this.s = {
      getBar: p('SELECT day, open, high, low, close, volume FROM bars WHERE symbol = ? AND day = ?'),
      putBar: p(
        'INSERT INTO bars (symbol, day, open, high, low, close, volume, reasons) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      symbolBars: p('SELECT day, open, high, low, close, volume FROM bars WHERE symbol = ?'),
      dayBars: p(
        'SELECT symbol, day, open, high, low, close, volume, reasons FROM bars WHERE day = ? ORDER BY symbol',
      ),
      rangeBars: p(
        'SELECT symbol, day, open, high, low, close, volume, reasons FROM bars WHERE symbol = ? AND day BETWEEN ? AND ? ORDER BY day',
      ),
      getLevel: p('SELECT open, high, low, close, volume FROM index_levels WHERE code = ? AND day = ?'),
      putLevel: p(
        'INSERT INTO index_levels (code, day, open, high, low, close, volume) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      rangeLevels: p(
        'SELECT code, day, open, high, low, close, volume FROM index_levels WHERE code = ? AND day BETWEEN ? AND ? ORDER BY day',
      ),
      days: p('SELECT DISTINCT day FROM bars WHERE day BETWEEN ? AND ? ORDER BY day'),
      previous: p('SELECT max(day) AS day FROM bars WHERE day < ?'),
      next: p('SELECT min(day) AS day FROM bars WHERE day > ?'),
      markDone: p(
        'INSERT INTO backfill (symbol, done_at, rows) VALUES (?, ?, ?) ON CONFLICT(symbol) DO NOTHING',
      ),
      backfilled: p('SELECT symbol FROM backfill'),
      markDay: p(
        'INSERT INTO recorded_days (day, recorded_at, symbols) VALUES (?, ?, ?) ON CONFLICT(day) DO NOTHING',
      ),
      recordedDays: p('SELECT day FROM recorded_days'),
      getIntraday: p('SELECT points FROM intraday WHERE code = ? AND day = ?'),
      putIntraday: p('INSERT INTO intraday (code, day, points) VALUES (?, ?, ?)'),
      putSnapshot: p('INSERT INTO snapshots (day, at, rows) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
      snapshots: p('SELECT at, rows FROM snapshots WHERE day = ? ORDER BY at'),
      putPayout: p(
        'INSERT INTO payouts (symbol, announced, details, row) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      payouts: p(
        'SELECT symbol, announced, details, row FROM payouts WHERE symbol = ? ORDER BY announced DESC',
      ),
    };
  }

  writeHistory(symbol: string, bars: readonly DailyBar[], doneAt: number): Promise<WriteResult> {
    return this.transaction(() => {
      const result = this.putBars(bars, this.heldBars(symbol));
      this.s.markDone!.run(symbol, doneAt, bars.length);
      return result;
    });
  }

  writeDay(
    date: string,
    bars: readonly DailyBar[],
    indices: readonly IndexLevel[],
    recordedAt: number,
  ): Promise<WriteResult> {
    return this.transaction(() => {
      const day = dayNumber(date);
      const result = this.putBars(bars);
      const levels = this.putLevels(indices);
      this.s.markDay!.run(day, recordedAt, bars.length);
      return merge(result, levels);
    });
  }

  writeIndexLevels(levels: readonly IndexLevel[]): Promise<WriteResult> {
    return this.transaction(() => this.putLevels(levels));
  }

  dailyBars(date: string): Promise<DailyBar[]> {
    return this.read(() => this.s.dayBars!.all(dayNumber(date)).map(barOf));
  }

  bars(symbols: readonly string[], start?: string, end?: string): Promise<DailyBar[]> {
    const [from, to] = bounds(start, end);
    return this.read(() => symbols.flatMap((symbol) => this.s.rangeBars!.all(symbol, from, to).map(barOf)));
  }

  field(symbols: readonly string[], field: BarField, start?: string, end?: string) {
    const [from, to] = bounds(start, end);
    const statement = this.fieldStatements[field];
    return this.read(() =>
      symbols.map((symbol) => {
        // Rows come as arrays (setReturnArrays); node:sqlite's typing still says records.
        const rows = statement.all(symbol, from, to) as unknown as ReadonlyArray<readonly unknown[]>;
        const dates = new Array<string>(rows.length);
        const values = new Array<number | null>(rows.length);
        for (let i = 0; i < rows.length; i++) {
          const [day, value] = dayValueOf(rows[i]!, field);
          dates[i] = dayText(day);
          values[i] = value;
        }
        return { symbol, dates, values };
      }),
    );
  }

  indexLevels(indices: readonly string[], start?: string, end?: string): Promise<IndexLevel[]> {
    const [from, to] = bounds(start, end);
    return this.read(() =>
      indices.flatMap((code) =>
        this.s.rangeLevels!.all(code, from, to).map((row) => {
          const r = levelRowOf(row);
          return {
            index: r.code,
            date: dayText(r.day),
            open: r.open,
            high: r.high,
            low: r.low,
            close: r.close,
            volume: r.volume,
          };
        }),
      ),
    );
  }

  tradingDays(from: string, to: string): Promise<string[]> {
    return this.read(() =>
      (this.s.days!.all(dayNumber(from), dayNumber(to)) as Array<{ day: number }>).map((r) => dayText(r.day)),
    );
  }

  neighbours(date: string): Promise<{ previous: string | null; next: string | null }> {
    return this.read(() => {
      const day = dayNumber(date);
      const prev = (this.s.previous!.get(day) as { day: number | null }).day;
      const next = (this.s.next!.get(day) as { day: number | null }).day;
      return { previous: prev === null ? null : dayText(prev), next: next === null ? null : dayText(next) };
    });
  }

  backfilled(): Promise<Set<string>> {
    return this.read(
      () => new Set((this.s.backfilled!.all() as Array<{ symbol: string }>).map((r) => r.symbol)),
    );
  }

  recordedDays(): Promise<Set<string>> {
    return this.read(
      () => new Set((this.s.recordedDays!.all() as Array<{ day: number }>).map((r) => dayText(r.day))),
    );
  }

  stats(): Promise<ArchiveStats> {
    return this.read(() => {
      const one = (sql: string) => Object.values(this.db.prepare(sql).get() ?? {})[0] as number | null;
      // Counting rows by the day index: the smaller of the two B-trees.
      const rows = one('SELECT count(*) FROM bars INDEXED BY bars_by_day') ?? 0;
      const first = one('SELECT min(day) FROM bars');
      const last = one('SELECT max(day) FROM bars');
      const days = one('SELECT count(DISTINCT day) FROM bars INDEXED BY bars_by_day') ?? 0;
      return {
        symbolsBackfilled: one('SELECT count(*) FROM backfill') ?? 0,
        rows,
        days,
        firstDate: first === null ? null : dayText(first),
        lastDate: last === null ? null : dayText(last),
      };
    });
  }

  writeIntraday(code: string, date: string, points: readonly IntradayPoint[]): Promise<WriteResult> {
    return this.transaction(() => {
      const day = dayNumber(date);
      const held = this.s.getIntraday!.get(code, day) as { points: string } | undefined;
      const text = JSON.stringify(points);
      if (!held) {
        this.s.putIntraday!.run(code, day, text);
        return { inserted: 1, unchanged: 0, disagreements: [] };
      }
      if (held.points === text) return { inserted: 0, unchanged: 1, disagreements: [] };
      return {
        inserted: 0,
        unchanged: 0,
        disagreements: [
          { key: code, date, field: 'intraday', stored: held.points.length, seen: text.length },
        ],
      };
    });
  }

  intraday(code: string, date: string): Promise<IntradayPoint[] | undefined> {
    return this.read(() => {
      const held = this.s.getIntraday!.get(code, dayNumber(date)) as { points: string } | undefined;
      return held ? (JSON.parse(held.points) as IntradayPoint[]) : undefined;
    });
  }

  writeSnapshot(date: string, at: number, rows: readonly SnapshotRow[]): Promise<void> {
    return this.transaction(() => {
      this.s.putSnapshot!.run(dayNumber(date), at, JSON.stringify(rows));
    });
  }

  snapshots(date: string): Promise<Array<{ at: number; rows: SnapshotRow[] }>> {
    return this.read(() =>
      (this.s.snapshots!.all(dayNumber(date)) as Array<{ at: number; rows: string }>).map((r) => ({
        at: r.at,
        rows: JSON.parse(r.rows) as SnapshotRow[],
      })),
    );
  }

  writePayouts(rows: readonly ArchivedPayout[]): Promise<number> {
    return this.transaction(() => {
      let added = 0;
      for (const r of rows) {
        const info = this.s.putPayout!.run(r.symbol, r.announced ?? '', r.details, JSON.stringify(r.row));
        added += Number(info.changes);
      }
      return added;
    });
  }

  payouts(symbol: string): Promise<ArchivedPayout[]> {
    return this.read(() =>
      (
        this.s.payouts!.all(symbol) as Array<{
          symbol: string;
          announced: string;
          details: string;
          row: string;
        }>
      ).map((r) => ({
        symbol: r.symbol,
        announced: r.announced === '' ? null : r.announced,
        details: r.details,
        row: JSON.parse(r.row) as unknown,
      })),
    );
  }

  writeAdjustments(record: AdjustmentRecord): Promise<WriteResult> {
    return this.transaction(() => {
      const held = this.db
        .prepare(
          'SELECT symbol, day, kind, seq, factor, ratio, amount FROM adjustment_factors WHERE symbol = ?',
        )
        .all(record.symbol)
        .map(factorRowOf);
      const { fresh, result } = compareFactors(held, factorRows(record));
      const put = this.db.prepare(
        'INSERT INTO adjustment_factors (symbol, day, kind, seq, factor, ratio, amount) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const f of fresh) put.run(f.symbol, f.day, f.kind, f.seq, f.factor, f.ratio, f.amount);
      const heldCoverage = this.db
        .prepare('SELECT * FROM adjustment_coverage WHERE symbol = ?')
        .get(record.symbol);
      const coverage = heldCoverage === undefined ? undefined : coverageRowOf(heldCoverage);
      const c = mergedCoverage(coverage, record);
      this.db
        .prepare(
          `INSERT INTO adjustment_coverage (symbol, checked_at, checked_through, series_start, dividends_from, dividends_known)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(symbol) DO UPDATE SET checked_at = excluded.checked_at,
           checked_through = excluded.checked_through, series_start = excluded.series_start,
           dividends_from = excluded.dividends_from, dividends_known = excluded.dividends_known`,
        )
        .run(
          c.symbol,
          c.checked_at,
          c.checked_through,
          c.series_start,
          c.dividends_from,
          c.dividends_known ? 1 : 0,
        );
      return result;
    });
  }

  keepPayouts(source: PayoutSource, rows: readonly ArchivedPayout[]): Promise<WriteResult> {
    const table = PAYOUT_TABLES[source];
    return this.transaction(() => {
      const get = this.db.prepare(
        `SELECT row FROM ${table} WHERE symbol = ? AND announced = ? AND details = ?`,
      );
      const put = this.db.prepare(
        `INSERT INTO ${table} (symbol, announced, details, row) VALUES (?, ?, ?, ?)`,
      );
      const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
      for (const r of rows) {
        const json = JSON.stringify(r.row);
        const held = get.get(r.symbol, r.announced ?? '', r.details) as { row: string } | undefined;
        if (held === undefined) {
          put.run(r.symbol, r.announced ?? '', r.details, json);
          result.inserted++;
          continue;
        }
        const diff = comparePayout(r, held.row, json);
        if (diff.length === 0) result.unchanged++;
        else result.disagreements.push(...diff);
      }
      return result;
    });
  }

  keptPayouts(source: PayoutSource, from: string, to: string, symbol?: string): Promise<ArchivedPayout[]> {
    const table = PAYOUT_TABLES[source];
    const [lo, hi] = announcedBounds(from, to);
    return this.read(() => {
      const rows = (
        symbol === undefined
          ? this.db
              .prepare(
                `SELECT symbol, announced, details, row FROM ${table} WHERE announced >= ? AND announced < ? ORDER BY announced DESC, symbol, details`,
              )
              .all(lo, hi)
          : this.db
              .prepare(
                `SELECT symbol, announced, details, row FROM ${table} WHERE symbol = ? AND announced >= ? AND announced < ? ORDER BY announced DESC, details`,
              )
              .all(symbol, lo, hi)
      ) as Array<{ symbol: string; announced: string; details: string; row: string }>;
      return rows.map((r) => ({
        symbol: r.symbol,
        announced: r.announced,
        details: r.details,
        row: JSON.parse(r.row) as unknown,
      }));
    });
  }

  adjustments(symbols?: readonly string[]) {
    return this.read(() => {
      if (symbols === undefined) {
        return adjustmentRecords(
          this.db.prepare('SELECT * FROM adjustment_coverage').all().map(coverageRowOf),
          this.db.prepare('SELECT * FROM adjustment_factors').all().map(factorRowOf),
        );
      }
      const coverage = this.db.prepare('SELECT * FROM adjustment_coverage WHERE symbol = ?');
      const factors = this.db.prepare('SELECT * FROM adjustment_factors WHERE symbol = ?');
      return adjustmentRecords(
        symbols.flatMap((s) => coverage.all(s).map(coverageRowOf)),
        symbols.flatMap((s) => factors.all(s).map(factorRowOf)),
      );
    });
  }

  ping(): Promise<void> {
    return this.read(() => {
      this.db.prepare('SELECT 1').get();
    });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.db.close();
    }
    return Promise.resolve();
  }

  private heldBars(symbol: string): Map<number, HeldBar> {
    const held = new Map<number, HeldBar>();
    for (const row of this.s.symbolBars!.all(symbol)) {
      const r = heldBarOf(row);
      held.set(r.day, r);
    }
    return held;
  }

  /** Inserts bars not held; compares the rest (`held`: the symbol's bars, read once for a history). */
  private putBars(bars: readonly DailyBar[], held?: Map<number, HeldBar>): WriteResult {
    const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
    for (const bar of bars) {
      const day = dayNumber(bar.date);
      const row = held ? undefined : this.s.getBar!.get(bar.symbol, day);
      const stored = held ? held.get(day) : row === undefined ? undefined : heldBarOf(row);
      if (stored) {
        const diff = compareBar(bar.symbol, bar.date, stored, bar);
        if (diff.length === 0) result.unchanged++;
        else result.disagreements.push(...diff);
        continue;
      }
      this.s.putBar!.run(
        bar.symbol,
        day,
        bar.open,
        bar.high,
        bar.low,
        bar.close,
        bar.volume,
        reasonsText(bar.anomaly_reasons),
      );
      // A repeated date in the same series is kept once; the repeat is compared like a later look.
      held?.set(day, { ...bar, day });
      result.inserted++;
    }
    return result;
  }

  private putLevels(levels: readonly IndexLevel[]): WriteResult {
    const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
    for (const l of levels) {
      const day = dayNumber(l.date);
      const stored = this.s.getLevel!.get(l.index, day) as IndexLevel | undefined;
      if (stored) {
        // A closing page has no open and the daily series no high or low: only shared fields count.
        const diff = compareBar(l.index, l.date, fill(stored, l), fill(l, stored));
        if (diff.length === 0) result.unchanged++;
        else result.disagreements.push(...diff);
        continue;
      }
      this.s.putLevel!.run(l.index, day, l.open, l.high, l.low, l.close, l.volume);
      result.inserted++;
    }
    return result;
  }

  // SQLite answers synchronously; the archive's interface is asynchronous (PostgreSQL's is). A
  // failure is a rejected promise, never a throw, so callers handle both archives the same way.
  private transaction<T>(work: () => T): Promise<T> {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      return Promise.reject(new ArchiveUnavailableError('the archive could not start a write', err));
    }
    try {
      const out = work();
      this.db.exec('COMMIT');
      return Promise.resolve(out);
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (a failed COMMIT or a full disk ends the transaction).
      }
      return Promise.reject(
        new ArchiveUnavailableError(`the archive could not be written: ${(err as Error).message}`, err),
      );
    }
  }

  private read<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (err) {
      return Promise.reject(
        new ArchiveUnavailableError(`the archive could not be read: ${(err as Error).message}`, err),
      );
    }
  }
}

function barOf(row: DbRow): DailyBar {
  const r: BarRow = barRowOf(row);
  return {
    symbol: r.symbol,
    date: dayText(r.day),
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    anomaly_reasons: reasonsList(r.reasons),
  };
}

/** Whole range when a bound is absent. */
export function bounds(start?: string, end?: string): [number, number] {
  return [start ? dayNumber(start) : -1e6, end ? dayNumber(end) : 1e6];
}

/** `a` with the fields only `b` lacks taken from `b`, so a field one source never gives is not a disagreement. */
function fill<T extends Pick<IndexLevel, 'open' | 'high' | 'low' | 'close' | 'volume'>>(a: T, b: T): T {
  const out = { ...a };
  for (const f of ['open', 'high', 'low', 'close', 'volume'] as const) {
    if (a[f] === null || b[f] === null) out[f] = null;
  }
  return out;
}

export function merge(a: WriteResult, b: WriteResult): WriteResult {
  return {
    inserted: a.inserted + b.inserted,
    unchanged: a.unchanged + b.unchanged,
    disagreements: [...a.disagreements, ...b.disagreements],
  };
}
