// The archive's corporate-actions tables, shared by both backends: each symbol's price factors
// (capital changes the raw prices confirmed, cash dividends) and how far its analyses reached.
// Factors are kept as first written, like bars; the coverage only widens.
import {
  dayNumber,
  dayText,
  type AdjustmentFactor,
  type AdjustmentRecord,
  type WriteResult,
} from './store.ts';

/** SQLite tables (created beside the bars). */
export const SQLITE_ADJUSTMENT_SCHEMA = `
CREATE TABLE IF NOT EXISTS adjustment_factors (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL,
  factor REAL NOT NULL, ratio REAL, amount REAL,
  PRIMARY KEY (symbol, day, kind, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS adjustment_coverage (
  symbol TEXT PRIMARY KEY, checked_at INTEGER NOT NULL, checked_through INTEGER NOT NULL,
  series_start INTEGER, dividends_from INTEGER, dividends_known INTEGER NOT NULL
);
`;

/** PostgreSQL tables. */
export const POSTGRES_ADJUSTMENT_SCHEMA = `
CREATE TABLE IF NOT EXISTS archive_adjustment_factors (
  symbol TEXT NOT NULL, day INTEGER NOT NULL, kind TEXT NOT NULL, seq INTEGER NOT NULL,
  factor DOUBLE PRECISION NOT NULL, ratio DOUBLE PRECISION, amount DOUBLE PRECISION,
  PRIMARY KEY (symbol, day, kind, seq)
);
CREATE TABLE IF NOT EXISTS archive_adjustment_coverage (
  symbol TEXT PRIMARY KEY, checked_at BIGINT NOT NULL, checked_through INTEGER NOT NULL,
  series_start INTEGER, dividends_from INTEGER, dividends_known BOOLEAN NOT NULL
);
`;

/** A stored factor row. */
export interface FactorRow {
  symbol: string;
  day: number;
  kind: string;
  seq: number;
  factor: number;
  ratio: number | null;
  amount: number | null;
}

/** A stored coverage row. */
export interface CoverageRow {
  symbol: string;
  checked_at: number;
  checked_through: number;
  series_start: number | null;
  dividends_from: number | null;
  dividends_known: boolean | number;
}

/** A record's factors as rows: `seq` numbers the factors of one kind on one day, in the record's order. */
export function factorRows(record: AdjustmentRecord): FactorRow[] {
  const seen = new Map<string, number>();
  return record.factors.map((f) => {
    const day = dayNumber(f.exDate);
    const key = `${day}|${f.kind}`;
    const seq = seen.get(key) ?? 0;
    seen.set(key, seq + 1);
    return {
      symbol: record.symbol,
      day,
      kind: f.kind,
      seq,
      factor: f.factor,
      ratio: f.ratio,
      amount: f.amount,
    };
  });
}

/** The rows not held yet, and what the held ones say about the new record. */
export function compareFactors(
  held: readonly FactorRow[],
  rows: readonly FactorRow[],
): { fresh: FactorRow[]; result: WriteResult } {
  const byKey = new Map(held.map((r) => [`${r.day}|${r.kind}|${r.seq}`, r]));
  const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
  const fresh: FactorRow[] = [];
  for (const row of rows) {
    const stored = byKey.get(`${row.day}|${row.kind}|${row.seq}`);
    if (stored === undefined) {
      fresh.push(row);
      continue;
    }
    if (Math.abs(stored.factor - row.factor) <= 1e-12 * Math.max(1, Math.abs(stored.factor))) {
      result.unchanged++;
      continue;
    }
    result.disagreements.push({
      key: row.symbol,
      date: dayText(row.day),
      field: `${row.kind}_factor`,
      stored: stored.factor,
      seen: row.factor,
    });
  }
  result.inserted = fresh.length;
  return { fresh, result };
}

const minDay = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

/** The held coverage widened by a new record. */
export function mergedCoverage(held: CoverageRow | undefined, record: AdjustmentRecord): CoverageRow {
  const through = dayNumber(record.checkedThrough);
  const seriesStart = record.seriesStart === null ? null : dayNumber(record.seriesStart);
  const dividendsFrom = record.dividendsFrom === null ? null : dayNumber(record.dividendsFrom);
  if (held === undefined) {
    return {
      symbol: record.symbol,
      checked_at: record.checkedAt,
      checked_through: through,
      series_start: seriesStart,
      dividends_from: dividendsFrom,
      dividends_known: record.dividendsKnown,
    };
  }
  return {
    symbol: record.symbol,
    checked_at: Math.max(Number(held.checked_at), record.checkedAt),
    checked_through: Math.max(held.checked_through, through),
    series_start: minDay(held.series_start, seriesStart),
    dividends_from: minDay(held.dividends_from, dividendsFrom),
    dividends_known: Boolean(held.dividends_known) || record.dividendsKnown,
  };
}

/** Stored rows back as records, factors oldest first. */
export function adjustmentRecords(
  coverage: readonly CoverageRow[],
  factors: readonly FactorRow[],
): Map<string, AdjustmentRecord> {
  const out = new Map<string, AdjustmentRecord>();
  for (const c of coverage) {
    out.set(c.symbol, {
      symbol: c.symbol,
      checkedAt: Number(c.checked_at),
      checkedThrough: dayText(c.checked_through),
      seriesStart: c.series_start === null ? null : dayText(c.series_start),
      dividendsFrom: c.dividends_from === null ? null : dayText(c.dividends_from),
      dividendsKnown: Boolean(c.dividends_known),
      factors: [],
    });
  }
  const sorted = [...factors].sort(
    (a, b) => a.day - b.day || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || a.seq - b.seq,
  );
  for (const f of sorted) {
    out.get(f.symbol)?.factors.push({
      exDate: dayText(f.day),
      kind: f.kind as AdjustmentFactor['kind'],
      factor: f.factor,
      ratio: f.ratio,
      amount: f.amount,
    });
  }
  return out;
}
