// The embedded store: every dataset fetched from the portal, on local disk, so a restart serves what
// was already fetched without touching the portal. History is kept per symbol and row (it is the
// bulk of the data and only ever grows); other datasets are one serialised document each.
//
// Durability: WAL with synchronous=NORMAL commits survive a killed process (the WAL is written
// before the answer leaves; only an OS crash could lose the last commits). A store that cannot be
// opened or fails its integrity check is moved aside and rebuilt, so a bad file never crash-loops.
//
// SQLite is Node's own (node:sqlite, Node 22.13+): synchronous like the store's callers expect, and
// nothing native to build at install time.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Logger } from 'pino';
import type { HistoryRow } from '../exchange/types.ts';
import type { PersistentTier } from './dataset-cache.ts';
import type { CacheEntry, HistorySeries } from './types.ts';

const HISTORY_PREFIX = 'history:';
const SCHEMA_VERSION = 1;

export class SqliteStore implements PersistentTier {
  private db: DatabaseSync;
  private closed = false;
  private readonly statements: ReturnType<SqliteStore['prepare']>;
  private healthy = true;

  /** @param now the service's clock (epoch ms): it names a store moved aside. */
  constructor(
    private readonly dir: string,
    private readonly now: () => number,
    private readonly logger?: Logger,
  ) {
    mkdirSync(dir, { recursive: true });
    this.db = this.open();
    this.statements = this.prepare();
  }

  get path(): string {
    return join(this.dir, 'market-data.sqlite');
  }

  /** False once a write has failed: readiness reports it, reads and the memory tier go on. */
  isHealthy(): boolean {
    return this.healthy;
  }

  // SQLite answers synchronously behind the tier's asynchronous interface; neither method throws.
  read(key: string): Promise<CacheEntry<unknown> | undefined> {
    try {
      return Promise.resolve(
        key.startsWith(HISTORY_PREFIX)
          ? (this.readHistory(key.slice(HISTORY_PREFIX.length)) as CacheEntry<unknown> | undefined)
          : this.readDocument(key),
      );
    } catch (err) {
      this.logger?.error({ err, key }, 'store read failed; treating as a miss');
      return Promise.resolve(undefined);
    }
  }

  write(key: string, entry: CacheEntry<unknown>): Promise<void> {
    try {
      if (key.startsWith(HISTORY_PREFIX)) {
        this.writeHistory(key.slice(HISTORY_PREFIX.length), entry as CacheEntry<HistorySeries>);
      } else {
        this.statements.putDocument.run(key, entry.fetchedAt, entry.freshUntil, JSON.stringify(entry.value));
      }
      this.healthy = true;
    } catch (err) {
      // A full disk or a broken file must not take answers away: memory still holds the entry.
      this.healthy = false;
      this.logger?.error({ err, key }, 'store write failed; serving from memory only');
    }
    return Promise.resolve();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private readDocument(key: string): CacheEntry<unknown> | undefined {
    const row = this.statements.getDocument.get(key) as
      { fetched_at: number; fresh_until: number; body: string } | undefined;
    if (!row) return undefined;
    return { value: JSON.parse(row.body) as unknown, fetchedAt: row.fetched_at, freshUntil: row.fresh_until };
  }

  private readHistory(symbol: string): CacheEntry<HistorySeries> | undefined {
    const series = this.statements.getSeries.get(symbol) as
      { fetched_at: number; fresh_until: number; full_fetched_at: number } | undefined;
    if (!series) return undefined;
    const rows = this.statements.getRows.all(symbol).map(historyRowOf);
    return {
      value: { rows, fullFetchedAt: series.full_fetched_at },
      fetchedAt: series.fetched_at,
      freshUntil: series.fresh_until,
    };
  }

  private writeHistory(symbol: string, entry: CacheEntry<HistorySeries>): void {
    const { rows, fullFetchedAt } = entry.value;
    const s = this.statements;
    this.db.exec('BEGIN');
    try {
      s.deleteRows.run(symbol);
      // seq keeps the portal's order and its duplicate dates (a feed error worth flagging, not hiding).
      rows.forEach((r, seq) => s.putRow.run(symbol, seq, r.date, r.open, r.high, r.low, r.close, r.volume));
      s.putSeries.run(symbol, entry.fetchedAt, entry.freshUntil, fullFetchedAt);
      this.db.exec('COMMIT');
    } catch (err) {
      try {
        this.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (a failed COMMIT or a full disk can end the transaction).
      }
      throw err;
    }
  }

  private open(): DatabaseSync {
    try {
      return this.openChecked();
    } catch (err) {
      const aside = `${this.path}.corrupt-${this.now()}`;
      this.logger?.warn(
        { err, movedTo: aside },
        'cache store unreadable; moving it aside and starting empty',
      );
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(this.path + suffix)) renameSync(this.path + suffix, aside + suffix);
      }
      return this.openChecked();
    }
  }

  private openChecked(): DatabaseSync {
    const db = new DatabaseSync(this.path);
    const pragma = (sql: string): unknown => Object.values(db.prepare(`PRAGMA ${sql}`).get() ?? {})[0];
    try {
      pragma('journal_mode = WAL');
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec('PRAGMA busy_timeout = 2000');
      const check = pragma('quick_check');
      if (check !== 'ok') throw new Error(`integrity check failed: ${String(check)}`);
      const version = pragma('user_version') as number;
      if (version !== 0 && version !== SCHEMA_VERSION)
        throw new Error(`unknown store schema version ${version}`);
      db.exec(`
        CREATE TABLE IF NOT EXISTS documents (
          key TEXT PRIMARY KEY, fetched_at INTEGER NOT NULL, fresh_until INTEGER NOT NULL, body TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS history_series (
          symbol TEXT PRIMARY KEY, fetched_at INTEGER NOT NULL, fresh_until INTEGER NOT NULL,
          full_fetched_at INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS history_rows (
          symbol TEXT NOT NULL, seq INTEGER NOT NULL, date TEXT NOT NULL,
          open REAL, high REAL, low REAL, close REAL, volume REAL,
          PRIMARY KEY (symbol, seq)
        ) WITHOUT ROWID;
      `);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  private prepare() {
    const db = this.db;
    return {
      getDocument: db.prepare('SELECT fetched_at, fresh_until, body FROM documents WHERE key = ?'),
      putDocument: db.prepare(
        'INSERT INTO documents (key, fetched_at, fresh_until, body) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT(key) DO UPDATE SET fetched_at = excluded.fetched_at, fresh_until = excluded.fresh_until, body = excluded.body',
      ),
      getSeries: db.prepare(
        'SELECT fetched_at, fresh_until, full_fetched_at FROM history_series WHERE symbol = ?',
      ),
      putSeries: db.prepare(
        'INSERT INTO history_series (symbol, fetched_at, fresh_until, full_fetched_at) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT(symbol) DO UPDATE SET fetched_at = excluded.fetched_at, fresh_until = excluded.fresh_until, full_fetched_at = excluded.full_fetched_at',
      ),
      // seq 0 is the newest row, as the portal sends it and as the rest of the service expects.
      getRows: db.prepare(
        'SELECT date, open, high, low, close, volume FROM history_rows WHERE symbol = ? ORDER BY seq',
      ),
      deleteRows: db.prepare('DELETE FROM history_rows WHERE symbol = ?'),
      putRow: db.prepare(
        'INSERT INTO history_rows (symbol, seq, date, open, high, low, close, volume) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
    };
  }
}

/** A stored history row, each column checked: a schema the code does not know reads as a miss (logged). */
function historyRowOf(r: Record<string, unknown>): HistoryRow {
  const price = (column: string): number | null => {
    const v = r[column];
    if (typeof v === 'number' || v === null) return v;
    throw new Error(`the store's history_rows.${column} should be a number or null but is ${typeof v}`);
  };
  if (typeof r.date !== 'string') {
    throw new Error(`the store's history_rows.date should be text but is ${typeof r.date}`);
  }
  // A plain object (node:sqlite rows have a null prototype), like every other row.
  return {
    date: r.date,
    open: price('open'),
    high: price('high'),
    low: price('low'),
    close: price('close'),
    volume: price('volume'),
  };
}
