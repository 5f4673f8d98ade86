// The exchange's daily closing files as kept: every row of every file (equities, futures, index
// futures, debt), the days asked for (a file, or the portal's 404 for a day without a session),
// and the bars where a file and a symbol's portal history disagree. Like every archived row, a
// file's rows are written once and never changed (past files never change).
import type { DailyFileKind, DailyFileRow } from '../exchange/types.ts';
export type { DailyFileKind, DailyFileRow } from '../exchange/types.ts';
export type { DailyFileStats, DailyFileStore, FileDayState, FileDisagreement, FileMarker } from './store.ts';
import type { FileDisagreement } from './store.ts';

export const SQLITE_FILE_SCHEMA = `
CREATE TABLE IF NOT EXISTS file_days (day INTEGER PRIMARY KEY, found INTEGER NOT NULL, checked_at INTEGER NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS file_rows (
  day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
  marker TEXT, open REAL, high REAL, low REAL, close REAL, volume REAL, ldcp REAL,
  underlying TEXT, contract_month TEXT, cash_settled INTEGER, series TEXT,
  PRIMARY KEY (day, symbol)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS file_rows_by_symbol ON file_rows (symbol, day);
-- The few rows whose name carries XD/XB/XR: a symbol's markers without visiting its every row.
CREATE INDEX IF NOT EXISTS file_rows_marked ON file_rows (symbol, day, marker) WHERE marker IS NOT NULL;
CREATE TABLE IF NOT EXISTS file_disagreements (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, field TEXT NOT NULL, file_value REAL, history_value REAL,
  PRIMARY KEY (symbol, day, field)
) WITHOUT ROWID;
`;

export const POSTGRES_FILE_SCHEMA = `
CREATE TABLE IF NOT EXISTS archive_file_days (day INTEGER PRIMARY KEY, found BOOLEAN NOT NULL, checked_at BIGINT NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS archive_file_rows (
  day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
  marker TEXT, open DOUBLE PRECISION, high DOUBLE PRECISION, low DOUBLE PRECISION, close DOUBLE PRECISION,
  volume DOUBLE PRECISION, ldcp DOUBLE PRECISION,
  underlying TEXT, contract_month TEXT, cash_settled BOOLEAN, series TEXT,
  PRIMARY KEY (day, symbol)
);
CREATE INDEX IF NOT EXISTS archive_file_rows_by_symbol ON archive_file_rows (symbol, day);
-- The few rows whose name carries XD/XB/XR: a symbol's markers without visiting its every row.
CREATE INDEX IF NOT EXISTS archive_file_rows_marked ON archive_file_rows (symbol, day, marker) WHERE marker IS NOT NULL;
CREATE TABLE IF NOT EXISTS archive_file_disagreements (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, field TEXT NOT NULL,
  file_value DOUBLE PRECISION, history_value DOUBLE PRECISION,
  PRIMARY KEY (symbol, day, field)
);
`;

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
