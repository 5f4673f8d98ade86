// Every endpoint against the fake portal over real HTTP: exact envelopes, exact types, counts equal
// to the page's rows and values equal to the page's raw numbers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import {
  assertError,
  assertListEnvelope,
  assertRow,
  assertSingleEnvelope,
  type FieldKind,
} from '../helpers/shape.ts';

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

const num = ['number'] as const;
const nullableNum: ('number' | 'null')[] = ['number', 'null'];

describe('GET /health', () => {
  it('answers ok without touching the portal', async () => {
    portal.resetCounts();
    const res = await http(svc.url, '/health');
    assert.equal(res.status, 200);
    assert.deepEqual(assertSingleEnvelope(res.json, false), { status: 'ok' });
    assert.equal(portal.counts().total, 0);
  });
});

describe('GET /stocks', () => {
  it('lists every symbol of /symbols, in order', async () => {
    const res = await http(svc.url, '/stocks');
    assert.equal(res.status, 200);
    const data = assertListEnvelope(res.json);
    assert.deepEqual(
      data,
      portal.dataset.symbols.map((s) => s.symbol),
    );
    assert.ok(data.includes('786') && data.includes('UBLP-ETF'));
  });

  it('filters to an index, whatever the spelling', async () => {
    const expected = portal.dataset.indexConstituents('KSE100')!.rows.map((r) => r.symbol);
    for (const spelling of ['KSE100', 'kse100', 'KSE-100']) {
      const res = await http(svc.url, `/stocks?index=${spelling}`);
      assert.equal(res.status, 200, spelling);
      assert.deepEqual(assertListEnvelope(res.json), expected);
    }
  });

  it('gives 404 for an unknown index', async () => {
    const res = await http(svc.url, '/stocks?index=NOPE');
    assert.equal(res.status, 404);
    assertError(res.json, 404, 'not_found');
  });
});

describe('GET /stocks/{symbol}/quote', () => {
  const quoteFields: Record<string, readonly FieldKind[]> = {
    symbol: ['string'],
    name: ['string', 'null'],
    sector_code: ['string', 'null'],
    listed_in: ['string', 'null'],
    price: nullableNum,
    market_cap: nullableNum,
    pe_ratio: nullableNum,
    dividend_yield: nullableNum,
    free_float: nullableNum,
    volume_avg_30d: nullableNum,
    change_1y_pct: nullableNum,
    ldcp: nullableNum,
    open: nullableNum,
    high: nullableNum,
    low: nullableNum,
    volume: nullableNum,
    change: nullableNum,
    change_pct: nullableNum,
    // Extras from the company page (test/contract/company.test.ts checks their values).
    circuit_breaker_low: nullableNum,
    circuit_breaker_high: nullableNum,
    day_range_low: nullableNum,
    day_range_high: nullableNum,
    week52_low: nullableNum,
    week52_high: nullableNum,
    bid_price: nullableNum,
    bid_volume: nullableNum,
    ask_price: nullableNum,
    ask_volume: nullableNum,
    var: nullableNum,
    haircut: nullableNum,
    ytd_change_pct: nullableNum,
    extras_as_of: ['string', 'null'],
    as_of: ['string'],
  } as const;

  it('joins the screener and market-watch rows, case-insensitively', async () => {
    const res = await http(svc.url, '/stocks/engro/quote');
    assert.equal(res.status, 200);
    const q = assertSingleEnvelope(res.json);
    assertRow(q, quoteFields);
    const sc = portal.dataset.screener.find((r) => r.symbol === 'ENGRO')!;
    const mw = portal.dataset.marketWatch.find((r) => r.symbol === 'ENGRO')!;
    assert.equal(q.symbol, 'ENGRO');
    assert.equal(q.price, mw.current);
    assert.equal(q.ldcp, mw.ldcp);
    assert.equal(q.change, mw.change);
    assert.equal(q.change_pct, Math.round(mw.changePct! * 1e4) / 1e4);
    assert.equal(typeof q.change_pct, 'number');
    assert.equal(q.market_cap, sc.marketCap);
    assert.equal(q.free_float, sc.freeFloat);
    assert.equal(q.volume_avg_30d, sc.volumeAvg30d);
    assert.equal(q.sector_code, sc.sectorCode);
  });

  it('falls back to the screener for a symbol not traded today', async () => {
    const res = await http(svc.url, '/stocks/FEROZ/quote');
    assert.equal(res.status, 200);
    const q = assertSingleEnvelope(res.json);
    const sc = portal.dataset.screener.find((r) => r.symbol === 'FEROZ')!;
    assert.equal(q.price, sc.price);
    assert.equal(q.ldcp, null);
    assert.equal(q.change_pct, Math.round(sc.changePct! * 1e4) / 1e4);
  });

  it('uses the market watch alone for an ETF off the screener', async () => {
    const res = await http(svc.url, '/stocks/ublp-etf/quote');
    assert.equal(res.status, 200);
    const q = assertSingleEnvelope(res.json);
    assert.equal(q.symbol, 'UBLP-ETF');
    assert.equal(q.market_cap, null);
    assert.equal(q.price, portal.dataset.marketWatch.find((r) => r.symbol === 'UBLP-ETF')!.current);
  });

  it('gives 404 "SYMBOL not found" for an unknown symbol', async () => {
    const res = await http(svc.url, '/stocks/zzzz/quote');
    assert.equal(res.status, 404);
    assertError(res.json, 404, 'not_found', 'ZZZZ not found');
  });
});

describe('GET /stocks/{symbol}/historical', () => {
  it('returns the whole history oldest first, one row per trading day', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    const source = portal.dataset.history('ENGRO');
    assert.equal(rows.length, 2162);
    assert.equal(rows.length, source.length);
    const oldest = source[source.length - 1]!;
    assert.deepEqual(
      { ...rows[0] },
      {
        ...oldest,
        volume: oldest.volume,
        is_anomaly: rows[0]!.is_anomaly,
        anomaly_reasons: rows[0]!.anomaly_reasons,
      },
    );
    for (let i = 1; i < rows.length; i++) assert.ok(String(rows[i - 1]!.date) < String(rows[i]!.date));
    for (const row of rows.slice(0, 50)) {
      assertRow(row, {
        date: ['string'],
        open: nullableNum,
        high: nullableNum,
        low: nullableNum,
        close: nullableNum,
        volume: ['integer'],
        is_anomaly: ['boolean'],
        anomaly_reasons: ['array'],
      });
    }
  });

  it('flags the corporate action and the feed errors with reasons', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical');
    const rows = res.json.data as Array<{ date: string; is_anomaly: boolean; anomaly_reasons: string[] }>;
    const a = portal.dataset.anomalies;
    const byDate = new Map(rows.map((r) => [r.date, r]));
    assert.deepEqual(byDate.get(a.bonusExDate)!.anomaly_reasons, ['beyond_price_limit']);
    assert.ok(byDate.get(a.zeroVolumeMoveDate)!.anomaly_reasons.includes('zero_volume_move'));
    assert.ok(byDate.get(a.ohlcInconsistentDate)!.anomaly_reasons.includes('ohlc_inconsistent'));
    const flagged = rows.filter((r) => r.is_anomaly).map((r) => r.date);
    assert.deepEqual(flagged.sort(), [a.ohlcInconsistentDate, a.zeroVolumeMoveDate, a.bonusExDate].sort());
    for (const r of rows) assert.equal(r.is_anomaly, r.anomaly_reasons.length > 0);
  });

  it('cuts an inclusive date range, in either order, and limits to the newest rows', async () => {
    const all = (await http(svc.url, '/stocks/ENGRO/historical')).json.data as Array<{ date: string }>;
    const start = all[100]!.date;
    const end = all[120]!.date;
    const asc = await http(svc.url, `/stocks/ENGRO/historical?start=${start}&end=${end}`);
    const ascRows = assertListEnvelope(asc.json) as Array<{ date: string }>;
    assert.equal(ascRows.length, 21);
    assert.equal(ascRows[0]!.date, start);
    assert.equal(ascRows[20]!.date, end);
    const desc = await http(svc.url, `/stocks/engro/historical?start=${start}&end=${end}&order=desc`);
    assert.deepEqual(desc.json.data, [...asc.json.data].reverse());
    const limited = await http(svc.url, `/stocks/ENGRO/historical?start=${start}&end=${end}&limit=5`);
    assert.deepEqual(
      (limited.json.data as Array<{ date: string }>).map((r) => r.date),
      ascRows.slice(-5).map((r) => r.date),
    );
    const weekend = await http(svc.url, '/stocks/ENGRO/historical?start=2026-11-21&end=2026-11-22');
    assert.deepEqual(assertListEnvelope(weekend.json), []);
  });

  it('rejects bad ranges: 400 for start after end, 422 for malformed or impossible dates', async () => {
    const reversed = await http(svc.url, '/stocks/ENGRO/historical?start=2025-02-01&end=2025-01-01');
    assert.equal(reversed.status, 400);
    assertError(reversed.json, 400, 'bad_request');
    for (const q of [
      'start=2025-13-01',
      'start=2025-02-30',
      'end=yesterday',
      'start=20250101',
      'order=up',
      'limit=0',
    ]) {
      const res = await http(svc.url, `/stocks/ENGRO/historical?${q}`);
      assert.equal(res.status, 422, q);
      assertError(res.json, 422, 'bad_request');
    }
  });

  it('gives 404 for an unknown symbol and [] for a listed one without rows', async () => {
    const unknown = await http(svc.url, '/stocks/NOSUCH/historical');
    assert.equal(unknown.status, 404);
    assertError(unknown.json, 404, 'not_found', 'NOSUCH not found');
    const debt = await http(svc.url, '/stocks/BAFLTFC8/historical');
    assert.equal(debt.status, 200);
    assert.deepEqual(assertListEnvelope(debt.json), []);
  });
});

describe('GET /stocks/{symbol}/fundamentals', () => {
  it('lists the reports as strings with absolute document URLs', async () => {
    const res = await http(svc.url, '/stocks/engro/fundamentals');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, string>>;
    const source = portal.dataset.reports('ENGRO')!;
    assert.equal(rows.length, source.length);
    assert.ok(rows.length > 0);
    for (const [i, row] of rows.entries()) {
      assertRow(row, {
        symbol: ['string'],
        year: ['string'],
        type: ['string'],
        period_ended: ['string'],
        posting_date: ['string'],
        document: ['string'],
      });
      assert.equal(row.symbol, 'ENGRO');
      assert.match(row.year!, /^\d{4}$/);
      assert.match(row.posting_date!, /^\d{4}-\d\d-\d\d$/);
      assert.match(row.period_ended!, /^\d{4}(-\d\d-\d\d)?$/);
      assert.equal(row.document, source[i]!.document);
      assert.ok(row.document!.startsWith('https://'));
    }
  });

  it('gives [] for a symbol without reports and 404 for an unknown one', async () => {
    const none = await http(svc.url, '/stocks/WTL/fundamentals');
    assert.equal(none.status, 200);
    assert.deepEqual(assertListEnvelope(none.json), []);
    const unknown = await http(svc.url, '/stocks/NOSUCH/fundamentals');
    assert.equal(unknown.status, 404);
    assertError(unknown.json, 404, 'not_found', 'NOSUCH not found');
  });
});

describe('GET /indices and /indices/{name}', () => {
  it('reports constituents in millions from the raw data-order values', async () => {
    const res = await http(svc.url, '/indices/kse-100');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    const page = portal.dataset.indexConstituents('KSE100')!;
    assert.equal(rows.length, page.rows.length);
    for (const [i, row] of rows.entries()) {
      const src = page.rows[i]!;
      assertRow(row, {
        symbol: ['string'],
        name: ['string', 'null'],
        current_index: nullableNum,
        idx_weight: nullableNum,
        idx_point: nullableNum,
        market_cap_m: nullableNum,
        freefloat_m: nullableNum,
        ldcp: nullableNum,
        change: nullableNum,
        change_pct: nullableNum,
        volume: nullableNum,
      });
      assert.equal(row.symbol, src.symbol);
      assert.equal(row.current_index, src.current);
      assert.equal(row.idx_weight, src.idxWeight);
      assert.ok(Math.abs((row.market_cap_m as number) - src.marketCap! / 1e6) < 1e-6);
      assert.ok(Math.abs((row.freefloat_m as number) - src.freeFloat! / 1e6) < 1e-6);
      assert.ok(!('shares_m' in row));
    }
  });

  it('reports shares instead of free float where the index table has SHARES (M)', async () => {
    const res = await http(svc.url, '/indices/ALLSHR');
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    assert.equal(rows.length, portal.dataset.indexConstituents('ALLSHR')!.rows.length);
    assert.ok(rows.every((r) => 'shares_m' in r && !('freefloat_m' in r)));
  });

  it('gives 404 for an unknown index without asking the portal', async () => {
    portal.resetCounts();
    const res = await http(svc.url, '/indices/NOSUCH');
    assert.equal(res.status, 404);
    assertError(res.json, 404, 'not_found');
    assert.equal(portal.counts().total, 0);
  });

  it('lists index levels with null high/low where the portal shows N/A', async () => {
    const res = await http(svc.url, '/indices');
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    assert.equal(rows.length, 18);
    const stale = rows.find((r) => r.index === 'HBLTTI')!;
    assert.equal(stale.high, null);
    assert.equal(stale.low, null);
    const kse100 = rows.find((r) => r.index === 'KSE100')!;
    assert.equal(kse100.current, portal.dataset.indexLevels.rows.find((r) => r.index === 'KSE100')!.current);
  });
});

describe('GET /sectors and /sectors/{name}/stocks', () => {
  it('summarises every sector', async () => {
    const res = await http(svc.url, '/sectors');
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    const source = portal.dataset.sectorPage.sectors;
    assert.equal(rows.length, source.length);
    for (const [i, row] of rows.entries()) {
      assertRow(row, {
        sector_code: ['string'],
        sector_name: ['string'],
        advance: num,
        decline: num,
        unchanged: num,
        turnover: num,
        market_cap_b: num,
      });
      assert.equal(row.sector_code, source[i]!.sectorCode);
      assert.equal(row.sector_name, source[i]!.sectorName);
      assert.equal(row.turnover, source[i]!.turnover);
    }
  });

  it('lists members by code or by any spelling of the name', async () => {
    const members = portal.dataset.sectorPage.members.find((m) => m.sectorCode === '0801')!;
    for (const name of ['0801', 'automobile-assembler', 'Automobile Assembler', 'AUTOMOBILE_ASSEMBLER']) {
      const res = await http(svc.url, `/sectors/${encodeURIComponent(name)}/stocks`);
      assert.equal(res.status, 200, name);
      assert.deepEqual(assertListEnvelope(res.json), members.symbols);
    }
    const unknown = await http(svc.url, '/sectors/nosuch/stocks');
    assert.equal(unknown.status, 404);
    assertError(unknown.json, 404, 'not_found');
  });
});

describe('GET /screener and /market/summary', () => {
  it('returns every screener row with the sector code as a number', async () => {
    const res = await http(svc.url, '/screener');
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    assert.equal(rows.length, portal.dataset.screener.length);
    for (const [i, row] of rows.entries()) {
      const src = portal.dataset.screener[i]!;
      assertRow(row, {
        symbol: ['string'],
        sector: nullableNum,
        listed_in: ['string', 'null'],
        market_cap: nullableNum,
        price: nullableNum,
        pe_ratio: nullableNum,
        dividend_yield: nullableNum,
        free_float: nullableNum,
        volume_avg_30d: nullableNum,
        change_1y_pct: nullableNum,
      });
      assert.equal(row.symbol, src.symbol);
      assert.equal(row.sector, Number(src.sectorCode));
      assert.ok(Math.abs((row.market_cap as number) - src.marketCap!) <= 1e-6 * src.marketCap!, 'market cap');
      assert.equal(row.listed_in, src.listedIn.length ? src.listedIn.join(',') : null);
    }
  });

  it('summarises index levels under the spec names', async () => {
    const res = await http(svc.url, '/market/summary');
    const data = assertSingleEnvelope(res.json);
    const level = (code: string) => portal.dataset.indexLevels.rows.find((r) => r.index === code)!.current;
    assert.equal(data.kse100, level('KSE100'));
    assert.equal(data.kse30, level('KSE30'));
    assert.equal(data.kmiallshare, level('KMIALLSHR'));
    assert.equal(data.allshare, level('ALLSHR'));
    assert.equal(data.kmi30, level('KMI30'));
    for (const value of Object.values(data)) assert.equal(typeof value, 'number');
  });
});

describe('HTTP behaviour', () => {
  it('answers HEAD like GET without a body', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/quote', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.match(res.headers['content-type']!, /application\/json/);
  });

  it('allows any origin to read, on answers and errors alike', async () => {
    const res = await http(svc.url, '/stocks', { headers: { origin: 'https://example.org' } });
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(res.headers['access-control-expose-headers']!, /\betag\b.*\bx-request-id\b/);
    const missing = await http(svc.url, '/stocks/NOPE1/quote', {
      headers: { origin: 'https://example.org' },
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['access-control-allow-origin'], '*');
  });

  it('answers a CORS preflight for GET', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/quote', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-exchange-proxy',
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(res.headers['access-control-allow-methods']!, /GET/);
    assert.match(res.headers['access-control-allow-headers']!, /x-exchange-proxy/i);
  });

  it('tells the truth in meta.cached', async () => {
    const first = await http(svc.url, '/stocks/HBL/historical');
    const second = await http(svc.url, '/stocks/HBL/historical');
    assert.equal(first.json.meta.cached, false);
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.equal(second.json.meta.cached, true);
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.deepEqual(second.json.data, first.json.data);
  });

  it('uses the error envelope for unknown routes and wrong methods', async () => {
    const missing = await http(svc.url, '/nope');
    assert.equal(missing.status, 404);
    assertError(missing.json, 404, 'not_found');
    const post = await http(svc.url, '/stocks/ENGRO/quote', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    assertError(post.json, 405, 'method_not_allowed');
    const badSymbol = await http(svc.url, `/stocks/${encodeURIComponent('<script>')}/quote`);
    assert.equal(badSymbol.status, 422);
    assertError(badSymbol.json, 422, 'bad_request');
  });

  it('refuses X-Exchange-Proxy when passthrough is disabled', async () => {
    const res = await http(svc.url, '/screener', {
      headers: { 'x-exchange-proxy': 'http://203.0.113.5:8080' },
    });
    assert.equal(res.status, 400);
    assertError(res.json, 400, 'bad_request', 'proxy passthrough is disabled on this server');
  });
});

describe('GET /openapi.json', () => {
  it('describes every route in OpenAPI 3.1, version 0.1.0, with named schemas', async () => {
    const res = await http(svc.url, '/openapi.json');
    assert.equal(res.status, 200);
    const doc = res.json;
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '0.1.0');
    for (const path of [
      '/health',
      '/stocks',
      '/stocks/{symbol}/quote',
      '/stocks/{symbol}/historical',
      '/stocks/{symbol}/fundamentals',
      '/indices',
      '/indices/{name}',
      '/sectors',
      '/sectors/{name}/stocks',
      '/screener',
      '/market/summary',
    ]) {
      assert.ok(doc.paths[path]?.get, `documents ${path}`);
    }
    for (const name of ['Quote', 'HistoricalRow', 'ErrorEnvelope', 'ScreenerRow', 'IndexConstituent']) {
      assert.ok(doc.components.schemas[name], `component ${name}`);
    }
    const historical = doc.paths['/stocks/{symbol}/historical'].get;
    assert.ok(historical.responses['422'], 'documents 422');
    assert.ok(historical.parameters.some((p: { name: string }) => p.name === 'start'));
  });
});
