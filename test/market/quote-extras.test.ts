// The quote's background company fetches are counted per minute on the service's clock: a test that
// moves the injected clock by a minute opens the next window without waiting a real one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

let portal: FakePortal;
let svc: RunningService;
let clock = Date.parse('2026-11-18T11:00:00+05:00');

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url, {}, { overrides: { now: () => clock } });
});
after(async () => {
  await svc.close();
  await portal.close();
});

const companyFetches = (symbol: string): number => portal.counts().requests[`GET /company/${symbol}`] ?? 0;

/** A cold quote; true when it started a background fetch (then waits until that fetch is done). */
async function coldQuote(symbol: string): Promise<boolean> {
  const res = await http(svc.url, `/stocks/${symbol}/quote`);
  assert.equal(res.status, 200, symbol);
  assert.equal(res.json.data.extras_as_of, null, `${symbol}: no extras yet`);
  // A quote whose extras are on their way is cacheable for 2 s only (src/market/quotes/quote-extras.ts).
  const started = res.headers['cache-control'] === 'public, max-age=2';
  // The profile reads the same company page, joining the background fetch in flight.
  if (started) assert.equal((await http(svc.url, `/stocks/${symbol}/profile`)).status, 200);
  return started;
}

describe('quote extras: background company fetches', () => {
  it('start at most 10 a minute, and the window follows the injected clock', async () => {
    const symbols = portal.dataset.marketWatch.slice(0, 13).map((r) => r.symbol);
    const started: boolean[] = [];
    for (const symbol of symbols.slice(0, 11)) started.push(await coldQuote(symbol));
    assert.deepEqual(
      started,
      [...Array<boolean>(10).fill(true), false],
      'the 11th waits for the next minute',
    );
    assert.deepEqual(
      symbols.slice(0, 11).map(companyFetches),
      [...Array<number>(10).fill(1), 0],
      'one company fetch for each of the first 10',
    );

    clock += 59_999;
    assert.equal(await coldQuote(symbols[11]!), false, 'still the same minute on the service clock');
    // (A refused quote is cached like any other, so a new symbol asks again.)
    clock += 1;
    assert.equal(await coldQuote(symbols[12]!), true, 'a new minute on the service clock: a new fetch');
    assert.equal(companyFetches(symbols[11]!), 0);
    assert.equal(companyFetches(symbols[12]!), 1);
  });
});

describe('quote extras in /quotes', () => {
  it('follow the single quote’s freshness: the batch shows them when /stocks/{s}/quote does', async () => {
    const batchPath = '/quotes?symbols=PSO,HBL';
    const first = await http(svc.url, batchPath);
    assert.equal(first.status, 200);
    const pso = (first.json.data as Array<Record<string, unknown>>).find((q) => q.symbol === 'PSO')!;
    assert.equal(pso.extras_as_of, null, 'no extras on the first quote');
    assert.match(first.headers['cache-control']!, /^public, max-age=[0-2]$/, 'pending: seconds only');
    // The profile reads the same company page, joining the background fetch in flight.
    assert.equal((await http(svc.url, '/stocks/PSO/profile')).status, 200);
    clock += 3_000; // past the pending answers' 2 s, far within the market watch's freshness
    const single = await http(svc.url, '/stocks/PSO/quote');
    assert.equal(single.json.data.extras_as_of, portal.dataset.asOfIso, 'the single quote has them');
    const batch = await http(svc.url, batchPath);
    const again = (batch.json.data as Array<Record<string, unknown>>).find((q) => q.symbol === 'PSO')!;
    assert.deepEqual(again, single.json.data, 'the batch says what the single quote says');
  });
});
