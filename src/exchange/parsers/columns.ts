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
  /**
   * The page prints this column in only some of its variants (a bond board's yields): its absence
   * is no drift. Every other column a parsed table lacks is reported (page health, the canary).
   */
  readonly sometimes?: boolean;
  /** Columns sharing a `oneOf` name are alternatives: drift only when the table has none of them. */
  readonly oneOf?: string;
}

export type ColumnSpecs = Readonly<Record<string, ColumnSpec>>;

/** Column positions by key; -1 for a column the table does not have. */
export type Columns<S extends ColumnSpecs> = { readonly [K in keyof S]: number };

export interface LocatedTable<S extends ColumnSpecs> {
  readonly table: Table;
  readonly columns: Columns<S>;
}

/** A column's name in reports (page health, the canary): its first label, as the portal heads it. */
function fieldName(key: string, spec: ColumnSpec): string {
  return spec.labels[0] ?? key;
}

/**
 * The fields one parse looked for and the ones it did not find: every column or label its parser
 * expects, not only the required ones, so that a renamed optional column (served as null) is seen.
 */
export interface FieldReport {
  readonly expected: readonly string[];
  readonly missing: readonly string[];
}

interface FieldCollector {
  expected: Set<string>;
  missing: Set<string>;
}

// Parsers are synchronous and pure, so the parse in progress is the only one that can note fields:
// one collector at a time, set around the call by collectFields. The parsers keep their signatures.
let collector: FieldCollector | null = null;

/** A parse's outcome: what it produced, or what it threw, with the fields it noted either way. */
export type Collected<T> =
  | { readonly ok: true; readonly value: T; readonly fields: FieldReport }
  | { readonly ok: false; readonly error: unknown; readonly fields: FieldReport };

/** Runs `parse`, catching what it throws, and returns its outcome with the fields it did not find. */
export function collectFields<T>(parse: () => T): Collected<T> {
  const outer = collector;
  const current: FieldCollector = { expected: new Set(), missing: new Set() };
  collector = current;
  try {
    const value = parse();
    return { ok: true, value, fields: reportOf(current) };
  } catch (error) {
    return { ok: false, error, fields: reportOf(current) };
  } finally {
    collector = outer;
  }
}

function reportOf(c: FieldCollector): FieldReport {
  return { expected: [...c.expected], missing: [...c.missing] };
}

/**
 * A parser's own note of fields it reads by label rather than by column (the company page's
 * sections): `missing` are those of `expected` it did not find. Outside collectFields, nothing.
 */
export function noteFields(expected: readonly string[], missing: readonly string[]): void {
  if (collector === null) return;
  for (const name of expected) collector.expected.add(name);
  for (const name of missing) collector.missing.add(name);
}

function noteColumns(specs: ColumnSpecs, columns: Readonly<Record<string, number>>): void {
  if (collector === null) return;
  const alternatives = new Map<string, { names: string[]; found: boolean }>();
  for (const key of Object.keys(specs)) {
    const spec = specs[key] as ColumnSpec;
    const name = fieldName(key, spec);
    const found = (columns[key] ?? -1) >= 0;
    if (spec.oneOf !== undefined) {
      const group = alternatives.get(spec.oneOf) ?? { names: [], found: false };
      group.names.push(name);
      group.found ||= found;
      alternatives.set(spec.oneOf, group);
      continue;
    }
    if (spec.sometimes === true && !found) continue;
    collector.expected.add(name);
    if (!found) collector.missing.add(name);
  }
  for (const { names, found } of alternatives.values()) {
    const name = names.join(' or ');
    collector.expected.add(name);
    if (!found) collector.missing.add(name);
  }
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
    if (index < 0 && spec.required === true && missing === null) missing = fieldName(key, spec);
  }
  // A table with every required column is the one the parser reads: what it lacks is drift.
  if (missing === null) noteColumns(specs, columns);
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
  let firstColumns: Record<string, number> | null = null;
  for (const table of candidates) {
    const { columns, missing } = locateColumns(table, specs);
    if (missing === null) return { table, columns };
    firstMissing ??= missing;
    firstColumns ??= columns;
  }
  if (firstMissing === null || firstColumns === null) throw new UpstreamDataError(kind, 'no table');
  noteColumns(specs, firstColumns);
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
