// Numbers that say what they are, over real HTTP against the fake portal: when each answer's data
// is from (meta.as_of), null where the portal's 0 means "no value", one form per name across
// endpoints, a reason for every listed symbol without a quote, and one coherent demo market: a
// symbol's screener row and quote agree with its own /historical rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { marketDataTime } from '../../src/time/market-clock.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertListEnvelope, assertSingleEnvelope } from '../helpers/shape.ts';

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

/** Within `slack` of the expected value, relative (rounding of the portal's printed figures). */
function near(actual: unknown, expected: number, slack = 1e-6): boolean {
  return typeof actual === 'number' && Math.abs(actual - expected) <= Math.abs(expected) * slack + 0.005;
}

describe('meta.as_of', () => {
  it("is the index-levels page's own As of time on /indices and /market/summary", async () => {
    for (const path of ['/indices', '/market/summary']) {
      const res = await http(svc.url, path);
      assert.equal(res.status, 200);
      assert.equal(res.json.meta.as_of, portal.dataset.asOfIso, path);
    }
  });

  it('is the market data time elsewhere (the fetch in a session, else the last close), and the quote carries its own', async () => {
    const before = Date.now();
    const res = await http(svc.url, '/stocks/ENGRO/quote');
    const q = assertSingleEnvelope(res.json);
    const asOf = res.json.meta.as_of as string;
    assert.match(asOf, /\+05:00$/);
    // test/contract/as-of.test.ts pins the clock; here the real one decides which case applies.
    const expected = marketDataTime(before);
    assert.ok(Math.abs(Date.parse(asOf) - expected) < 60_000, asOf);
    assert.equal(q.as_of, asOf);
    for (const path of ['/stocks', '/screener', '/sectors', '/stocks/ENGRO/historical?limit=1']) {
      const list = await http(svc.url, path);
      assertListEnvelope(list.json);
      assert.match(list.json.meta.as_of, /\+05:00$/, path);
    }
  });

  it('belongs to the cached answer: a repeat within freshness repeats it', async () => {
    const first = await http(svc.url, '/sectors');
    const again = await http(svc.url, '/sectors');
    assert.equal(again.json.meta.cached, true);
    assert.equal(again.json.meta.as_of, first.json.meta.as_of);
  });
});

describe('missing is null', () => {
  it("reports a loss-maker's P/E as null and keeps a 0 % dividend yield", async () => {
    const res = await http(svc.url, '/stocks/POWER/quote');
    const q = assertSingleEnvelope(res.json);
    assert.equal(portal.dataset.screener.find((r) => r.symbol === 'POWER')!.peRatio, 0);
    assert.equal(q.pe_ratio, null);
    assert.equal(q.dividend_yield, 0, 'no dividend is a real 0');
    const screener = assertListEnvelope((await http(svc.url, '/screener')).json) as Array<
      Record<string, unknown>
    >;
    assert.equal(screener.find((r) => r.symbol === 'POWER')!.pe_ratio, null);
  });

  it('reports the 1-year change of a symbol listed less than a year as null', async () => {
    assert.equal(portal.dataset.screener.find((r) => r.symbol === '786R')!.change1yPct, 0);
    const q = assertSingleEnvelope((await http(svc.url, '/stocks/786R/quote')).json);
    assert.equal(q.change_1y_pct, null);
  });
});

describe('one meaning per name', () => {
  it('gives listed_in and the sector code alike on the quote and the screener', async () => {
    const screener = assertListEnvelope((await http(svc.url, '/screener')).json) as Array<
      Record<string, unknown>
    >;
    const sectors = assertListEnvelope((await http(svc.url, '/sectors')).json) as Array<
      Record<string, unknown>
    >;
    const codes = new Set(sectors.map((s) => s.sector_code));
    for (const symbol of ['ENGRO', 'HBL', 'POWER']) {
      const q = assertSingleEnvelope((await http(svc.url, `/stocks/${symbol}/quote`)).json);
      const row = screener.find((r) => r.symbol === symbol)!;
      assert.equal(q.listed_in, row.listed_in, symbol);
      assert.equal(Number(q.sector_code), row.sector, symbol);
      assert.ok(codes.has(q.sector_code), `${symbol}: sector_code as /sectors writes it`);
    }
  });
});

describe('every symbol /stocks lists answers', () => {
  it('gives a quote, or a 404 that says why there is none', async () => {
    const symbols = assertListEnvelope((await http(svc.url, '/stocks')).json) as string[];
    for (const symbol of symbols) {
      const res = await http(svc.url, `/stocks/${encodeURIComponent(symbol)}/quote`);
      if (res.status === 200) continue;
      assert.equal(res.status, 404, symbol);
      assert.notEqual(res.json.error.message, `${symbol} not found`, `a bare "not found" for ${symbol}`);
    }
    const debt = await http(svc.url, '/stocks/BAFLTFC8/quote');
    assert.equal(debt.status, 404);
    assert.match(debt.json.error.message, /^BAFLTFC8 is a listed debt instrument .*no equity quote/);
  });
});

describe('the demo tells one story', () => {
  it("agrees, symbol by symbol, with each symbol's own history", async () => {
    const screener = assertListEnvelope((await http(svc.url, '/screener')).json) as Array<
      Record<string, number | string | null>
    >;
    let checked = 0;
    for (const row of screener) {
      const symbol = row.symbol as string;
      const q = assertSingleEnvelope(
        (await http(svc.url, `/stocks/${encodeURIComponent(symbol)}/quote`)).json,
      );
      const history = assertListEnvelope(
        (await http(svc.url, `/stocks/${encodeURIComponent(symbol)}/historical?order=desc`)).json,
      ) as Array<{ date: string; open: number; high: number; low: number; close: number; volume: number }>;
      const [today, previous] = history;
      assert.ok(today, symbol);
      // Screener and quote agree with each other…
      assert.equal(row.price, q.price, symbol);
      assert.equal(row.change_1y_pct, q.change_1y_pct, symbol);
      assert.equal(row.volume_avg_30d, q.volume_avg_30d, symbol);
      // …and with the history: the newest close is the price; a traded symbol's board shows the day.
      assert.equal(q.price, today.close, `${symbol} price`);
      if (q.ldcp !== null) {
        assert.equal(q.ldcp, previous!.close, `${symbol} ldcp`);
        assert.equal(q.open, today.open, `${symbol} open`);
        assert.equal(q.high, today.high, `${symbol} high`);
        assert.equal(q.low, today.low, `${symbol} low`);
        assert.equal(q.volume, today.volume, `${symbol} volume`);
      }
      const last30 = history.slice(0, 30);
      const avg = last30.reduce((s, r) => s + r.volume, 0) / last30.length;
      assert.ok(near(q.volume_avg_30d, avg), `${symbol} volume_avg_30d ${q.volume_avg_30d} vs ${avg}`);
      const [y, m, d] = today.date.split('-');
      const yearAgo = `${Number(y) - 1}-${m}-${d}`;
      const then = history.find((r) => r.date <= yearAgo);
      if (then === undefined) {
        assert.equal(q.change_1y_pct, null, `${symbol}: listed less than a year`);
      } else {
        const expected = (today.close / then.close - 1) * 100;
        assert.ok(
          near(q.change_1y_pct, expected),
          `${symbol} change_1y_pct ${q.change_1y_pct} vs ${expected}`,
        );
      }
      checked++;
    }
    assert.ok(checked > 20, `checked ${checked} symbols`);
  });
});
