// One price per symbol at one moment, over real HTTP: the quote, the batch quotes, the movers and a
// new stream's snapshot read the same market-watch copy and say the same as_of, also after the
// stream's poller has refreshed that copy while earlier answers were still fresh.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http, startService } from '../helpers/service.ts';
import { isQuote, openStream, quoteOf } from '../helpers/sse.ts';

const harness = portalHarness();

const pk = (iso: string): number => Date.parse(`${iso}+05:00`);

interface Seen {
  price: number;
  asOf: string;
}

async function everyPath(url: string, symbol: string): Promise<Record<string, Seen>> {
  const out: Record<string, Seen> = {};
  for (let i = 0; i < 2; i++) {
    // The second read of a URL is a replay of the first answer where it is still good.
    const q = await http(url, `/stocks/${symbol}/quote`);
    out[`quote #${i + 1}`] = { price: q.json.data.price, asOf: q.json.data.as_of };
    const batch = await http(url, `/quotes?symbols=${symbol},HBL`);
    const row = (batch.json.data as Array<{ symbol: string; price: number; as_of: string }>).find(
      (r) => r.symbol === symbol,
    )!;
    out[`quotes #${i + 1}`] = { price: row.price, asOf: row.as_of };
    assert.equal(batch.json.meta.as_of, row.as_of, 'the batch meta says its rows’ time');
  }
  for (const by of ['gainers', 'losers', 'active']) {
    const movers = await http(url, `/market/movers?by=${by}&limit=100`);
    const row = (movers.json.data as Array<{ symbol: string; price: number }>).find(
      (r) => r.symbol === symbol,
    );
    if (row) out[`movers ${by}`] = { price: row.price, asOf: movers.json.meta.as_of };
  }
  const s = await openStream(`${url}/stream/quotes?symbols=${symbol}`);
  try {
    const [snap] = await s.waitFor(isQuote(symbol), 1);
    const q = quoteOf(snap!);
    out['stream snapshot'] = { price: q.price as number, asOf: q.as_of as string };
  } finally {
    s.close();
  }
  return out;
}

describe('one price per symbol at one moment', () => {
  it('the quote, /quotes, the movers and the stream agree, before and after the poller refreshes the board', async () => {
    let now = pk('2026-11-26T11:00:00');
    const svc = await startService(
      harness.portal.url,
      { STREAM_POLL_SECONDS: '3600' },
      { overrides: { now: () => now } },
    );
    try {
      const board = () => harness.portal.motion.view().marketWatch.find((r) => r.symbol === 'ENGRO')!;
      const first = await everyPath(svc.url, 'ENGRO');
      assert.ok(
        Object.keys(first).some((k) => k.startsWith('movers')),
        'ENGRO is among the movers',
      );
      for (const [where, seen] of Object.entries(first)) {
        assert.deepEqual(seen, { price: board().current, asOf: '2026-11-26T11:00:00+05:00' }, where);
      }
      // Thirty seconds on, the market moves and the stream's poller fetches the board while the
      // answers above are still fresh: every path must show the new price, none the old.
      now += 30_000;
      const before = board().current;
      harness.portal.motion.tick(['ENGRO']);
      assert.notEqual(board().current, before);
      assert.equal(await svc.service.live.poller.pollNow(), 'changed');
      const second = await everyPath(svc.url, 'ENGRO');
      for (const [where, seen] of Object.entries(second)) {
        assert.deepEqual(seen, { price: board().current, asOf: '2026-11-26T11:00:30+05:00' }, where);
      }
    } finally {
      await svc.close();
    }
  });
});
