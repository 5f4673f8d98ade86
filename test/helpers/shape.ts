// Exact-shape assertions for the spec's envelopes: the right keys, and nothing else.
import { NO_EXTRAS } from '../../src/market/quotes/quote-extras.ts';
import assert from 'node:assert/strict';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

function kindOf(value: unknown): FieldKind[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value as FieldKind];
}

/** Every key of `row` is in `fields` (and required ones are present) with one of the allowed kinds. */
export function assertRow(
  row: Record<string, unknown>,
  fields: Record<string, readonly FieldKind[]>,
  optional: string[] = [],
): void {
  for (const [key, kinds] of Object.entries(fields)) {
    if (!(key in row)) {
      assert.ok(optional.includes(key), `missing field ${key} in ${JSON.stringify(row)}`);
      continue;
    }
    const actual = kindOf(row[key]);
    assert.ok(
      actual.some((k) => kinds.includes(k)),
      `${key} is ${actual[0]} (${JSON.stringify(row[key])}), expected ${kinds.join('|')}`,
    );
  }
  for (const key of Object.keys(row)) assert.ok(key in fields, `unexpected field ${key}`);
}

export function assertListEnvelope(body: Record<string, unknown>, cached?: boolean): unknown[] {
  assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
  const meta = body.meta as Record<string, unknown>;
  assert.deepEqual(Object.keys(meta).sort(), ['as_of', 'cached', 'count', 'timestamp']);
  assertAsOf(meta.as_of);
  assert.ok(Array.isArray(body.data), 'data is an array');
  assert.equal(meta.count, (body.data as unknown[]).length);
  assertTimestamp(meta.timestamp);
  assert.equal(typeof meta.cached, 'boolean');
  if (cached !== undefined) assert.equal(meta.cached, cached);
  return body.data as unknown[];
}

export function assertSingleEnvelope(
  body: Record<string, unknown>,
  cached?: boolean,
): Record<string, unknown> {
  assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
  const meta = body.meta as Record<string, unknown>;
  // Answers built from portal data say when the data is from; health is not one of them.
  const portalData = 'as_of' in meta;
  assert.deepEqual(
    Object.keys(meta).sort(),
    portalData ? ['as_of', 'cached', 'timestamp'] : ['cached', 'timestamp'],
  );
  if (portalData) assertAsOf(meta.as_of);
  assertTimestamp(meta.timestamp);
  if (cached !== undefined) assert.equal(meta.cached, cached);
  assert.equal(typeof body.data, 'object');
  return body.data as Record<string, unknown>;
}

export function assertError(
  body: Record<string, unknown>,
  status: number,
  code: string,
  message?: string | RegExp,
): void {
  assert.deepEqual(Object.keys(body), ['error'], `only an error key: ${JSON.stringify(body)}`);
  const error = body.error as Record<string, unknown>;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'status']);
  assert.equal(error.status, status);
  assert.equal(error.code, code);
  assert.equal(typeof error.message, 'string');
  if (typeof message === 'string') assert.equal(error.message, message);
  else if (message) assert.match(error.message as string, message);
}

function assertTimestamp(value: unknown): void {
  assert.equal(typeof value, 'string');
  assert.match(value as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  assert.ok(Math.abs(Date.parse(value as string) - Date.now()) < 60_000, 'timestamp is now');
}

/** `meta.as_of`: ISO 8601 with an explicit offset, to the second. */
export function assertAsOf(value: unknown): void {
  assert.equal(typeof value, 'string');
  assert.match(value as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  assert.ok(!Number.isNaN(Date.parse(value as string)));
}

/**
 * A quote without the extras that come from the company page: those arrive in the background
 * (src/market/quotes/quote-extras.ts), so two reads moments apart may differ in them and nothing else.
 */
export function withoutCompanyExtras(quote: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...quote };
  for (const key of Object.keys(NO_EXTRAS)) delete rest[key];
  return rest;
}
