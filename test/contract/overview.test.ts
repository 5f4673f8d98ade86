// The overviews over real HTTP (service + fake portal): one request for a symbol's page and one for
// the market's, each part with its own as_of and error; a part the client's exchange-fetch budget
// cannot pay for yet is marked with when to ask again, never a 429 for the whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

const harness = portalHarness();

const PART_KEYS = ['as_of', 'data', 'error'];
const STOCK_PARTS = [
  'quote',
  'profile',
  'history',
  'intraday',
  'corporate_actions',
  'announcements',
  'financials',
  'reports',
] as const;
const KARACHI = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:00$/;

describe('GET /stocks/{symbol}/overview', () => {
  it('serves every part of a cold symbol in one request, with the company page’s facts on the quote', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/stocks/engro/overview');
    assert.equal(res.status, 200);
    const { data, meta } = res.json;
    assert.equal(data.symbol, 'ENGRO');
    assert.match(meta.as_of, KARACHI);
    assert.equal(data.market.state, 'open');
    for (const name of STOCK_PARTS) {
      const part = data[name];
      assert.deepEqual(Object.keys(part).sort(), PART_KEYS, name);
      assert.equal(part.error, null, `${name}: ${JSON.stringify(part.error)}`);
      assert.match(part.as_of, KARACHI, name);
    }
    const q = data.quote.data;
    assert.equal(typeof q.price, 'number');
    // The company page was waited for: a cold symbol's first answer has its band and 52-week range.
    assert.equal(typeof q.circuit_breaker_low, 'number');
    assert.equal(typeof q.week52_high, 'number');
    const days = data.history.data as { date: string }[];
    assert.ok(days.length > 200 && days.length < 262, `${days.length} daily bars`);
    const span = Date.parse(days.at(-1)!.date) - Date.parse(days[0]!.date);
    assert.ok(span <= 365 * 86_400_000, 'at most a year');
    assert.ok(data.announcements.data.length <= 10);
    assert.ok(Array.isArray(data.financials.data));
    assert.ok(Array.isArray(data.reports.data));
    assert.ok(Array.isArray(data.corporate_actions.data));
  });

  it('is one cached answer: a repeat fetches nothing from the portal and revalidates by ETag', async () => {
    const svc = await harness.fresh();
    const first = await http(svc.url, '/stocks/HBL/overview');
    assert.equal(first.status, 200);
    const before = harness.portal.counts().total;
    const again = await http(svc.url, '/stocks/HBL/overview');
    assert.equal(again.status, 200);
    assert.equal(again.json.meta.cached, true);
    assert.equal(harness.portal.counts().total, before);
    const same = await http(svc.url, '/stocks/HBL/overview', {
      headers: { 'if-none-match': first.headers.etag! },
    });
    assert.equal(same.status, 304);
  });

  it('marks the parts a spent exchange-fetch budget cannot pay for, with when to ask again, and serves the rest', async () => {
    // A page counts once against the client's budget, however many of its parts fetch: two pages
    // are served whole, and the third finds none left for the symbol's own pages.
    const svc = await harness.fresh({ EXCHANGE_FETCH_LIMIT_PER_IP: '2' });
    for (const symbol of ['HBL', 'OGDC']) {
      const whole = (await http(svc.url, `/stocks/${symbol}/overview`)).json.data;
      for (const name of ['quote', 'profile', 'history', 'intraday', 'corporate_actions', 'reports']) {
        assert.equal(whole[name].error, null, `${symbol} ${name}`);
      }
    }
    const res = await http(svc.url, '/stocks/LUCK/overview');
    assert.equal(res.status, 200);
    const { data } = res.json;
    assert.equal(data.quote.error, null);
    assert.equal(typeof data.quote.data.price, 'number');
    for (const name of ['profile', 'history', 'announcements', 'financials'] as const) {
      const part = data[name];
      assert.equal(part.data, null, name);
      assert.equal(part.as_of, null, name);
      assert.equal(part.error.status, 429, name);
      assert.equal(part.error.code, 'rate_limited', name);
      assert.match(part.error.retry_at, KARACHI, name);
      assert.ok(Date.parse(part.error.retry_at) > Date.now(), `${name} retry_at is ahead`);
    }
    // Not kept as the whole answer: fresh only until the earliest retry.
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers['cache-control'] ?? '')?.[1]);
    assert.ok(maxAge <= 60, res.headers['cache-control']);
  });

  it('answers CSV as the daily bars', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/stocks/HBL/overview?format=csv');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /^text\/csv/);
    const lines = res.text.trim().split('\r\n');
    assert.equal(lines[0], 'date,open,high,low,close,volume,is_anomaly,anomaly_reasons');
    assert.ok(lines.length > 200);
  });

  it('is a 404 for an unknown symbol and a 422 for a malformed one', async () => {
    const svc = await harness.fresh();
    assertError((await http(svc.url, '/stocks/NOSUCH/overview')).json, 404, 'not_found');
    assertError((await http(svc.url, '/stocks/BAD$$/overview')).json, 422, 'bad_request');
  });
});

describe('GET /market/overview', () => {
  it('serves indices, breadth, movers, sectors and the chosen index in one request', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/market/overview?index=kse30&movers=5');
    assert.equal(res.status, 200);
    const { data } = res.json;
    for (const part of [
      data.indices,
      data.breadth,
      data.movers,
      data.sectors,
      data.index.intraday,
      data.index.constituents,
    ]) {
      assert.deepEqual(Object.keys(part).sort(), PART_KEYS);
      assert.equal(part.error, null, JSON.stringify(part.error));
    }
    assert.equal(data.index.code, 'KSE30');
    assert.ok(data.indices.data.length > 3);
    assert.ok(data.movers.data.gainers.length <= 5 && data.movers.data.gainers.length > 0);
    assert.ok(data.movers.data.losers.every((m: { change_pct: number }) => m.change_pct < 0));
    assert.equal(typeof data.breadth.data.advances, 'number');
    assert.ok(data.sectors.data.length > 0);
    assert.ok(data.index.constituents.data.length > 0);
    assert.equal(data.market.state, 'open');
  });

  it('answers CSV as the index levels, and 404 for an unknown index', async () => {
    const svc = await harness.fresh();
    const csv = await http(svc.url, '/market/overview', { headers: { accept: 'text/csv' } });
    assert.equal(csv.status, 200);
    assert.equal(csv.text.split('\r\n')[0], 'index,current,high,low,change,change_pct');
    assertError((await http(svc.url, '/market/overview?index=NOPE')).json, 404, 'not_found');
    assertError((await http(svc.url, '/market/overview?movers=0')).json, 422, 'bad_request');
  });
});
