// The exchange's daily closing files as kept: every row of every file (equities, futures, index
// futures, debt), the days asked for (a file, or the portal's 404 for a day without a session),
// and the bars where a file and a symbol's portal history disagree. Like every archived row, a
// file's rows are written once and never changed (past files never change).
import type { DailyFileKind, DailyFileRow } from '../exchange/types.ts';
export type { DailyFileKind, DailyFileRow } from '../exchange/types.ts';
export type { DailyFileStats, DailyFileStore, FileDayState, FileDisagreement, FileMarker } from './store.ts';
import type { FileDisagreement, WriteResult } from './store.ts';

/**
 * The files' rows are keyed by (day DESC, symbol) in both stores: the backfill goes newest first,
 * so each file's rows land at the right end of the key (pages filled, as appended) instead of at
 * its left end (pages split in halves, the file larger); `/market/daily?date=` reads a day in
 * symbol order from it. An archive made with the (day, symbol) key keeps it.
 */
export const SQLITE_FILE_SCHEMA = `
CREATE TABLE IF NOT EXISTS file_days (day INTEGER PRIMARY KEY, found INTEGER NOT NULL, checked_at INTEGER NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS file_rows (
  day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
  marker TEXT, open REAL, high REAL, low REAL, close REAL, volume REAL, ldcp REAL,
  underlying TEXT, contract_month TEXT, cash_settled INTEGER, series TEXT,
  PRIMARY KEY (day DESC, symbol)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS file_rows_by_symbol ON file_rows (symbol, day);
-- The few rows whose name carries XD/XB/XR: a symbol's markers without visiting its every row.
CREATE INDEX IF NOT EXISTS file_rows_marked ON file_rows (symbol, day, marker) WHERE marker IS NOT NULL;
CREATE TABLE IF NOT EXISTS file_disagreements (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, field TEXT NOT NULL, file_value REAL, history_value REAL,
  PRIMARY KEY (symbol, day, field)
) WITHOUT ROWID;
`;

/**
 * PostgreSQL: a unique index, as a primary key cannot be descending; one is added only where the
 * table has no unique index (an archive made with the (day, symbol) primary key keeps that).
 */
export const POSTGRES_FILE_SCHEMA = `
CREATE TABLE IF NOT EXISTS archive_file_days (day INTEGER PRIMARY KEY, found BOOLEAN NOT NULL, checked_at BIGINT NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS archive_file_rows (
  day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
  marker TEXT, open DOUBLE PRECISION, high DOUBLE PRECISION, low DOUBLE PRECISION, close DOUBLE PRECISION,
  volume DOUBLE PRECISION, ldcp DOUBLE PRECISION,
  underlying TEXT, contract_month TEXT, cash_settled BOOLEAN, series TEXT
);
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_index WHERE indrelid = 'archive_file_rows'::regclass AND indisunique) THEN
    CREATE UNIQUE INDEX IF NOT EXISTS archive_file_rows_by_day ON archive_file_rows (day DESC, symbol);
  END IF;
END $$;
CREATE INDEX IF NOT EXISTS archive_file_rows_by_symbol ON archive_file_rows (symbol, day);
-- The few rows whose name carries XD/XB/XR: a symbol's markers without visiting its every row.
CREATE INDEX IF NOT EXISTS archive_file_rows_marked ON archive_file_rows (symbol, day, marker) WHERE marker IS NOT NULL;
CREATE TABLE IF NOT EXISTS archive_file_disagreements (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, field TEXT NOT NULL,
  file_value DOUBLE PRECISION, history_value DOUBLE PRECISION,
  PRIMARY KEY (symbol, day, field)
);
`;

/** The files' row columns after the day, in the order of `fileRowValues`. */
export const FILE_ROW_COLUMNS =
  'symbol, kind, sector, name, marker, open, high, low, close, volume, ldcp, underlying, contract_month, cash_settled, series';

/** A row's values in FILE_ROW_COLUMNS order; `flag` is how the store keeps cash_settled. */
export function fileRowValues<F>(
  r: DailyFileRow,
  flag: (cashSettled: boolean) => F,
): Array<string | number | F | null> {
  return [
    r.symbol,
    r.kind,
    r.sectorCode,
    r.name,
    r.marker,
    r.open,
    r.high,
    r.low,
    r.close,
    r.volume,
    r.ldcp,
    r.underlying,
    r.contractMonth,
    r.cashSettled === null ? null : flag(r.cashSettled),
    r.series,
  ];
}

/** A stored row as read back (both stores' column names). */
export interface StoredFileRow {
  day: number;
  symbol: string;
  kind: string;
  sector: string;
  name: string;
  marker: string | null;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  ldcp: number | null;
  underlying: string | null;
  contract_month: string | null;
  cash_settled: number | boolean | null;
  series: string | null;
}

export function fileRowOf(r: StoredFileRow, date: string): DailyFileRow {
  return {
    date,
    symbol: r.symbol,
    sectorCode: r.sector,
    name: r.name,
    marker: r.marker as DailyFileRow['marker'],
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    ldcp: r.ldcp,
    kind: r.kind as DailyFileKind,
    underlying: r.underlying,
    contractMonth: r.contract_month,
    cashSettled: r.cash_settled === null ? null : Boolean(r.cash_settled),
    series: r.series,
  };
}

const FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;

/** The fields where a file's equity row and the held bar differ (12 significant digits). */
export function compareFileRow(
  row: DailyFileRow,
  bar: Pick<DailyFileRow, (typeof FIELDS)[number]>,
): FileDisagreement[] {
  const out: FileDisagreement[] = [];
  for (const field of FIELDS) {
    const a = row[field];
    const b = bar[field];
    const same =
      a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
    if (!same) out.push({ symbol: row.symbol, date: row.date, field, file: a, history: b });
  }
  return out;
}

/**
 * A file's rows as both stores insert them: in key order (each row lands at the right end of the
 * day's key range, so index pages fill instead of splitting; the file lists equities, then futures,
 * then debt), a symbol repeated within the file keeping its first row.
 */
export function rowsInKeyOrder(rows: readonly DailyFileRow[]): DailyFileRow[] {
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.symbol) && seen.add(r.symbol) !== undefined)
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** The fields where the file's equity rows and the day's held bars (a symbol's history) differ. */
export function fileDisagreements(
  rows: readonly DailyFileRow[],
  held: Iterable<Pick<DailyFileRow, 'symbol' | (typeof FIELDS)[number]>>,
): FileDisagreement[] {
  const bars = new Map<string, Pick<DailyFileRow, (typeof FIELDS)[number]>>();
  for (const b of held) bars.set(b.symbol, b);
  const found: FileDisagreement[] = [];
  if (bars.size === 0) return found;
  for (const r of rows) {
    const bar = r.kind === 'equity' ? bars.get(r.symbol) : undefined;
    if (bar) found.push(...compareFileRow(r, bar));
  }
  return found;
}

/** A stored file's write result: every row inserted, each disagreement with the held bars. */
export function fileWriteResult(
  rows: readonly DailyFileRow[],
  found: readonly FileDisagreement[],
): WriteResult {
  return {
    inserted: rows.length,
    unchanged: 0,
    disagreements: found.map((d) => ({
      key: d.symbol,
      date: d.date,
      field: `file ${d.field}`,
      stored: d.history,
      seen: d.file,
    })),
  };
}
