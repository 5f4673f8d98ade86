// Typed row mappers: the one place each stored row type is read from a database result, column by
// column with a type check, so a schema that no longer matches the code fails with a sentence
// naming the table and column instead of handing a wrong type on. Both drivers' rows are plain
// records: node:sqlite gives numbers, strings, null (and bigint only with readBigInts, which the
// archive does not set); postgres.js gives numbers for int4/float8, booleans, and an int8 (BIGINT)
// as its decimal text, read here as a number (the archive's int8 columns hold millisecond times).
import type { CoverageRow, FactorRow } from './adjustments.ts';
import type { StoredFileRow } from './daily-files.ts';

/** A database row as both drivers give it: column name to value. */
export type DbRow = Readonly<Record<string, unknown>>;

/** A stored row whose columns are not the types the code reads (a schema the code does not know). */
export class ArchiveRowError extends Error {
  constructor(table: string, column: string, expected: string, value: unknown) {
    const seen = value === null ? 'null' : value === undefined ? 'no such column' : typeof value;
    super(`the archive's ${table}.${column} should be ${expected} but is ${seen}`);
    this.name = 'ArchiveRowError';
  }
}

const INT8_TEXT = /^-?\d{1,16}$/;

/** A number from a driver's integer forms (bigint, int8 text); undefined for anything else. */
function integer(v: unknown): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && INT8_TEXT.test(v)) return Number(v);
  return undefined;
}

function num(r: DbRow, table: string, column: string): number {
  const v = r[column];
  if (typeof v === 'number') return v;
  const n = integer(v);
  if (n === undefined) throw new ArchiveRowError(table, column, 'a number', v);
  return n;
}

function numOrNull(r: DbRow, table: string, column: string): number | null {
  const v = r[column];
  if (typeof v === 'number' || v === null) return v;
  const n = integer(v);
  if (n === undefined) throw new ArchiveRowError(table, column, 'a number or null', v);
  return n;
}

function str(r: DbRow, table: string, column: string): string {
  const v = r[column];
  if (typeof v === 'string') return v;
  throw new ArchiveRowError(table, column, 'text', v);
}

function strOrNull(r: DbRow, table: string, column: string): string | null {
  const v = r[column];
  if (typeof v === 'string' || v === null) return v;
  throw new ArchiveRowError(table, column, 'text or null', v);
}

/** A flag: SQLite keeps 0/1, PostgreSQL a boolean. */
function flag(r: DbRow, table: string, column: string): boolean | number {
  const v = r[column];
  if (typeof v === 'boolean' || v === 0 || v === 1) return v;
  throw new ArchiveRowError(table, column, 'a flag (boolean or 0/1)', v);
}

function flagOrNull(r: DbRow, table: string, column: string): boolean | number | null {
  return r[column] === null ? null : flag(r, table, column);
}

/** A held daily bar: one symbol's day in the bars table. */
export interface BarRow {
  symbol: string;
  day: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
  reasons: string;
}

export function barRowOf(r: DbRow): BarRow {
  return {
    symbol: str(r, 'bars', 'symbol'),
    day: num(r, 'bars', 'day'),
    open: numOrNull(r, 'bars', 'open'),
    high: numOrNull(r, 'bars', 'high'),
    low: numOrNull(r, 'bars', 'low'),
    close: numOrNull(r, 'bars', 'close'),
    volume: numOrNull(r, 'bars', 'volume'),
    reasons: str(r, 'bars', 'reasons'),
  };
}

/** A bar's or an index level's five values. */
export type Prices = Pick<BarRow, 'open' | 'high' | 'low' | 'close' | 'volume'>;

/** A held bar's prices and day, without the symbol the query was keyed by. */
export type HeldBar = Prices & { day: number };

export function heldBarOf(r: DbRow): HeldBar {
  return {
    day: num(r, 'bars', 'day'),
    open: numOrNull(r, 'bars', 'open'),
    high: numOrNull(r, 'bars', 'high'),
    low: numOrNull(r, 'bars', 'low'),
    close: numOrNull(r, 'bars', 'close'),
    volume: numOrNull(r, 'bars', 'volume'),
  };
}

/** A held bar's prices by symbol (for comparing a day's closing file). */
export type SymbolPrices = Prices & { symbol: string };

export function symbolPricesOf(r: DbRow): SymbolPrices {
  return {
    symbol: str(r, 'bars', 'symbol'),
    open: numOrNull(r, 'bars', 'open'),
    high: numOrNull(r, 'bars', 'high'),
    low: numOrNull(r, 'bars', 'low'),
    close: numOrNull(r, 'bars', 'close'),
    volume: numOrNull(r, 'bars', 'volume'),
  };
}

/** A held index level. */
export interface LevelRow {
  code: string;
  day: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

export function levelRowOf(r: DbRow): LevelRow {
  return {
    code: str(r, 'index_levels', 'code'),
    day: num(r, 'index_levels', 'day'),
    open: numOrNull(r, 'index_levels', 'open'),
    high: numOrNull(r, 'index_levels', 'high'),
    low: numOrNull(r, 'index_levels', 'low'),
    close: numOrNull(r, 'index_levels', 'close'),
    volume: numOrNull(r, 'index_levels', 'volume'),
  };
}

/** One `[day, value]` pair of a field read as arrays (the close panel's hot path: no object per row). */
export function dayValueOf(r: readonly unknown[], column: string): [number, number | null] {
  const day = r[0];
  const value = r[1];
  if (typeof day !== 'number') throw new ArchiveRowError('bars', 'day', 'a number', day);
  if (typeof value !== 'number' && value !== null) {
    throw new ArchiveRowError('bars', column, 'a number or null', value);
  }
  return r as [number, number | null];
}

/**
 * One symbol's field as PostgreSQL aggregates it: its days, and its values as a float8[]'s text
 * (null for a symbol without bars).
 */
export function fieldRowOf(
  r: readonly unknown[],
  column: string,
): { symbol: string; days: number[] | null; values: string | null } {
  const [symbol, days, values] = r;
  if (typeof symbol !== 'string') throw new ArchiveRowError('bars', 'symbol', 'text', symbol);
  if (days !== null && !(Array.isArray(days) && (days.length === 0 || typeof days[0] === 'number'))) {
    throw new ArchiveRowError('bars', 'day', 'an array of numbers', days);
  }
  if (values !== null && typeof values !== 'string') {
    throw new ArchiveRowError('bars', column, "a float8[]'s text", values);
  }
  return { symbol, days: days as number[] | null, values };
}

export function factorRowOf(r: DbRow): FactorRow {
  return {
    symbol: str(r, 'adjustment_factors', 'symbol'),
    day: num(r, 'adjustment_factors', 'day'),
    kind: str(r, 'adjustment_factors', 'kind'),
    seq: num(r, 'adjustment_factors', 'seq'),
    factor: num(r, 'adjustment_factors', 'factor'),
    ratio: numOrNull(r, 'adjustment_factors', 'ratio'),
    amount: numOrNull(r, 'adjustment_factors', 'amount'),
  };
}

export function coverageRowOf(r: DbRow): CoverageRow {
  return {
    symbol: str(r, 'adjustment_coverage', 'symbol'),
    checked_at: num(r, 'adjustment_coverage', 'checked_at'),
    checked_through: num(r, 'adjustment_coverage', 'checked_through'),
    series_start: numOrNull(r, 'adjustment_coverage', 'series_start'),
    dividends_from: numOrNull(r, 'adjustment_coverage', 'dividends_from'),
    dividends_known: flag(r, 'adjustment_coverage', 'dividends_known'),
  };
}

export function storedFileRowOf(r: DbRow): StoredFileRow {
  return {
    day: num(r, 'file_rows', 'day'),
    symbol: str(r, 'file_rows', 'symbol'),
    kind: str(r, 'file_rows', 'kind'),
    sector: str(r, 'file_rows', 'sector'),
    name: str(r, 'file_rows', 'name'),
    marker: strOrNull(r, 'file_rows', 'marker'),
    open: numOrNull(r, 'file_rows', 'open'),
    high: numOrNull(r, 'file_rows', 'high'),
    low: numOrNull(r, 'file_rows', 'low'),
    close: numOrNull(r, 'file_rows', 'close'),
    volume: numOrNull(r, 'file_rows', 'volume'),
    ldcp: numOrNull(r, 'file_rows', 'ldcp'),
    underlying: strOrNull(r, 'file_rows', 'underlying'),
    contract_month: strOrNull(r, 'file_rows', 'contract_month'),
    cash_settled: flagOrNull(r, 'file_rows', 'cash_settled'),
    series: strOrNull(r, 'file_rows', 'series'),
  };
}
