// One rule for bad input, walked over every parameter of every endpoint the OpenAPI document
// lists: the query as a set is wrong (a parameter the endpoint does not take, one given empty or
// twice, two that contradict each other) → 400; one value is wrong or a required one is missing →
// 422 (docs/api.md, "400 or 422"). Every message names the parameter first, in one style, with
// the client's input quoted and its quotes and parentheses balanced.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

let portal: FakePortal;
let svc: RunningService;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
});
after(async () => {
  await svc.close();
  await portal.close();
});

/** A good and a bad value for every query parameter; a parameter missing here fails the walk. */
const QUERY_VALUES: Record<string, { good: string; bad: string }> = {
  format: { good: 'json', bad: 'xml' },
  symbols: { good: 'ENGRO', bad: 'HBL,%3Cx%3E' },
  q: { good: 'eng', bad: 'x'.repeat(101) },
  index: { good: 'KSE100', bad: 'x'.repeat(41) },
  start: { good: '2025-01-02', bad: '2025-02-30' },
  end: { good: '2025-01-03', bad: '03-01-2025' },
  order: { good: 'asc', bad: 'up' },
  limit: { good: '5', bad: 'abc' },
  adjusted: { good: 'true', bad: 'yes' },
  dividends: { good: 'false', bad: '1' },
  period: { good: 'annual', bad: 'monthly' },
  category: { good: 'others', bad: 'dividends' },
  interval: { good: '5m', bad: '2m' },
  by: { good: 'gainers', bad: 'sideways' },
  ready: { good: '0', bad: 'yes' },
  date: { good: '2026-11-20', bad: '2026-13-01' },
  from: { good: '2026-11-01', bad: '11/01/2026' },
  to: { good: '2026-11-20', bad: '2026-11-31' },
  kind: { good: 'bonus', bad: 'dividend' },
  symbol: { good: 'ENGRO', bad: 'EN%20GRO' },
  type: { good: 'AGM', bad: 'x' },
  cursor: { good: 'abc', bad: '%21%21' },
  benchmark: { good: 'KSE100', bad: 'x'.repeat(41) },
  i: { good: 'sma:20', bad: 'x'.repeat(401) },
  sector: { good: '0801', bad: 'x'.repeat(61) },
  movers: { good: '5', bad: 'abc' },
  layout: { good: 'long', bad: 'tall' },
  field: { good: 'close', bad: 'price' },
  market: { good: 'equities', bad: 'bonds' },
};

/** Where one endpoint takes other values under a shared name (`path?name`). */
const QUERY_VALUES_AT: Record<string, { good: string; bad: string }> = {
  '/announcements?type': { good: 'psx', bad: 'sec' },
  '/market/performance?period': { good: '1M', bad: '2M' },
  '/sectors/performance?period': { good: '1M', bad: '2M' },
};

const queryValues = (path: string, name: string): { good: string; bad: string } | undefined =>
  QUERY_VALUES_AT[`${path}?${name}`] ?? QUERY_VALUES[name];

/** A good and a bad value for every path parameter. */
const PATH_VALUES: Record<string, { good: string; bad: string }> = {
  symbol: { good: 'ENGRO', bad: 'EN%20GRO' },
  name: { good: 'KSE100', bad: 'x'.repeat(101) },
  code: { good: 'BAFLTFC8', bad: 'EN%20GRO' },
  board: { good: 'futures', bad: 'regular' },
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

interface Operation {
  path: string;
  parameters: Parameter[];
}

async function operations(): Promise<Operation[]> {
  const doc = (await http(svc.url, '/openapi.json')).json as {
    paths: Record<string, { get?: { parameters?: Parameter[] } }>;
  };
  return Object.entries(doc.paths)
    .filter(([, item]) => item.get !== undefined)
    .map(([path, item]) => ({ path, parameters: item.get!.parameters ?? [] }));
}

/** The operation's URL with good path parameters and its required query parameters, minus `skip`. */
function urlOf(op: Operation, query: string[], skip?: string): string {
  let path = op.path;
  for (const p of op.parameters.filter((x) => x.in === 'path'))
    path = path.replace(`{${p.name}}`, PATH_VALUES[p.name]!.good);
  const required = op.parameters
    .filter((p) => p.in === 'query' && p.required && p.name !== skip)
    .map((p) => `${p.name}=${queryValues(op.path, p.name)!.good}`);
  const all = [...required, ...query];
  return all.length > 0 ? `${path}?${all.join('&')}` : path;
}

/** One message style: no validator words, quotes and parentheses balanced outside quoted input. */
function assertStyle(message: string, label: string): void {
  assert.doesNotMatch(
    message,
    /must have required property|must match|must be equal to|must NOT|\bshould\b/,
    label,
  );
  const outside = message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/""/g, '');
  assert.doesNotMatch(outside, /"/, `balanced quotes: ${label}`);
  let depth = 0;
  for (const ch of outside) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    assert.ok(depth >= 0, `balanced parentheses: ${label}`);
  }
  assert.equal(depth, 0, `balanced parentheses: ${label}`);
  assert.ok(![...message].some((ch) => ch.charCodeAt(0) < 0x20), `no control characters: ${label}`);
}

async function expectError(url: string, status: number, message: RegExp): Promise<void> {
  const res = await http(svc.url, url);
  const label = `GET ${url} → ${res.status} ${res.text.slice(0, 200)}`;
  assert.equal(res.status, status, label);
  assertError(res.json, status, 'bad_request', message);
  assertStyle(res.json.error.message, label);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('one rule for bad input, on every parameter of every endpoint', () => {
  it('walks every query and path parameter the OpenAPI document lists', async () => {
    const ops = await operations();
    assert.ok(ops.length >= 20, `the document lists the endpoints (${ops.length})`);
    let walked = 0;
    for (const op of ops) {
      if (op.path === '/openapi.json') continue;
      for (const p of op.parameters) {
        if (p.in === 'header') continue;
        if (p.in === 'path') {
          const values = PATH_VALUES[p.name];
          assert.ok(values, `a bad value for path parameter ${p.name} of ${op.path}`);
          const url = urlOf(op, []).replace(PATH_VALUES[p.name]!.good, values.bad);
          await expectError(url, 422, new RegExp(`^${p.name} must be .* \\(got ".*"\\)$`));
          walked++;
          continue;
        }
        const values = queryValues(op.path, p.name);
        assert.ok(values, `a good and a bad value for query parameter ${p.name} of ${op.path}`);
        const name = escape(p.name);
        // A value of the wrong form: 422, naming what it must be and what was given.
        await expectError(
          urlOf(op, [`${p.name}=${values.bad}`], p.name),
          422,
          new RegExp(`^${name} must .* \\(got ".*"\\)$`),
        );
        // Given empty: 400.
        await expectError(urlOf(op, [`${p.name}=`], p.name), 400, new RegExp(`^${name} must not be empty`));
        // Given twice: 400.
        await expectError(
          urlOf(op, [`${p.name}=${values.good}`, `${p.name}=${values.good}`], p.name),
          400,
          new RegExp(`^${name} may be given only once$`),
        );
        // Missing when required: 422, in words a person wrote.
        if (p.required) {
          await expectError(urlOf(op, [], p.name), 422, new RegExp(`^${name} is required: .*e\\.g\\. `));
        }
        walked++;
      }
      // A parameter the endpoint does not take: 400, naming it and the ones it takes.
      await expectError(
        urlOf(op, ['colour=red']),
        400,
        /^unknown query parameter "colour"; this endpoint takes /,
      );
    }
    assert.ok(walked >= 30, `walked ${walked} parameters`);
  });

  it('says what to send when a required parameter is missing, never the validator’s words', async () => {
    for (const path of ['/quotes', '/stream/quotes']) {
      await expectError(
        path,
        422,
        /^symbols is required: a comma-separated list of up to 100 symbols, .*e\.g\. symbols=ENGRO,HBL$/,
      );
    }
  });

  it('names the accepted values and quotes what was given, escaped and cut short', async () => {
    await expectError('/stocks/ENGRO/historical?order=up', 422, /^order must be asc or desc \(got "up"\)$/);
    await expectError('/screener?format=xml', 422, /^format must be json, csv or parquet \(got "xml"\)$/);
    await expectError(
      '/stocks/ENGRO/financials?period=x',
      422,
      /^period must be annual or quarterly \(got "x"\)$/,
    );
    await expectError(
      '/stocks/ENGRO/historical?adjusted=yes',
      422,
      /^adjusted must be true or false \(got "yes"\)$/,
    );
    await expectError(
      '/stocks/ENGRO/intraday?interval=2m',
      422,
      /^interval must be tick, 1m, .* or 60m \(got "2m"\)$/,
    );
    await expectError('/stocks/ENGRO/historical?limit=0', 422, /^limit must be at least 1 \(got "0"\)$/);
    // Quotes, parentheses and control characters in the input stay inside one escaped string.
    const res = await http(svc.url, '/stocks/ENGRO/historical?order=%22(%0A' + 'y'.repeat(80));
    assert.equal(res.status, 422);
    assert.match(res.json.error.message, /^order must be asc or desc \(got "\\"\(\\ny+…"\)$/);
    assertStyle(res.json.error.message, res.text);
  });

  it('keeps well-formed parameters that contradict each other a 400', async () => {
    await expectError(
      '/stocks/ENGRO/historical?start=2025-02-01&end=2025-01-01',
      400,
      /^start \(2025-02-01\) is after end \(2025-01-01\)$/,
    );
    await expectError('/stocks/ENGRO/historical?dividends=true', 400, /with adjusted=true/);
  });

  it('counts symbols in a list: none is empty (400), too many or a malformed one a wrong value (422)', async () => {
    await expectError('/quotes?symbols=,,', 400, /^symbols must not be empty: give at least one symbol/);
    const many = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
    await expectError(
      `/quotes?symbols=${many}`,
      422,
      /^symbols must name at most 100 symbols per request \(got 101\)$/,
    );
    await expectError('/quotes?symbols=HBL,%3Cx%3E', 422, /^symbols must be symbols of .* \(got "<X>"\)$/);
  });
});

describe('Accept: JSON or CSV', () => {
  it('answers a tie between JSON and CSV with JSON, whatever the order', async () => {
    for (const accept of [
      'text/csv, application/json',
      'application/json, text/csv',
      '*/*',
      'text/csv;q=0.8, application/json;q=0.8',
    ]) {
      const res = await http(svc.url, '/sectors', { headers: { accept } });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type']!, /^application\/json/, accept);
    }
  });

  it('answers CSV when CSV is preferred or JSON refused', async () => {
    for (const accept of [
      'application/json;q=0, text/csv',
      'text/csv',
      'text/csv, */*',
      'application/json;q=0.5, text/csv',
    ]) {
      const res = await http(svc.url, '/sectors', { headers: { accept } });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type']!, /^text\/csv/, accept);
    }
  });
});
