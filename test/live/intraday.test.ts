// Intraday series, index history, batch quotes, movers and breadth over real HTTP against the fake
// portal, checked against the fake's own prints and market watch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { withoutCompanyExtras } from '../helpers/shape.ts';
import { http } from '../helpers/service.ts';

const harness = portalHarness();

type Print = [number, number, number];

/** The fake portal's prints for a code, oldest first, read from its own series. */
function printsOf(code: string): Print[] {
  const body = JSON.parse(harness.portal.motion.intradayJson(code)) as { data: Print[] };
  return [...body.data].reverse();
}

/** Karachi wall clock of an epoch, as the API writes it. */
function karachi(epoch: number): string {
  return `${new Date((epoch + 5 * 3600) * 1000).toISOString().slice(0, 19)}+05:00`;
}

/** Bars computed independently: every print goes to the Karachi-clock slot holding it. */
function expectedBars(prints: Print[], minutes: number) {
  const size = minutes * 60;
  const slots = new Map<number, Print[]>();
  for (const p of prints) {
    const slot = Math.floor((p[0] + 5 * 3600) / size);
    slots.set(slot, [...(slots.get(slot) ?? []), p]);
  }
  return [...slots.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([slot, ps]) => ({
      time: karachi(slot * size - 5 * 3600),
      open: ps[0]![1],
      high: Math.max(...ps.map((p) => p[1])),
      low: Math.min(...ps.map((p) => p[1])),
      close: ps[ps.length - 1]![1],
      volume: ps.reduce((n, p) => n + p[2], 0),
      trades: ps.length,
    }));
}

describe('intraday series', () => {
  it('gives every print oldest first, ending at the quote’s price and adding up to its volume', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/stocks/hbl/intraday?interval=tick');
    assert.equal(res.status, 200);
    const prints = printsOf('HBL');
    assert.ok(prints.length > 10);
    assert.deepEqual(
      res.json.data,
      prints.map(([epoch, price, volume]) => ({ time: karachi(epoch), price, volume })),
    );
    const quote = (await http(svc.url, '/stocks/HBL/quote')).json.data;
    const ticks = res.json.data as { price: number; volume: number }[];
    assert.equal(ticks[ticks.length - 1]!.price, quote.price);
    assert.equal(
      ticks.reduce((n, t) => n + t.volume, 0),
      quote.volume,
    );
    assert.equal(Math.max(...ticks.map((t) => t.price)), quote.high);
    assert.equal(Math.min(...ticks.map((t) => t.price)), quote.low);
  });

  it('builds bars whose OHLCV and trades match the prints exactly, for every interval', async () => {
    const svc = await harness.fresh();
    for (const code of ['HBL', 'ENGRO', 'WTL']) {
      const prints = printsOf(code);
      for (const minutes of [1, 5, 15, 30, 60]) {
        const res = await http(svc.url, `/stocks/${code}/intraday?interval=${minutes}m`);
        assert.equal(res.status, 200);
        assert.deepEqual(res.json.data, expectedBars(prints, minutes), `${code} ${minutes}m`);
        assert.equal(res.json.meta.count, res.json.data.length);
      }
    }
    // 5m is the default; one portal fetch per symbol served every interval.
    const byDefault = await http(svc.url, '/stocks/HBL/intraday');
    assert.deepEqual(byDefault.json.data, expectedBars(printsOf('HBL'), 5));
    assert.equal(harness.portal.counts().requests['GET /timeseries/int/HBL'], 1);
  });

  it('starts 60-minute bars on the hour and never makes a bar for an interval without prints', async () => {
    const svc = await harness.fresh();
    const bars = (await http(svc.url, '/stocks/ENGRO/intraday?interval=60m')).json.data as { time: string }[];
    assert.ok(bars.every((b) => /T\d\d:00:00\+05:00$/.test(b.time)));
    // Friday's break (12:00–14:30) has no prints, so no 12:00 or 13:00 bar.
    assert.ok(!bars.some((b) => /T1[23]:00/.test(b.time)));
  });

  it('answers an empty day for a listed symbol that has not traded, and 404 for an unknown one', async () => {
    const svc = await harness.fresh();
    const idle = await http(svc.url, '/stocks/FEROZ/intraday?interval=tick');
    assert.equal(idle.status, 200);
    assert.deepEqual(idle.json.data, []);
    const unknown = await http(svc.url, '/stocks/NOSUCH/intraday');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, 'not_found');
    const badInterval = await http(svc.url, '/stocks/HBL/intraday?interval=2m');
    assert.equal(badInterval.status, 422);
    assert.match(badInterval.json.error.message, /interval/);
  });

  it('gives an index’s ticks as {time, value, volume} from LDCP to the level on /indices', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/indices/kse-100/intraday?interval=tick');
    assert.equal(res.status, 200);
    const prints = printsOf('KSE100');
    assert.deepEqual(
      res.json.data,
      prints.map(([epoch, value, volume]) => ({ time: karachi(epoch), value, volume })),
    );
    const level = ((await http(svc.url, '/indices')).json.data as { index: string; current: number }[]).find(
      (l) => l.index === 'KSE100',
    )!;
    const ticks = res.json.data as { value: number }[];
    assert.equal(ticks[ticks.length - 1]!.value, level.current);
    const bars = await http(svc.url, '/indices/KSE100/intraday?interval=30m');
    assert.deepEqual(bars.json.data, expectedBars(prints, 30));
    assert.equal((await http(svc.url, '/indices/NOSUCH/intraday')).status, 404);
  });
});

describe('index history', () => {
  it('gives daily levels with null high and low, today’s close at the current level', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/indices/KSE100/historical?start=2026-11-16');
    assert.equal(res.status, 200);
    const rows = res.json.data as { date: string; open: number; high: null; low: null; close: number }[];
    assert.deepEqual(
      rows.map((r) => r.date),
      ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'],
    );
    assert.ok(rows.every((r) => r.high === null && r.low === null));
    const summary = (await http(svc.url, '/market/summary')).json.data;
    assert.equal(rows[rows.length - 1]!.close, summary.kse100);
    for (let i = 1; i < rows.length; i++) assert.equal(rows[i]!.open, rows[i - 1]!.close);
  });

  it('dates old rows in Karachi (their instants are Karachi midnight, the day before in UTC)', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/indices/KSE100/historical?start=2022-06-06&end=2022-06-12');
    assert.deepEqual(
      (res.json.data as { date: string }[]).map((r) => r.date),
      ['2022-06-06', '2022-06-07', '2022-06-08', '2022-06-09', '2022-06-10'],
    );
  });

  it('cuts, orders and limits like the stock history, and rejects a reversed range', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/indices/KSE100/historical?order=desc&limit=2');
    assert.deepEqual(
      (res.json.data as { date: string }[]).map((r) => r.date),
      ['2026-11-20', '2026-11-19'],
    );
    const reversed = await http(svc.url, '/indices/KSE100/historical?start=2026-11-20&end=2026-11-16');
    assert.equal(reversed.status, 400);
    assert.equal(reversed.json.error.code, 'bad_request');
    assert.equal((await http(svc.url, '/indices/NOSUCH/historical')).status, 404);
  });
});

describe('many quotes in one call', () => {
  it('answers in the order asked, each once, with unknown symbols in meta.not_found', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/quotes?symbols=LUCK,hbl,NOSUCH,ENGRO,HBL,ZZZZ');
    assert.equal(res.status, 200);
    assert.deepEqual(
      (res.json.data as { symbol: string }[]).map((q) => q.symbol),
      ['LUCK', 'HBL', 'ENGRO'],
    );
    assert.deepEqual(res.json.meta.not_found, ['NOSUCH', 'ZZZZ']);
    assert.equal(res.json.meta.count, 3);
    const single = await http(svc.url, '/stocks/ENGRO/quote');
    assert.deepEqual(withoutCompanyExtras(res.json.data[2]), withoutCompanyExtras(single.json.data));
  });

  it('reads each portal page once however many symbols are asked', async () => {
    const svc = await harness.fresh();
    const symbols = harness.portal.dataset.marketWatch.map((r) => r.symbol);
    assert.ok(symbols.length >= 50);
    const res = await http(svc.url, `/quotes?symbols=${symbols.join(',')}`);
    assert.equal(res.json.data.length, symbols.length);
    assert.deepEqual(res.json.meta.not_found, []);
    const { requests } = harness.portal.counts();
    assert.equal(requests['GET /market-watch'], 1);
    assert.equal(requests['GET /screener'], 1);
  });

  it('refuses more than 100 symbols, none, or a malformed one, saying why', async () => {
    const svc = await harness.fresh();
    const many = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
    const tooMany = await http(svc.url, `/quotes?symbols=${many}`);
    assert.equal(tooMany.status, 422);
    assert.match(tooMany.json.error.message, /at most 100 symbols/);
    const none = await http(svc.url, '/quotes?symbols=,,');
    assert.equal(none.status, 400);
    const bad = await http(svc.url, '/quotes?symbols=HBL,%3Cx%3E');
    assert.equal(bad.status, 422);
    assert.match(bad.json.error.message, /\(got "<X>"\)/);
    assert.equal((await http(svc.url, '/quotes')).status, 422);
  });
});

describe('the market at a glance', () => {
  it('ranks gainers, losers and the most active from the market watch', async () => {
    const svc = await harness.fresh();
    const board = harness.portal.motion.view().marketWatch;
    const ranked = (
      key: (r: (typeof board)[number]) => number,
      keep: (r: (typeof board)[number]) => boolean,
    ) =>
      board
        .filter(keep)
        .sort((a, b) => key(b) - key(a) || (a.symbol < b.symbol ? -1 : 1))
        .map((r) => r.symbol);
    const gainers = await http(svc.url, '/market/movers?by=gainers&limit=5');
    assert.deepEqual(
      gainers.json.data.map((m: { symbol: string }) => m.symbol),
      ranked(
        (r) => r.changePct!,
        (r) => r.changePct! > 0,
      ).slice(0, 5),
    );
    const losers = await http(svc.url, '/market/movers?by=losers');
    assert.deepEqual(
      losers.json.data.map((m: { symbol: string }) => m.symbol),
      ranked(
        (r) => -r.changePct!,
        (r) => r.changePct! < 0,
      ).slice(0, 10),
    );
    const active = await http(svc.url, '/market/movers?by=active&limit=3');
    const top = board.find((r) => r.symbol === active.json.data[0].symbol)!;
    assert.deepEqual(active.json.data[0], {
      symbol: top.symbol,
      name: top.name,
      price: top.current,
      change: top.change,
      change_pct: Math.round(top.changePct! * 1e4) / 1e4,
      volume: top.volume,
    });
    assert.deepEqual(
      active.json.data.map((m: { symbol: string }) => m.symbol),
      ranked(
        (r) => r.volume!,
        () => true,
      ).slice(0, 3),
    );
    assert.equal((await http(svc.url, '/market/movers?by=sideways')).status, 422);
    assert.equal(harness.portal.counts().requests['GET /market-watch'], 1);
  });

  it('counts advances, declines and totals over the market watch, the untraded as unchanged', async () => {
    const svc = await harness.fresh();
    const board = harness.portal.motion.view().marketWatch;
    const onBoard = new Set(board.map((r) => r.symbol));
    const untraded = harness.portal.dataset.screener.filter((r) => !onBoard.has(r.symbol)).length;
    const res = await http(svc.url, '/market/breadth');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.data, {
      advances: board.filter((r) => r.change! > 0).length,
      declines: board.filter((r) => r.change! < 0).length,
      unchanged: board.filter((r) => r.change === 0).length + untraded,
      total: board.length + untraded,
      total_volume: board.reduce((n, r) => n + r.volume!, 0),
      total_value: Math.round(board.reduce((n, r) => n + r.current! * r.volume!, 0)),
    });
  });
});

describe('the fake portal’s moving market', () => {
  it('keeps the intraday series ending at the moved market-watch price and volume', async () => {
    const res = await fetch(`${harness.portal.url}/__fake/tick`, {
      method: 'POST',
      body: JSON.stringify({ symbols: ['HBL', 'ENGRO'] }),
    });
    const moved = (await res.json()) as { step: number; moved: string[] };
    assert.deepEqual(moved.moved, ['HBL', 'ENGRO']);
    const svc = await harness.fresh();
    for (const symbol of moved.moved) {
      const quote = (await http(svc.url, `/stocks/${symbol}/quote`)).json.data;
      const ticks = (await http(svc.url, `/stocks/${symbol}/intraday?interval=tick`)).json.data as {
        price: number;
        volume: number;
      }[];
      assert.equal(ticks[ticks.length - 1]!.price, quote.price, symbol);
      assert.equal(
        ticks.reduce((n, t) => n + t.volume, 0),
        quote.volume,
        symbol,
      );
      assert.ok(quote.high >= quote.price && quote.low <= quote.price, symbol);
    }
    const bad = await fetch(`${harness.portal.url}/__fake/tick`, { method: 'POST', body: '{"symbols":3}' });
    assert.equal(bad.status, 400);
  });
});
