// Rankings over real HTTP against the fake portal: each member's return is the one its own
// performance table gives, the order is by return, the sector return is cap-weighted as documented,
// and an answer the portal budget cuts short says which members are missing and why.
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

async function json(path: string) {
  const res = await http(svc.url, path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
  return res.json;
}

function rel(a: number, b: number, what: string): void {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-9), `${what}: ${a} vs ${b}`);
}

const returnOf = async (symbol: string, period: string, end?: string): Promise<number | null> =>
  (await json(`/stocks/${symbol}/performance?benchmark=none${end ? `&end=${end}` : ''}`)).data.returns.find(
    (r: { period: string }) => r.period === period,
  ).return_pct;

describe('GET /market/performance', () => {
  it("ranks a sector's members by their own period return, highest first", async () => {
    const members = (await json('/sectors/0801/stocks')).data as string[];
    const body = await json('/market/performance?sector=0801&period=1Y');
    assert.equal(body.meta.period, '1Y');
    assert.deepEqual(body.meta.coverage, {
      members: members.length,
      with_data: members.length,
      missing: [],
      raw: [],
    });
    assert.deepEqual(body.data.map((r: { symbol: string }) => r.symbol).sort(), [...members].sort());
    for (const [k, row] of body.data.entries()) {
      rel(row.return_pct, (await returnOf(row.symbol, '1Y'))!, row.symbol);
      assert.equal(row.rank, k + 1);
      if (k > 0) assert.ok(body.data[k - 1].return_pct >= row.return_pct);
      const rows = (await json(`/stocks/${row.symbol}/historical?adjusted=true&start=2025-11-21`)).data;
      assert.equal(
        row.volume,
        rows.reduce((s: number, r: { volume: number }) => s + r.volume, 0),
      );
    }
  });

  it("gives the index's own return beside its members'", async () => {
    const body = await json('/market/performance?index=KSE30&period=1M');
    const index = (await json('/indices/KSE30/performance')).data.returns.find(
      (r: { period: string }) => r.period === '1M',
    );
    assert.equal(body.meta.index_return.index, 'KSE30');
    assert.equal(body.meta.index_return.return_pct, index.return_pct);
    assert.equal(
      body.meta.coverage.with_data + body.meta.coverage.missing.length,
      body.meta.coverage.members,
    );
    const csv = await http(svc.url, '/market/performance?index=KSE30&period=1M&format=csv');
    assert.equal(
      csv.text.split('\r\n')[0],
      'rank,symbol,adjusted,return_pct,start_date,start_close,end_date,end_close,volume,reason',
    );
  });

  it('refuses an unknown period or both index and sector, naming what it takes', async () => {
    assertError(
      (await http(svc.url, '/market/performance?period=2M')).json,
      422,
      'bad_request',
      'period must be 1D, 1W, 1M, 3M, 6M, YTD, 1Y, 3Y, 5Y or ALL (got "2M")',
    );
    assertError(
      (await http(svc.url, '/market/performance?index=KSE30&sector=0801')).json,
      400,
      'bad_request',
    );
    assertError((await http(svc.url, '/market/performance?index=NOPE')).json, 404, 'not_found');
  });

  it('says which members are missing when the exchange-fetch budget runs out', async () => {
    const tight = await startService(portal.url, { EXCHANGE_FETCH_LIMIT_PER_IP: '12' });
    try {
      const res = await http(tight.url, '/market/performance?index=KSE30&period=1M');
      assert.equal(res.status, 200, res.text);
      const { coverage } = res.json.meta;
      assert.ok(coverage.missing.length > 0, 'some members missing');
      assert.ok(coverage.with_data > 0, 'some members present');
      assert.equal(coverage.with_data + coverage.missing.length, coverage.members);
      assert.equal(res.json.data.length, coverage.with_data);
      for (const m of coverage.missing) assert.match(m.reason, /budget/);
      // A partial answer is not kept for a whole freshness window.
      assert.ok(Number(/max-age=(\d+)/.exec(res.headers['cache-control'] ?? '')?.[1] ?? 0) <= 60);
    } finally {
      await tight.close();
    }
  });
});

describe('?end= on the rankings', () => {
  it('ranks the members by their return over the period ending at end, as their own tables as of then', async () => {
    const end = '2025-08-29';
    const body = await json(`/market/performance?sector=0801&period=3M&end=${end}`);
    const now = await json('/market/performance?sector=0801&period=3M');
    assert.ok(body.meta.as_of.startsWith(`${end}T`), body.meta.as_of);
    assert.equal(
      body.meta.coverage.with_data + body.meta.coverage.missing.length,
      body.meta.coverage.members,
    );
    for (const row of body.data) {
      assert.equal(row.end_date, end, row.symbol);
      rel(row.return_pct, (await returnOf(row.symbol, '3M', end))!, row.symbol);
    }
    assert.notDeepEqual(
      body.data.map((r: { return_pct: number }) => r.return_pct),
      now.data.map((r: { return_pct: number }) => r.return_pct),
    );
    const index = await json(`/market/performance?index=KSE30&period=1M&end=${end}`);
    const own = (await json(`/indices/KSE30/performance?end=${end}`)).data.returns.find(
      (r: { period: string }) => r.period === '1M',
    );
    assert.equal(index.meta.index_return.end_date, end);
    assert.equal(index.meta.index_return.return_pct, own.return_pct);
    assertError(
      (await http(svc.url, '/market/performance?end=2099-01-01')).json,
      400,
      'bad_request',
      /future/,
    );
  });

  it('weights the sectors by their caps at end', async () => {
    const end = '2025-08-29';
    const body = await json(`/sectors/performance?period=3M&end=${end}`);
    assert.ok(body.meta.as_of.startsWith(`${end}T`), body.meta.as_of);
    const screener = (await json('/screener')).data as { symbol: string; market_cap: number | null }[];
    const caps = new Map(screener.map((r) => [r.symbol, r.market_cap]));
    const fert = body.data.find((r: { sector_code: string }) => r.sector_code === '0809');
    let atEnd = 0;
    let start = 0;
    for (const s of (await json('/sectors/0809/stocks')).data as string[]) {
      const r = await returnOf(s, '3M', end);
      const cap = caps.get(s);
      if (r === null || !cap) continue;
      const closes = (await json(`/stocks/${s}/historical?adjusted=true`)).data as {
        date: string;
        close: number;
      }[];
      const then = closes.filter((c) => c.date <= end).at(-1)!.close;
      const capThen = (cap * then) / closes.at(-1)!.close;
      atEnd += capThen;
      start += capThen / (1 + r / 100);
    }
    rel(fert.return_pct, (atEnd / start - 1) * 100, 'FERTILIZER');
    assertError(
      (await http(svc.url, '/sectors/performance?end=2099-01-01')).json,
      400,
      'bad_request',
      /future/,
    );
  });
});

describe('GET /sectors/performance', () => {
  it("weights each sector's members by market cap, as documented", async () => {
    const body = await json('/sectors/performance?period=3M');
    const screener = (await json('/screener')).data as { symbol: string; market_cap: number | null }[];
    const caps = new Map(screener.map((r) => [r.symbol, r.market_cap]));
    const fert = body.data.find((r: { sector_code: string }) => r.sector_code === '0809');
    const members = (await json('/sectors/0809/stocks')).data as string[];
    let now = 0;
    let start = 0;
    for (const s of members) {
      const r = await returnOf(s, '3M');
      const cap = caps.get(s);
      if (r === null || !cap) continue;
      now += cap;
      start += cap / (1 + r / 100);
    }
    rel(fert.return_pct, (now / start - 1) * 100, 'FERTILIZER');
    assert.equal(
      body.meta.coverage.with_data + body.meta.coverage.missing.length,
      body.meta.coverage.members,
    );
    const ranked = body.data.filter((r: { rank: number | null }) => r.rank !== null);
    ranked.forEach((r: { rank: number }, k: number) => assert.equal(r.rank, k + 1));
  });
});
