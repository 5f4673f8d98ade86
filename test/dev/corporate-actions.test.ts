// The fake portal's planted corporate actions: where they sit, and the two pages that tell them
// (`/timeseries/eod`, `/company/payouts`) over real HTTP behind the portal's gate.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { EOD_ROWS, PLANTED_ACTIONS } from '../../dev/fake-portal/corporate-actions.ts';
import { AS_OF_DATE, HISTORY_ANOMALIES, tradingDays } from '../../dev/fake-portal/dataset.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';

let portal: FakePortal;
before(async () => {
  portal = await startFakePortal();
});
after(() => portal.close());

async function call(path: string, init: { method?: 'GET' | 'POST'; body?: string; token?: boolean } = {}) {
  const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };
  if (init.token !== false) {
    headers['x-requested-with'] = 'XMLHttpRequest';
    headers['x-req-id'] = portal.token();
  }
  if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await request(portal.url + path, { method: init.method ?? 'GET', headers, body: init.body });
  return { status: res.statusCode, text: await res.body.text() };
}

describe('planted corporate actions', () => {
  it('all lie before the last 260 trading days, so the recent year is untouched', () => {
    const oldestRecent = tradingDays(AS_OF_DATE, 260).at(-1) as string;
    for (const action of PLANTED_ACTIONS)
      assert.ok(action.exDate < oldestRecent, `${action.symbol} ${action.exDate}`);
  });

  it("ENGRO's bonus is the one HISTORY_ANOMALIES plants in the raw history", () => {
    const engro = PLANTED_ACTIONS.find((a) => a.symbol === 'ENGRO');
    assert.equal(engro?.exDate, HISTORY_ANOMALIES.bonusExDate);
    assert.equal(engro?.ratio, HISTORY_ANOMALIES.bonusFactor);
  });
});

describe('GET /timeseries/eod/{SYM}', () => {
  it('serves the newest rows of the raw history, adjusted before the split', async () => {
    const res = await call('/timeseries/eod/SYS');
    assert.equal(res.status, 200);
    const body = JSON.parse(res.text) as { status: number; message: string; data: number[][] };
    assert.equal(body.status, 1);
    assert.equal(body.data.length, EOD_ROWS);
    const raw = portal.dataset.history('SYS');
    // Newest row: 16:00 Karachi, unadjusted (after the last action).
    assert.deepEqual(body.data[0], [
      Date.UTC(2026, 10, 20, 11) / 1000,
      raw[0]!.close,
      raw[0]!.volume,
      raw[0]!.open,
    ]);
    const before = raw.findIndex((r) => r.date < '2024-03-13');
    assert.equal(body.data[before]![1], Math.round(((raw[before]!.close as number) / 2) * 100) / 100);
    assert.equal(body.data[before]![2], (raw[before]!.volume as number) * 2);
  });

  it('answers an empty series for an unknown symbol, and sits behind the gate', async () => {
    assert.deepEqual(JSON.parse((await call('/timeseries/eod/NOSUCH')).text), {
      status: 1,
      message: '',
      data: [],
    });
    assert.equal((await call('/timeseries/eod/SYS', { token: false })).status, 403);
  });
});

describe('POST /company/payouts', () => {
  it('serves the bare payouts table for the symbol in the form, and counts the request', async () => {
    portal.resetCounts();
    const res = await call('/company/payouts', { method: 'POST', body: 'symbol=OGDC' });
    assert.equal(res.status, 200);
    assert.match(
      res.text,
      /^<table class="tbl"><thead class="tbl__head"><tr><th>Date<\/th><th>Financial Results<\/th>/,
    );
    assert.match(
      res.text,
      /<td>October 27, 2025 5:10 PM<\/td><td>30\/09\/2025\(IQ\)<\/td><td> 75%\(i\) \(D\) <\/td><td>10\/11\/2025 {2}- 12\/11\/2025 <\/td>/,
    );
    assert.equal(portal.counts().requests['POST /company/payouts'], 1);
    const none = await call('/company/payouts', { method: 'POST', body: 'symbol=HUBC' });
    assert.match(none.text, /<tbody class="tbl__body"><\/tbody>/);
  });
});
