// Apache Parquet for tabular answers (`?format=parquet`, `Accept: application/vnd.apache.parquet`):
// the same rows, in the same order, as the JSON answer, one typed column per field, and the
// answer's meta in the file's key-value metadata (key `meta`, JSON), so a DataFrame read from the
// file still knows its `as_of`, an incomplete panel or a partial adjustment.
//
// A column's type follows its values, the way the JSON answer writes them: `YYYY-MM-DD` strings are
// DATE; ISO 8601 times with an offset are TIMESTAMP(MILLIS, adjusted to UTC), an instant readers
// show in any zone (the service's are Asia/Karachi, +05:00); booleans BOOLEAN; counts of shares
// and trades INT64 (by name, so a price column never turns integer because one day's prices were
// round); other numbers DOUBLE; other strings UTF8 (codes such as `0809` and symbols such as `786`
// stay strings); lists of strings LIST<UTF8>; objects and lists of objects JSON. A column without
// any value takes the type its name implies (a count, a date, a time, a price or ratio), else UTF8.
// Pages are gzip-compressed.
import zlib from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { columnOrder } from './csv.ts';

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];
type ColumnSource = Parameters<typeof parquetWriteBuffer>[0]['columnData'][number];

export const PARQUET_TYPE = 'application/vnd.apache.parquet';

// Fields that count whole things: shares, trades, symbols, rows, days.
const INTEGER_NAME =
  /(^|_)(volume|turnover|trades|advance|advances|decline|declines|unchanged|total|members|members_counted|count|rows|days|positions)$|^(sector|table|status|symbols_done|symbols_total|eta_seconds|actions_left|fetches_per_minute|rank|with_data)$/;
// Prices, ratios and amounts: a column of them without any value (an adjustment unavailable: every
// adjustment_factor null) keeps its type.
const DOUBLE_NAME =
  /(^|_)(open|high|low|close|price|ldcp|change|pct|ratio|yield|factor|cap|value|return|weight|point|index|var|haircut|m|b)$/;
const DATE_NAME = /(^|_)date$|^(first_date|last_date|archive_from|archive_to)$/;
const TIME_NAME = /(^|_)(time|as_of|at)$/;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

type Kind = 'date' | 'timestamp' | 'boolean' | 'int64' | 'double' | 'string' | 'list' | 'json';

export interface ParquetOptions {
  /** Columns holding whole counts that their names do not reveal (a wide panel of volumes). */
  integerColumns?: readonly string[];
}

/**
 * The rows as a Parquet file. `columns`: the columns of an empty list (the model's fields), or of
 * a list of strings (`['symbol']`); `meta`: the answer's meta, kept in the file's metadata.
 */
export function toParquet(
  rows: readonly unknown[],
  columns: readonly string[],
  meta: Record<string, unknown>,
  options: ParquetOptions = {},
): Buffer {
  const table = tableOf(rows, columns);
  const integers = new Set(options.integerColumns ?? []);
  const schema: SchemaElement[] = [{ name: 'root', num_children: table.length }];
  const columnData: ColumnSource[] = [];
  for (const [name, values] of table) {
    const kind = kindOf(name, values, integers.has(name));
    schema.push(...elementsOf(name, kind));
    columnData.push({
      name,
      data: valuesOf(kind, values) as ColumnSource['data'],
      // Dates and counts ascend or stay close row to row: their deltas pack into a few bits.
      ...(kind === 'date' || kind === 'int64' || kind === 'timestamp'
        ? { encoding: 'DELTA_BINARY_PACKED' }
        : {}),
    });
  }
  const bytes = parquetWriteBuffer({
    columnData,
    schema,
    // gzip (zlib, native, its fastest level) packs prices a third smaller than the library's own
    // snappy (written in JavaScript), in less time; every Parquet reader reads it (bench/README.md).
    codec: 'GZIP',
    compressors: { GZIP: (input: Uint8Array) => zlib.gzipSync(input, { level: 1 }) },
    // Min/max statistics serve skipping row groups; an answer is one row group, read whole.
    statistics: false,
    // One row group for any answer the service serves (a 100-symbol panel is ~125 000 rows): a
    // reader gets whole-column statistics, and small files carry one set of headers.
    rowGroupSize: 1_000_000,
    kvMetadata: [{ key: 'meta', value: JSON.stringify(meta) }],
    createdBy: 'psx-market-data',
  });
  return Buffer.from(bytes);
}

/** Column name → its values in row order; the columns of the CSV, the model's when there are no rows. */
function tableOf(rows: readonly unknown[], columns: readonly string[]): Array<[string, unknown[]]> {
  if (rows.length === 0) return columns.map((c) => [c, []]);
  if (typeof rows[0] !== 'object' || rows[0] === null) return [[columns[0] ?? 'value', [...rows]]];
  return columnOrder(rows as Array<Record<string, unknown>>, columns).map((name) => [
    name,
    (rows as Array<Record<string, unknown>>).map((row) => row[name] ?? null),
  ]);
}

function kindOf(name: string, values: readonly unknown[], integer: boolean): Kind {
  let seen = 0;
  let numbers = 0;
  let integers = 0;
  let booleans = 0;
  let dates = 0;
  let times = 0;
  let strings = 0;
  let stringLists = 0;
  let objects = 0;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    seen++;
    if (typeof v === 'number') {
      numbers++;
      if (Number.isSafeInteger(v)) integers++;
    } else if (typeof v === 'boolean') booleans++;
    else if (typeof v === 'string') {
      strings++;
      if (DATE.test(v)) dates++;
      else if (TIMESTAMP.test(v)) times++;
    } else if (Array.isArray(v) && v.every((e) => typeof e === 'string')) stringLists++;
    else objects++;
  }
  if (seen === 0) {
    if (integer || INTEGER_NAME.test(name)) return 'int64';
    if (DATE_NAME.test(name)) return 'date';
    if (TIME_NAME.test(name)) return 'timestamp';
    if (DOUBLE_NAME.test(name)) return 'double';
    return 'string';
  }
  if (numbers === seen) return integers === seen && (integer || INTEGER_NAME.test(name)) ? 'int64' : 'double';
  if (booleans === seen) return 'boolean';
  if (strings === seen) return dates === seen ? 'date' : times === seen ? 'timestamp' : 'string';
  if (stringLists === seen) return 'list';
  if (objects + stringLists === seen) return 'json';
  return 'string'; // mixed scalars: written as text, as CSV would
}

function elementsOf(name: string, kind: Kind): SchemaElement[] {
  const optional = 'OPTIONAL' as const;
  switch (kind) {
    case 'date':
      return [
        {
          name,
          type: 'INT32',
          converted_type: 'DATE',
          logical_type: { type: 'DATE' },
          repetition_type: optional,
        },
      ];
    case 'timestamp':
      return [
        {
          name,
          type: 'INT64',
          converted_type: 'TIMESTAMP_MILLIS',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
          repetition_type: optional,
        },
      ];
    case 'boolean':
      return [{ name, type: 'BOOLEAN', repetition_type: optional }];
    case 'int64':
      return [{ name, type: 'INT64', repetition_type: optional }];
    case 'double':
      return [{ name, type: 'DOUBLE', repetition_type: optional }];
    case 'list':
      return [
        {
          name,
          converted_type: 'LIST',
          logical_type: { type: 'LIST' },
          repetition_type: optional,
          num_children: 1,
        },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional },
      ];
    case 'json':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: optional }];
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: optional }];
  }
}

function valuesOf(kind: Kind, values: unknown[]): unknown[] {
  switch (kind) {
    case 'date': {
      // A panel repeats each date once per symbol: each is parsed once.
      const days = new Map<string, number>();
      return values.map((v) => {
        if (typeof v !== 'string') return null;
        let day = days.get(v);
        if (day === undefined) days.set(v, (day = Date.parse(`${v}T00:00:00Z`) / DAY_MS));
        return day;
      });
    }
    case 'timestamp':
      return values.map((v) => (typeof v === 'string' ? BigInt(Date.parse(v)) : null));
    case 'int64':
      return values.map((v) => (typeof v === 'number' ? BigInt(v) : null));
    case 'string':
      return values.map((v) =>
        v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v),
      );
    default:
      return values;
  }
}
