// Every tabular answer as Apache Parquet over real HTTP, read back with an independent reader (the
// official DuckDB client, its own C++ Parquet reader) and compared with the JSON answer: the same
// rows in the same order, typed columns, the meta in the file's key-value metadata. Also the
// headers that carry the meta CSV and Parquet bodies cannot show (X-As-Of, X-Warning, X-Meta).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

let portal: FakePortal;
let svc: RunningService;
let duck: DuckDBConnection;
let dir: string;
let files = 0;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  dir = mkdtempSync(join(tmpdir(), 'psxmd-parquet-'));
});
after(async () => {
  duck?.closeSync();
  rmSync(dir, { recursive: true, force: true });
  await svc.close();
  await portal.close();
});

interface ReadBack {
  types: Record<string, string>;
  rows: Array<Record<string, unknown>>;
  meta: Record<string, unknown>;
}

async function parquetOf(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${svc.url}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body };
}

/** Reads a Parquet file with DuckDB: its column types, its rows, its `meta` key. */
async function readBack(body: Buffer): Promise<ReadBack> {
  const file = join(dir, `${files++}.parquet`);
  writeFileSync(file, body);
  const described = await duck.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
  const types = Object.fromEntries(
    described.getRowObjectsJS().map((r) => [String(r.column_name), String(r.column_type)]),
  );
  const rows = (await duck.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJS();
  const kv = await duck.runAndReadAll(
    `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}')`,
  );
  const meta = kv.getRowObjectsJS().find((r) => r.k === 'meta');
  assert.ok(meta, 'the file has a meta key');
  return { types, rows, meta: JSON.parse(String(meta.v)) as Record<string, unknown> };
}

/** A value read back, as the JSON answer writes it (`kind` is DuckDB's column type). */
function asJson(value: unknown, type: string): unknown {
  if (value === null) return null;
  if (type === 'DATE') return (value as Date).toISOString().slice(0, 10);
  if (type === 'TIMESTAMP WITH TIME ZONE') return (value as Date).getTime();
  if (typeof value === 'bigint') return Number(value);
  if (type === 'JSON') return JSON.parse(value as string);
  return value;
}

function expected(value: unknown, type: string): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'TIMESTAMP WITH TIME ZONE') return Date.parse(value as string);
  return value;
}

function assertSameRows(json: { data: unknown }, back: ReadBack, path: string): void {
  const rows = (Array.isArray(json.data) ? json.data : [json.data]) as unknown[];
  assert.equal(back.rows.length, rows.length, `${path}: one row per item`);
  rows.forEach((item, i) => {
    // A list of symbols is one column of strings.
    const row = (typeof item === 'object' ? item : { symbol: item }) as Record<string, unknown>;
    const got = back.rows[i]!;
    for (const [name, value] of Object.entries(row)) {
      const type = back.types[name];
      assert.ok(type, `${path}: column ${name}`);
      assert.deepEqual(asJson(got[name], type), expected(value, type), `${path} row ${i} ${name}`);
    }
  });
}

/** The JSON meta without what is per response (timestamp, cached) or implied by the rows (count). */
function dataMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const { timestamp: _t, cached: _c, count: _n, ...rest } = meta;
  return rest;
}

describe('Parquet', () => {
  // The list: histories, panels long and wide, universe, screener, indices, sectors,
  // intraday, indicators, performance tables, rankings, payouts, calendar, announcements, debt.
  const tables: Array<[string, string]> = [
    ['/stocks', 'stocks.parquet'],
    ['/stocks/ENGRO/historical', 'ENGRO-historical.parquet'],
    ['/stocks/ENGRO/historical?adjusted=true', 'ENGRO-historical.parquet'],
    ['/historical?symbols=ENGRO,HBL,NOPE', 'panel.parquet'],
    ['/historical?symbols=ENGRO,HBL&layout=wide', 'panel-close.parquet'],
    ['/historical?symbols=ENGRO,HBL&layout=wide&field=volume', 'panel-volume.parquet'],
    ['/screener', 'screener.parquet'],
    ['/indices', 'indices.parquet'],
    ['/indices/KSE100', 'index-KSE100.parquet'],
    ['/indices/KSE100/historical', 'KSE100-historical.parquet'],
    ['/sectors', 'sectors.parquet'],
    ['/sectors/0801/stocks', 'sector-0801.parquet'],
    ['/stocks/ENGRO/intraday', 'ENGRO-intraday-5m.parquet'],
    ['/indices/KSE100/intraday', 'KSE100-intraday-5m.parquet'],
    ['/stocks/ENGRO/indicators?i=sma:20,rsi:14', 'ENGRO-indicators.parquet'],
    ['/stocks/ENGRO/performance', 'ENGRO-performance.parquet'],
    ['/market/performance', 'market-performance-1M.parquet'],
    ['/sectors/performance', 'sectors-performance-1M.parquet'],
    ['/market/payouts', 'market-payouts.parquet'],
    ['/market/calendar', 'calendar.parquet'],
    ['/announcements', 'announcements.parquet'],
    ['/debt', 'debt.parquet'],
    ['/quotes?symbols=ENGRO,786,NOPE', 'quotes.parquet'],
    ['/market/movers', 'movers-gainers.parquet'],
  ];
  for (const [path, filename] of tables) {
    it(`${path}: the JSON answer's rows, typed, with its meta`, async () => {
      // The same version of the answer in both forms (a quote's extras arrive in the background).
      let json = await http(svc.url, path);
      let res = await parquetOf(`${path}${path.includes('?') ? '&' : '?'}format=parquet`);
      for (let i = 0; i < 5 && res.headers.etag !== `${json.headers.etag!.slice(0, -1)}-parquet"`; i++) {
        json = await http(svc.url, path);
        res = await parquetOf(`${path}${path.includes('?') ? '&' : '?'}format=parquet`);
      }
      assert.equal(json.status, 200, json.text);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/vnd.apache.parquet');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${filename}"`);
      assert.equal(res.body.subarray(0, 4).toString(), 'PAR1');
      assert.equal(res.headers['x-as-of'], json.json.meta.as_of);
      const back = await readBack(res.body);
      assertSameRows(json.json, back, path);
      assert.deepEqual(back.meta, dataMeta(json.json.meta));
      assert.deepEqual(JSON.parse(res.headers['x-meta']!), dataMeta(json.json.meta));
    });
  }

  it('types the columns: dates DATE, times TIMESTAMPTZ, prices DOUBLE, volumes BIGINT, codes strings', async () => {
    const history = await readBack((await parquetOf('/stocks/ENGRO/historical?format=parquet')).body);
    assert.deepEqual(history.types, {
      date: 'DATE',
      open: 'DOUBLE',
      high: 'DOUBLE',
      low: 'DOUBLE',
      close: 'DOUBLE',
      volume: 'BIGINT',
      is_anomaly: 'BOOLEAN',
      anomaly_reasons: 'VARCHAR[]',
    });
    const intraday = await readBack((await parquetOf('/stocks/ENGRO/intraday?format=parquet')).body);
    assert.equal(intraday.types.time, 'TIMESTAMP WITH TIME ZONE');
    const sectors = await readBack((await parquetOf('/sectors?format=parquet')).body);
    const codes = sectors.rows.map((r) => r.sector_code);
    assert.ok(
      codes.every((c) => typeof c === 'string' && /^\d{4}$/.test(c)),
      'sector codes keep their leading zeros',
    );
    assert.ok(codes.includes('0801'));
    const quotes = await readBack((await parquetOf('/quotes?symbols=786,ENGRO&format=parquet')).body);
    assert.equal(quotes.types.symbol, 'VARCHAR');
    assert.equal(quotes.rows[0]!.symbol, '786', 'symbol 786 stays a string');
    const wide = await readBack(
      (await parquetOf('/historical?symbols=786,ENGRO&layout=wide&field=volume&format=parquet')).body,
    );
    assert.deepEqual(wide.types, { date: 'DATE', '786': 'BIGINT', ENGRO: 'BIGINT' });
  });

  it('an empty list keeps its columns', async () => {
    const json = await http(svc.url, '/stocks/ENGRO/historical?start=2031-01-01');
    assert.equal(json.json.data.length, 0);
    const back = await readBack(
      (await parquetOf('/stocks/ENGRO/historical?start=2031-01-01&format=parquet')).body,
    );
    assert.equal(back.rows.length, 0);
    assert.deepEqual(Object.keys(back.types), [
      'date',
      'open',
      'high',
      'low',
      'close',
      'volume',
      'is_anomaly',
      'anomaly_reasons',
    ]);
    assert.equal(back.types.date, 'DATE');
    assert.equal(back.types.volume, 'BIGINT');
  });

  it('is chosen by Accept, has its own ETag, and errors stay JSON', async () => {
    const byAccept = await parquetOf('/screener', { accept: 'application/vnd.apache.parquet' });
    assert.equal(byAccept.headers['content-type'], 'application/vnd.apache.parquet');
    assert.match(byAccept.headers.vary!, /accept/i);
    const json = await http(svc.url, '/screener');
    const csv = await http(svc.url, '/screener?format=csv');
    assert.notEqual(byAccept.headers.etag, json.headers.etag);
    assert.notEqual(byAccept.headers.etag, csv.headers.etag);
    const again = await parquetOf('/screener', {
      accept: 'application/vnd.apache.parquet',
      'if-none-match': byAccept.headers.etag!,
    });
    assert.equal(again.status, 304);
    // A tie goes to JSON; a preference for Parquet wins.
    const tie = await http(svc.url, '/screener', {
      headers: { accept: 'application/vnd.apache.parquet, application/json' },
    });
    assert.equal(tie.headers['content-type'], 'application/json; charset=utf-8');
    const preferred = await parquetOf('/screener', {
      accept: 'application/json;q=0.5, application/vnd.apache.parquet',
    });
    assert.equal(preferred.headers['content-type'], 'application/vnd.apache.parquet');
    // Not compressed again: the pages are compressed inside the file.
    const gz = await parquetOf('/stocks/ENGRO/historical?format=parquet', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], undefined);
    const missing = await http(svc.url, '/stocks/NOSUCH/historical?format=parquet');
    assert.equal(missing.status, 404);
    assertError(missing.json, 404, 'not_found');
    const bad = await http(svc.url, '/screener?format=xml');
    assert.equal(bad.status, 422);
    assert.match(bad.json.error.message, /format must be json, csv or parquet/);
  });
});

describe('the meta in headers', () => {
  it('X-As-Of on every data answer, JSON (also a replay), CSV and Parquet', async () => {
    for (const path of ['/screener', '/stocks/ENGRO/historical', '/stocks/ENGRO/quote', '/market/summary']) {
      const first = await http(svc.url, path);
      const replay = await http(svc.url, path);
      assert.equal(first.headers['x-as-of'], first.json.meta.as_of, path);
      assert.equal(replay.headers['x-as-of'], first.json.meta.as_of, `${path} replayed`);
      const csv = await http(svc.url, `${path}?format=csv`);
      assert.equal(csv.headers['x-as-of'], first.json.meta.as_of, `${path} as CSV`);
    }
  });

  it('a CSV whose meta warns says so in X-Warning, with the meta in X-Meta', async () => {
    const cases: Array<[string, string]> = [
      ['/historical?symbols=ENGRO,HBL,NOPE', 'not-found'],
      ['/quotes?symbols=ENGRO,NOPE', 'not-found'],
      ['/stocks/ENGRO/historical?adjusted=true', 'adjustment-partial'],
    ];
    for (const [path, warning] of cases) {
      const json = await http(svc.url, path);
      const csv = await http(svc.url, `${path}&format=csv`);
      assert.equal(csv.headers['x-warning'], warning, path);
      assert.deepEqual(JSON.parse(csv.headers['x-meta']!), dataMeta(json.json.meta), path);
    }
    const whole = await http(svc.url, '/historical?symbols=ENGRO,HBL&format=csv');
    assert.equal(whole.headers['x-warning'], undefined, 'a whole answer has no warning');
    assert.deepEqual(JSON.parse(whole.headers['x-meta']!).not_found, []);
  });
});

describe('the meta in headers, when a page is missing', () => {
  let failingPortal: FakePortal;
  let failingSvc: RunningService;
  before(async () => {
    failingPortal = await startFakePortal();
    failingPortal.fail({ path: '/timeseries/eod/', mode: 'status', status: 500 });
    failingSvc = await startService(failingPortal.url);
  });
  after(async () => {
    await failingSvc?.close();
    await failingPortal?.close();
  });

  it('an adjusted history served raw says so in CSV and Parquet', async () => {
    const path = '/stocks/LUCK/historical?adjusted=true';
    const json = await http(failingSvc.url, path);
    assert.equal(json.json.meta.adjustment.status, 'unavailable');
    const csv = await http(failingSvc.url, `${path}&format=csv`);
    assert.equal(csv.headers['x-warning'], 'adjustment-unavailable, missing');
    const res = await request(`${failingSvc.url}${path}&format=parquet`);
    assert.equal(res.headers['x-warning'], 'adjustment-unavailable, missing');
    const back = await readBack(Buffer.from(await res.body.arrayBuffer()));
    assert.deepEqual(back.meta, dataMeta(json.json.meta));
    assert.ok(back.rows.every((r) => r.adjustment_factor === null));
    assert.equal(back.types.adjustment_factor, 'DOUBLE', 'a column without a value keeps its type');
  });
});
