// The fake portal's market is its clock's day, over real HTTP through the service: history, quote,
// intraday and the market clock describe one Karachi trading day, and no print lies after the
// clock or after the close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { isMarketOpen } from '../../src/time/market-clock.ts';
import { http, startService } from '../helpers/service.ts';

const pk = (iso: string): number => Date.parse(`${iso}+05:00`);

async function dayAt(nowIso: string) {
  const now = pk(nowIso);
  const portal = await startFakePortal({ now: () => now });
  const svc = await startService(portal.url, {}, { overrides: { now: () => now } });
  try {
    const quote = (await http(svc.url, '/stocks/ENGRO/quote')).json.data;
    const history = (await http(svc.url, '/stocks/ENGRO/historical?order=desc&limit=2')).json.data;
    const ticks = (await http(svc.url, '/stocks/ENGRO/intraday?interval=tick')).json.data as Array<{
      time: string;
      price: number;
    }>;
    const index = (await http(svc.url, '/indices/KSE100/intraday?interval=tick')).json.data as Array<{
      time: string;
    }>;
    portal.motion.tick(['ENGRO']);
    const moved = JSON.parse(portal.motion.intradayJson('ENGRO')) as { data: number[][] };
    return { now, portal, quote, history, ticks, index, lastMoved: moved.data[0]![0]! * 1000 };
  } finally {
    await svc.close();
    await portal.close();
  }
}

describe('the fake portal’s market is its clock’s day', () => {
  const cases: ReadonlyArray<[name: string, now: string, day: string]> = [
    ['during a session: today, up to now', '2026-11-26T11:00:05', '2026-11-26'],
    ['on the Friday break: today, up to the morning close', '2026-11-27T13:05:00', '2026-11-27'],
    ['at night before a trading day: the last session’s day', '2026-11-26T02:17:00', '2026-11-25'],
    ['on a weekend: Friday', '2026-11-29T10:00:00', '2026-11-27'],
  ];
  for (const [name, nowIso, day] of cases) {
    it(name, async () => {
      const { now, quote, history, ticks, index, lastMoved } = await dayAt(nowIso);
      assert.equal(history[0].date, day, 'the history ends on the day');
      assert.equal(quote.price, history[0].close, 'the quote is that day’s close so far');
      assert.equal(quote.ldcp, history[1].close);
      assert.ok(ticks.length > 0 && index.length > 0);
      for (const t of [...ticks, ...index]) {
        const at = Date.parse(t.time);
        assert.ok(t.time.startsWith(day), t.time);
        assert.ok(at <= now, `${t.time} is after the clock`);
        assert.ok(isMarketOpen(at), `${t.time} is outside a session`);
      }
      assert.equal(ticks.at(-1)!.price, quote.price, 'the last print is the board’s price');
      // A print of the moving market is stamped inside a session too, never after the close.
      assert.ok(lastMoved <= now && isMarketOpen(lastMoved), new Date(lastMoved).toISOString());
    });
  }

  it('keeps the documented day without a clock (every other test’s dataset)', async () => {
    const portal = await startFakePortal();
    try {
      assert.equal(portal.dataset.asOfDate, '2026-11-20');
      assert.equal(portal.dataset.asOfIso, '2026-11-20T16:35:00+05:00');
    } finally {
      await portal.close();
    }
  });
});
