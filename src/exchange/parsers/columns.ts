// Columns are found by header text, never by position: the portal adds, drops and reorders columns
// (an index's table has FREEFLOAT (M) or SHARES (M); the sector summary once had commented-out
// Open/Current/Change columns).
import { UpstreamDataError } from '../../errors.ts';
import type { PageKind } from '../types.ts';
import type { Cell, Row, Table } from '../html/table.ts';

export interface ColumnSpec {
  /** Accepted header texts, lowercased with whitespace collapsed (`idx point`, not `IDX POINT `). */
  readonly labels: readonly string[];
  /** The `th`'s `data-name`, a fallback should the visible label be reworded. */
  readonly dataName?: string;
  readonly required?: boolean;
}

export type ColumnSpecs = Readonly<Record<string, ColumnSpec>>;

/** Column positions by key; -1 for a column the table does not have. */
export type Columns<S extends ColumnSpecs> = { readonly [K in keyof S]: number };

export interface LocatedTable<S extends ColumnSpecs> {
  readonly table: Table;
  readonly columns: Columns<S>;
}

/**
 * A header's key for loose matching: the whole cell's text with every space dropped. Header cells
 * are built of inline pieces (`<span>Coupon/</span><br/><span>Rental Rate</span>` reads
 * `coupon/ rental rate`), so `coupon/rental rate` and `coupon / rental rate` must meet.
 */
export function headerKey(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** Where `label` sits among `headers`: the exact text first, then the loose key (headerKey). */
export function headerIndex(headers: readonly string[], label: string): number {
  const exact = headers.indexOf(label);
  if (exact >= 0) return exact;
  const key = headerKey(label);
  return headers.findIndex((h) => headerKey(h) === key);
}

function findColumn(table: Table, spec: ColumnSpec): number {
  for (const label of spec.labels) {
    const index = headerIndex(table.headers, label);
    if (index >= 0) return index;
  }
  return spec.dataName === undefined ? -1 : table.headerNames.indexOf(spec.dataName);
}

/** Locate every column of `specs`; `missing` names the first required column not found. */
export function locateColumns<S extends ColumnSpecs>(
  table: Table,
  specs: S,
): { columns: Columns<S>; missing: string | null } {
  const columns: Record<string, number> = {};
  let missing: string | null = null;
  for (const key of Object.keys(specs)) {
    const spec = specs[key] as ColumnSpec;
    const index = findColumn(table, spec);
    columns[key] = index;
    if (index < 0 && spec.required === true && missing === null) missing = spec.labels[0] ?? key;
  }
  return { columns: columns as Columns<S>, missing };
}

/**
 * The first of `candidates` (in the caller's order of preference) that has every required column.
 * Throws `no table` when there are no candidates, else `missing column …` for the first one.
 */
export function selectTable<S extends ColumnSpecs>(
  kind: PageKind,
  candidates: readonly Table[],
  specs: S,
): LocatedTable<S> {
  let firstMissing: string | null = null;
  for (const table of candidates) {
    const { columns, missing } = locateColumns(table, specs);
    if (missing === null) return { table, columns };
    firstMissing ??= missing;
  }
  if (firstMissing === null) throw new UpstreamDataError(kind, 'no table');
  throw new UpstreamDataError(kind, `missing column "${firstMissing}"`);
}

/** The tables with this `id` first, then the rest: a renamed id falls back to the headers. */
export function preferTableId(tables: readonly Table[], id: string): Table[] {
  return [...tables.filter((t) => t.id === id), ...tables.filter((t) => t.id !== id)];
}

/** The row's cell in a located column; undefined when the column is absent or the row short. */
export function cellAt(row: Row, column: number): Cell | undefined {
  return column < 0 ? undefined : row[column];
}

/** Guard for callers outside the type system (a body that is not text): UpstreamDataError. */
export function requirePageText(kind: PageKind, page: unknown): string {
  if (typeof page !== 'string') throw new UpstreamDataError(kind, 'the response is not text');
  return page;
}
