// A symbol not traded today (on the screener, not on the market watch) over real HTTP: its quote
// says no trade and no change in all three fields alike, and the breadth counts it unchanged as
// the sector table does, so /market/breadth and /sectors add up to the same numbers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertListEnvelope, assertSingleEnvelope } from '../helpers/shape.ts';

const harness = portalHarness();

describe('a symbol not traded today', () => {
  it('has volume 0, change 0 and change_pct 0 on the quote and /quotes alike', async () => {
    const svc = await harness.fresh();
    const ds = harness.portal.dataset;
    const board = new Set(ds.marketWatch.map((r) => r.symbol));
    const notTraded = ds.screener.filter((r) => !board.has(r.symbol)).map((r) => r.symbol);
    assert.ok(notTraded.includes('FEROZ'), 'the fake portal has untraded symbols');
    const batchRes = await http(svc.url, `/quotes?symbols=${notTraded.join(',')}`);
    assert.deepEqual(batchRes.json.meta.not_found, []);
    const batch = batchRes.json.data as Array<Record<string, unknown>>;
    for (const symbol of notTraded) {
      const q = assertSingleEnvelope((await http(svc.url, `/stocks/${symbol}/quote`)).json);
      assert.deepEqual(
        { volume: q.volume, change: q.change, change_pct: q.change_pct },
        { volume: 0, change: 0, change_pct: 0 },
        symbol,
      );
      // No trade today: no open, high or low; the price is the last close.
      assert.deepEqual([q.open, q.high, q.low], [null, null, null], symbol);
      assert.equal(q.price, ds.screener.find((r) => r.symbol === symbol)!.price, symbol);
      const row = batch.find((r) => r.symbol === symbol)!;
      assert.deepEqual([row.volume, row.change, row.change_pct], [0, 0, 0], `${symbol} on /quotes`);
    }
  });
});

describe('breadth and sectors', () => {
  it('count advances, declines and unchanged alike (unchanged includes the untraded)', async () => {
    const svc = await harness.fresh();
    const breadth = assertSingleEnvelope((await http(svc.url, '/market/breadth')).json);
    const sectors = assertListEnvelope((await http(svc.url, '/sectors')).json) as Array<{
      advance: number;
      decline: number;
      unchanged: number;
    }>;
    const sum = (k: 'advance' | 'decline' | 'unchanged') => sectors.reduce((n, s) => n + (s[k] ?? 0), 0);
    assert.ok(sum('unchanged') > 0, 'the sector table counts some unchanged');
    assert.deepEqual(
      { advances: breadth.advances, declines: breadth.declines, unchanged: breadth.unchanged },
      { advances: sum('advance'), declines: sum('decline'), unchanged: sum('unchanged') },
    );
    assert.equal(
      breadth.total,
      (breadth.advances as number) + (breadth.declines as number) + (breadth.unchanged as number),
    );
  });
});
