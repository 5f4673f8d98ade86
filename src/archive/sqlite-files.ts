// The daily closing files in the SQLite archive (daily-files.ts has the rules).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  FILE_ROW_COLUMNS,
  fileDisagreements,
  fileRowOf,
  fileRowValues,
  fileWriteResult,
  rowsInKeyOrder,
  type DailyFileKind,
  type DailyFileRow,
  type DailyFileStats,
  type DailyFileStore,
  type FileDayState,
  type FileDisagreement,
  type FileMarker,
} from './daily-files.ts';
import { storedFileRowOf, symbolPricesOf } from './rows.ts';
import { dayNumber, dayText, type WriteResult } from './store.ts';

type Run = <T>(work: () => T) => Promise<T>;

export class SqliteDailyFiles implements DailyFileStore {
  private readonly s: Record<string, StatementSync>;

  constructor(
    private readonly db: DatabaseSync,
    private readonly transaction: Run,
    private readonly read: Run,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      getDay: p('SELECT found FROM file_days WHERE day = ?'),
      putDay: p(
        'INSERT INTO file_days (day, found, checked_at, rows) VALUES (?, 1, ?, ?) ON CONFLICT(day) DO UPDATE SET found = 1, checked_at = excluded.checked_at, rows = excluded.rows',
      ),
      noSession: p(
        'INSERT INTO file_days (day, found, checked_at, rows) VALUES (?, 0, ?, 0) ON CONFLICT(day) DO UPDATE SET checked_at = excluded.checked_at WHERE found = 0',
      ),
      putRow: p(
        `INSERT INTO file_rows (day, ${FILE_ROW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ),
      dayBars: p('SELECT symbol, open, high, low, close, volume FROM bars WHERE day = ?'),
      putDisagreement: p(
        'INSERT INTO file_disagreements (symbol, day, field, file_value, history_value) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      days: p('SELECT day, found, checked_at, rows FROM file_days ORDER BY day'),
      dayRows: p('SELECT * FROM file_rows WHERE day = ? ORDER BY symbol'),
      symbolRows: p('SELECT * FROM file_rows WHERE symbol = ? AND day BETWEEN ? AND ? ORDER BY day'),
      hasSymbol: p('SELECT 1 AS x FROM file_rows WHERE symbol = ? LIMIT 1'),
      fileDates: p('SELECT day FROM file_days WHERE found = 1 AND day BETWEEN ? AND ? ORDER BY day'),
      disagreements: p(
        'SELECT symbol, day, field, file_value, history_value FROM file_disagreements ORDER BY day DESC, symbol, field LIMIT ?',
      ),
    };
  }

  writeFile(date: string, rows: readonly DailyFileRow[], fetchedAt: number): Promise<WriteResult> {
    return this.transaction(() => {
      const day = dayNumber(date);
      const held = this.s.getDay!.get(day) as { found: number } | undefined;
      if (held?.found === 1) return { inserted: 0, unchanged: rows.length, disagreements: [] };
      const put = this.s.putRow!;
      for (const r of rowsInKeyOrder(rows)) put.run(day, ...fileRowValues(r, (b) => (b ? 1 : 0)));
      this.s.putDay!.run(day, fetchedAt, rows.length);
      const found = fileDisagreements(rows, this.s.dayBars!.all(day).map(symbolPricesOf));
      for (const d of found) this.s.putDisagreement!.run(d.symbol, day, d.field, d.file, d.history);
      return fileWriteResult(rows, found);
    });
  }

  markNoSession(date: string, checkedAt: number): Promise<void> {
    return this.transaction(() => {
      this.s.noSession!.run(dayNumber(date), checkedAt);
    });
  }

  fileDays(): Promise<FileDayState[]> {
    return this.read(() =>
      (this.s.days!.all() as Array<{ day: number; found: number; checked_at: number; rows: number }>).map(
        (r) => ({
          date: dayText(r.day),
          found: r.found === 1,
          checkedAt: r.checked_at,
          rows: r.rows,
        }),
      ),
    );
  }

  fileRows(date: string, kinds?: readonly DailyFileKind[]): Promise<DailyFileRow[]> {
    return this.read(() => {
      const rows = this.s.dayRows!.all(dayNumber(date)).map((r) => fileRowOf(storedFileRowOf(r), date));
      return kinds ? rows.filter((r) => kinds.includes(r.kind)) : rows;
    });
  }

  symbolRows(symbol: string, start?: string, end?: string): Promise<DailyFileRow[]> {
    const from = start ? dayNumber(start) : -1e6;
    const to = end ? dayNumber(end) : 1e6;
    return this.read(() =>
      this.s.symbolRows!.all(symbol, from, to).map((row) => {
        const r = storedFileRowOf(row);
        return fileRowOf(r, dayText(r.day));
      }),
    );
  }

  symbolsInFiles(symbols: readonly string[]): Promise<Set<string>> {
    return this.read(() => new Set(symbols.filter((s) => this.s.hasSymbol!.get(s) !== undefined)));
  }

  fileDates(from: string, to: string): Promise<string[]> {
    return this.read(() =>
      (this.s.fileDates!.all(dayNumber(from), dayNumber(to)) as Array<{ day: number }>).map((r) =>
        dayText(r.day),
      ),
    );
  }

  disagreements(limit: number): Promise<{ total: number; rows: FileDisagreement[] }> {
    return this.read(() => {
      const total = (this.db.prepare('SELECT count(*) AS n FROM file_disagreements').get() as { n: number })
        .n;
      const rows = (
        this.s.disagreements!.all(limit) as Array<{
          symbol: string;
          day: number;
          field: FileDisagreement['field'];
          file_value: number | null;
          history_value: number | null;
        }>
      ).map((r) => ({
        symbol: r.symbol,
        date: dayText(r.day),
        field: r.field,
        file: r.file_value,
        history: r.history_value,
      }));
      return { total, rows };
    });
  }

  stats(): Promise<DailyFileStats> {
    return this.read(() => {
      const r = this.db
        .prepare(
          'SELECT sum(found) AS files, sum(1 - found) AS none, min(CASE WHEN found = 1 THEN day END) AS first, max(CASE WHEN found = 1 THEN day END) AS last, sum(rows) AS rows FROM file_days',
        )
        .get() as {
        files: number | null;
        none: number | null;
        first: number | null;
        last: number | null;
        rows: number | null;
      };
      return {
        files: r.files ?? 0,
        noSession: r.none ?? 0,
        firstDate: r.first === null ? null : dayText(r.first),
        lastDate: r.last === null ? null : dayText(r.last),
        rows: r.rows ?? 0,
      };
    });
  }

  private markers: StatementSync | undefined;

  symbolMarkers(symbol: string): Promise<FileMarker[]> {
    return this.read(() => {
      // Prepared on first use: only corporate-action answers read markers.
      this.markers ??= this.db.prepare(
        'SELECT day, marker FROM file_rows WHERE symbol = ? AND marker IS NOT NULL ORDER BY day',
      );
      return (this.markers.all(symbol) as Array<{ day: number; marker: FileMarker['marker'] }>).map((r) => ({
        date: dayText(r.day),
        marker: r.marker,
      }));
    });
  }
}
