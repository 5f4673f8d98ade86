// The daily closing files in the PostgreSQL archive (daily-files.ts has the rules).
import type postgres from 'postgres';
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

const NEEDS_QUOTE = /["\\]/g;

/**
 * A column as PostgreSQL's array literal (`{"a",NULL,1.5}`): postgres.js escapes every element of an
 * array parameter with two regular expressions (~2 ms a file), this only the rare ones that hold a
 * quote or backslash. Numbers are JavaScript's shortest exact text, which float8 reads back exactly.
 */
function arrayLiteral(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string')
      out += `"${v.includes('"') || v.includes('\\') ? v.replace(NEEDS_QUOTE, '\\$&') : v}"`;
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else out += String(v);
  }
  return `${out}}`;
}

type Read = <T>(query: (sql: postgres.Sql) => Promise<T>) => Promise<T>;
type Write = <T>(work: (tx: postgres.TransactionSql) => Promise<T>) => Promise<T>;

export class PostgresDailyFiles implements DailyFileStore {
  constructor(
    private readonly read: Read,
    private readonly write: Write,
  ) {}

  writeFile(date: string, rows: readonly DailyFileRow[], fetchedAt: number): Promise<WriteResult> {
    return this.write(async (tx) => {
      const day = dayNumber(date);
      // One writer at a time per day: a second replica's write of the same day waits, then sees it.
      // Sent together: the read runs after the lock is granted, with a snapshot taken then. The
      // commit does not wait for the WAL to reach the disk (a flush a file on a real server): a
      // crash can lose the last files committed, never part of one, and the archiver, resuming,
      // finds no found mark for their days and fetches them again.
      const [, kept] = await Promise.all([
        tx`SELECT pg_advisory_xact_lock(${0x46494c45}, ${day}), set_config('synchronous_commit', 'off', true)`,
        tx<Array<{ found: boolean }>>`SELECT found FROM archive_file_days WHERE day = ${day}`,
      ]);
      if (kept[0]?.found) return { inserted: 0, unchanged: rows.length, disagreements: [] };
      // A day's rows exist only beside its found mark (written together under the lock above), so
      // the insert needs no ON CONFLICT (PostgreSQL's speculative insertion costs ~1 ms a file).
      const unique = rowsInKeyOrder(rows);
      const columns = Array.from({ length: 15 }, () => new Array<unknown>(unique.length));
      unique.forEach((r, i) => {
        const row = fileRowValues(r, (b) => b);
        for (let c = 0; c < 15; c++) columns[c]![i] = row[c];
      });
      // One statement for the whole file (the day and 15 column arrays, however many rows), the
      // day's mark and the read of the day's held bars, sent together: one round trip, not three.
      const [, , held] = await Promise.all([
        tx.unsafe(
          `INSERT INTO archive_file_rows (day, ${FILE_ROW_COLUMNS})
           SELECT $1::int, * FROM unnest($2::text::text[], $3::text::text[], $4::text::text[], $5::text::text[], $6::text::text[], $7::text::float8[], $8::text::float8[], $9::text::float8[], $10::text::float8[], $11::text::float8[], $12::text::float8[], $13::text::text[], $14::text::text[], $15::text::bool[], $16::text::text[])`,
          [day, ...columns.map(arrayLiteral)],
          { prepare: true },
        ),
        tx`INSERT INTO archive_file_days (day, found, checked_at, rows) VALUES (${day}, true, ${fetchedAt}, ${rows.length})
           ON CONFLICT (day) DO UPDATE SET found = true, checked_at = EXCLUDED.checked_at, rows = EXCLUDED.rows`,
        tx`SELECT symbol, open, high, low, close, volume FROM archive_bars WHERE day = ${day}`,
      ]);
      const found = fileDisagreements(rows, held.map(symbolPricesOf));
      if (found.length > 0) {
        await tx`INSERT INTO archive_file_disagreements (symbol, day, field, file_value, history_value)
                 SELECT s, ${day}::int, f, fv, hv
                 FROM unnest(${found.map((d) => d.symbol)}::text[], ${found.map((d) => d.field)}::text[],
                             ${found.map((d) => d.file) as number[]}::float8[], ${found.map((d) => d.history) as number[]}::float8[]) AS x(s, f, fv, hv)
                 ON CONFLICT DO NOTHING`;
      }
      return fileWriteResult(rows, found);
    });
  }

  markNoSession(date: string, checkedAt: number): Promise<void> {
    return this.write(async (tx) => {
      await tx`INSERT INTO archive_file_days (day, found, checked_at, rows) VALUES (${dayNumber(date)}, false, ${checkedAt}, 0)
               ON CONFLICT (day) DO UPDATE SET checked_at = EXCLUDED.checked_at WHERE archive_file_days.found = false`;
    });
  }

  fileDays(): Promise<FileDayState[]> {
    return this.read(async (sql) =>
      (
        await sql<
          Array<{ day: number; found: boolean; checked_at: string; rows: number }>
        >`SELECT day, found, checked_at, rows FROM archive_file_days ORDER BY day`
      ).map((r) => ({ date: dayText(r.day), found: r.found, checkedAt: Number(r.checked_at), rows: r.rows })),
    );
  }

  fileRows(date: string, kinds?: readonly DailyFileKind[]): Promise<DailyFileRow[]> {
    return this.read(async (sql) => {
      const rows = kinds
        ? await sql`SELECT * FROM archive_file_rows WHERE day = ${dayNumber(date)} AND kind = ANY(${kinds as string[]}) ORDER BY symbol`
        : await sql`SELECT * FROM archive_file_rows WHERE day = ${dayNumber(date)} ORDER BY symbol`;
      return rows.map((r) => fileRowOf(storedFileRowOf(r), date));
    });
  }

  symbolRows(symbol: string, start?: string, end?: string): Promise<DailyFileRow[]> {
    const from = start ? dayNumber(start) : -1e6;
    const to = end ? dayNumber(end) : 1e6;
    return this.read(async (sql) =>
      (
        await sql`SELECT * FROM archive_file_rows WHERE symbol = ${symbol} AND day BETWEEN ${from} AND ${to} ORDER BY day`
      ).map((row) => {
        const r = storedFileRowOf(row);
        return fileRowOf(r, dayText(r.day));
      }),
    );
  }

  symbolsInFiles(symbols: readonly string[]): Promise<Set<string>> {
    if (symbols.length === 0) return Promise.resolve(new Set());
    return this.read(async (sql) => {
      const rows = await sql<Array<{ symbol: string }>>`
        SELECT s.symbol FROM unnest(${symbols as string[]}::text[]) AS s(symbol)
        WHERE EXISTS (SELECT 1 FROM archive_file_rows f WHERE f.symbol = s.symbol)`;
      return new Set(rows.map((r) => r.symbol));
    });
  }

  fileDates(from: string, to: string): Promise<string[]> {
    return this.read(async (sql) =>
      (
        await sql<
          Array<{ day: number }>
        >`SELECT day FROM archive_file_days WHERE found AND day BETWEEN ${dayNumber(from)} AND ${dayNumber(to)} ORDER BY day`
      ).map((r) => dayText(r.day)),
    );
  }

  disagreements(limit: number): Promise<{ total: number; rows: FileDisagreement[] }> {
    return this.read(async (sql) => {
      const [count] = await sql<Array<{ n: string }>>`SELECT count(*) AS n FROM archive_file_disagreements`;
      const rows = await sql<
        Array<{
          symbol: string;
          day: number;
          field: FileDisagreement['field'];
          file_value: number | null;
          history_value: number | null;
        }>
      >`SELECT symbol, day, field, file_value, history_value FROM archive_file_disagreements ORDER BY day DESC, symbol, field LIMIT ${limit}`;
      return {
        total: Number(count?.n ?? 0),
        rows: rows.map((r) => ({
          symbol: r.symbol,
          date: dayText(r.day),
          field: r.field,
          file: r.file_value,
          history: r.history_value,
        })),
      };
    });
  }

  stats(): Promise<DailyFileStats> {
    return this.read(async (sql) => {
      const [r] = await sql<
        Array<{ files: string; none: string; first: number | null; last: number | null; rows: string | null }>
      >`SELECT count(*) FILTER (WHERE found) AS files, count(*) FILTER (WHERE NOT found) AS none,
               min(day) FILTER (WHERE found) AS first, max(day) FILTER (WHERE found) AS last, sum(rows) AS rows
        FROM archive_file_days`;
      return {
        files: Number(r?.files ?? 0),
        noSession: Number(r?.none ?? 0),
        firstDate: r?.first == null ? null : dayText(r.first),
        lastDate: r?.last == null ? null : dayText(r.last),
        rows: Number(r?.rows ?? 0),
      };
    });
  }

  symbolMarkers(symbol: string): Promise<FileMarker[]> {
    return this.read(async (sql) =>
      (
        await sql<
          Array<{ day: number; marker: FileMarker['marker'] }>
        >`SELECT day, marker FROM archive_file_rows WHERE symbol = ${symbol} AND marker IS NOT NULL ORDER BY day`
      ).map((r) => ({ date: dayText(r.day), marker: r.marker })),
    );
  }
}
