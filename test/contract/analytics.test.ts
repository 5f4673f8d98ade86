// Performance and indicators over real HTTP against the fake portal. Expected values are computed
// here from the rows /historical and /indices/{name}/historical serve (and, for the planted capital
// changes, from the fake's raw rows and planted ratios), with the definitions in docs/analytics.md
// written out independently of src/analytics; indicators are compared to trading-signals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BollingerBands, RSI, SMA } from 'trading-signals';
import { PLANTED_ACTIONS } from '../../dev/fake-portal/corporate-actions.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertAsOf, assertError } from '../helpers/shape.ts';

interface Row {
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number;
  volume: number | null;
}

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

function rel(a: number | null, b: number | null, what: string, tol = 1e-9): void {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b), 1e-9), `${what}: ${a} vs ${b}`);
}

/** A calendar target: `months` back from `end`, the day clamped to the month's length. */
function monthsBack(end: string, months: number): string {
  const [y, m, d] = end.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

function lastOnOrBefore(rows: { date: string }[], date: string): number {
  let found = -1;
  rows.forEach((r, i) => {
    if (r.date <= date) found = i;
  });
  return found;
}

const TARGETS: Record<string, (end: string) => string> = {
  '1W': (e) => new Date(Date.parse(e) - 7 * 86_400_000).toISOString().slice(0, 10),
  '1M': (e) => monthsBack(e, 1),
  '3M': (e) => monthsBack(e, 3),
  '6M': (e) => monthsBack(e, 6),
  YTD: (e) => `${Number(e.slice(0, 4)) - 1}-12-31`,
  '1Y': (e) => monthsBack(e, 12),
  '3Y': (e) => monthsBack(e, 36),
  '5Y': (e) => monthsBack(e, 60),
};

function expectedStart(rows: Row[], period: string): number {
  if (period === '1D') return rows.length - 2;
  if (period === 'ALL') return 0;
  return lastOnOrBefore(rows, TARGETS[period]!(rows.at(-1)!.date));
}

function sampleSd(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

describe('GET /stocks/{symbol}/performance', () => {
  for (const symbol of ['ENGRO', 'LUCK', 'SYS', 'HBL']) {
    it(`${symbol}: every period, the volatility, the drawdowns and beta follow their definitions`, async () => {
      const body = await json(`/stocks/${symbol}/performance`);
      assertAsOf(body.meta.as_of);
      const p = body.data;
      const rows = (await json(`/stocks/${symbol}/historical?adjusted=true`)).data as Row[];
      const index = (await json('/indices/KSE100/historical')).data as Row[];
      assert.equal(p.symbol, symbol);
      assert.equal(p.adjusted, true);
      assert.equal(p.benchmark, 'KSE100');
      assert.equal(p.last_date, rows.at(-1)!.date);
      for (const r of p.returns) {
        const s = expectedStart(rows, r.period);
        if (s < 0) {
          assert.equal(r.return_pct, null, `${symbol} ${r.period}`);
          assert.match(r.reason, /history starts on/);
          continue;
        }
        assert.equal(r.start_date, rows[s]!.date, `${symbol} ${r.period} start`);
        rel(r.return_pct, (rows.at(-1)!.close / rows[s]!.close - 1) * 100, `${symbol} ${r.period}`);
        const bi = lastOnOrBefore(index, rows[s]!.date);
        const bj = lastOnOrBefore(index, rows.at(-1)!.date);
        if (bi >= 0) {
          const b = (index[bj]!.close / index[bi]!.close - 1) * 100;
          rel(r.benchmark_return_pct, b, `${symbol} ${r.period} benchmark`);
          rel(r.excess_return_pct, r.return_pct - b, `${symbol} ${r.period} excess`, 1e-8);
        }
      }
      // Volatility: 1Y window of daily log returns, sample sd × √n.
      const s1y = expectedStart(rows, '1Y');
      const logs = rows.slice(s1y + 1).map((r, k) => Math.log(r.close / rows[s1y + k]!.close));
      rel(p.volatility_1y.value_pct, sampleSd(logs) * Math.sqrt(logs.length) * 100, `${symbol} volatility`);
      assert.equal(p.volatility_1y.daily_returns, logs.length);
      // Drawdown over all history: brute force over every pair.
      let worst = 0;
      for (let a = 0; a < rows.length; a++) {
        let low = Infinity;
        for (let b = a; b < rows.length; b++) low = Math.min(low, rows[b]!.close);
        worst = Math.min(worst, low / rows[a]!.close - 1);
      }
      rel(p.max_drawdown_all.value_pct, worst * 100, `${symbol} drawdown`);
      const peak = rows.find((r) => r.date === p.max_drawdown_all.peak_date)!;
      const trough = rows.find((r) => r.date === p.max_drawdown_all.trough_date)!;
      rel((trough.close / peak.close - 1) * 100, p.max_drawdown_all.value_pct, `${symbol} peak→trough`);
      if (p.max_drawdown_all.recovery_date !== null) {
        const after = rows.filter((r) => r.date > trough.date && r.date < p.max_drawdown_all.recovery_date);
        assert.ok(
          after.every((r) => r.close < peak.close),
          'no earlier recovery',
        );
      }
      // Beta and correlation on the dates both have, over the 1Y window.
      const levels = new Map(index.map((r) => [r.date, r.close]));
      const shared = rows.slice(s1y).filter((r) => levels.has(r.date));
      const ra = shared.slice(1).map((r, k) => r.close / shared[k]!.close - 1);
      const rb = shared.slice(1).map((r, k) => levels.get(r.date)! / levels.get(shared[k]!.date)! - 1);
      const ma = ra.reduce((x, y) => x + y, 0) / ra.length;
      const mb = rb.reduce((x, y) => x + y, 0) / rb.length;
      const cov = ra.reduce((x, a, k) => x + (a - ma) * (rb[k]! - mb), 0);
      const vb = rb.reduce((x, b) => x + (b - mb) ** 2, 0);
      const va = ra.reduce((x, a) => x + (a - ma) ** 2, 0);
      rel(p.beta_1y.beta, cov / vb, `${symbol} beta`);
      rel(p.beta_1y.correlation, cov / Math.sqrt(va * vb), `${symbol} correlation`);
      // 52-week range from the rows' highs and lows.
      const from = new Date(Date.parse(p.last_date) - 364 * 86_400_000).toISOString().slice(0, 10);
      const year = rows.filter((r) => r.date >= from);
      assert.equal(p.range_52w.high, Math.max(...year.map((r) => r.high ?? r.close)));
      assert.equal(p.range_52w.low, Math.min(...year.map((r) => r.low ?? r.close)));
    });
  }

  it('reads a bonus or a split as no loss: the adjusted return across it is the economic one', async () => {
    for (const symbol of ['SYS', 'LUCK']) {
      const action = PLANTED_ACTIONS.find((a) => a.symbol === symbol)!;
      const raw = [...portal.dataset.history(symbol)].reverse();
      const adjusted = (await json(`/stocks/${symbol}/performance`)).data;
      const asTraded = (await json(`/stocks/${symbol}/performance?adjusted=false`)).data;
      const all = adjusted.returns.find((r: { period: string }) => r.period === 'ALL');
      const allRaw = asTraded.returns.find((r: { period: string }) => r.period === 'ALL');
      assert.ok(all.start_date < action.exDate);
      // Raw first close ÷ ratio is what a holder's one share then is worth in today's shares.
      const economic = (raw.at(-1)!.close! / (raw[0]!.close! / action.ratio!) - 1) * 100;
      rel(all.return_pct, economic, `${symbol} adjusted ALL`, 1e-3);
      rel(allRaw.return_pct, (raw.at(-1)!.close! / raw[0]!.close! - 1) * 100, `${symbol} raw ALL`);
      assert.ok(all.return_pct > allRaw.return_pct, `${symbol}: the raw return reads the action as a loss`);
      assert.ok(adjusted.max_drawdown_all.value_pct > asTraded.max_drawdown_all.value_pct - 1e-9);
    }
  });

  it('dividends=true gives the total return: higher than the price return over a dividend', async () => {
    const price = (await json('/stocks/OGDC/performance')).data;
    const total = await json('/stocks/OGDC/performance?dividends=true');
    assert.equal(total.data.dividends, true);
    assert.equal(total.meta.adjustment.dividends, true);
    const y = (d: { returns: { period: string; return_pct: number }[] }) =>
      d.returns.find((r) => r.period === 'ALL')!.return_pct;
    assert.ok(y(total.data) > y(price), `${y(total.data)} > ${y(price)}`);
  });

  it('answers a repeat from its cache, with one ETag, and CSV as one row', async () => {
    const first = await http(svc.url, '/stocks/ENGRO/performance?benchmark=KSE30');
    const second = await http(svc.url, '/stocks/ENGRO/performance?benchmark=KSE30');
    assert.equal(first.json.data.benchmark, 'KSE30');
    assert.equal(second.json.meta.cached, true);
    assert.equal(first.headers.etag, second.headers.etag);
    const csv = await http(svc.url, '/stocks/ENGRO/performance?format=csv');
    assert.equal(csv.status, 200);
    assert.equal(csv.text.split('\r\n').filter(Boolean).length, 2);
    const none = (await json('/stocks/ENGRO/performance?benchmark=none')).data;
    assert.equal(none.benchmark, null);
    assert.equal(none.beta_1y, undefined);
  });

  it('refuses what it cannot answer, naming why', async () => {
    assertError((await http(svc.url, '/stocks/NOSUCH/performance')).json, 404, 'not_found');
    assertError(
      (await http(svc.url, '/stocks/ENGRO/performance?benchmark=NOPE')).json,
      404,
      'not_found',
      /NOPE/,
    );
    assertError(
      (await http(svc.url, '/stocks/ENGRO/performance?adjusted=maybe')).json,
      422,
      'bad_request',
      /adjusted/,
    );
    assertError(
      (await http(svc.url, '/stocks/ENGRO/performance?period=1M')).json,
      400,
      'bad_request',
      /takes/,
    );
  });
});

describe('GET /stocks/{symbol}/performance?end=', () => {
  it('is the table as of that day: the rows cut at end, the periods ending there, as_of its close', async () => {
    const rows = (await json('/stocks/ENGRO/historical?adjusted=true')).data as Row[];
    const index = (await json('/indices/KSE100/historical')).data as Row[];
    // A Sunday: the table is the one of the Friday before, as of that Friday's close.
    const end = '2025-06-15';
    const cut = rows.filter((r) => r.date <= end);
    assert.ok(cut.length > 300 && cut.length < rows.length);
    const body = await json(`/stocks/ENGRO/performance?end=${end}`);
    const p = body.data;
    assertAsOf(body.meta.as_of);
    assert.equal(p.last_date, cut.at(-1)!.date);
    assert.equal(p.last_date, '2025-06-13');
    assert.equal(p.last_close, cut.at(-1)!.close);
    assert.ok(body.meta.as_of.startsWith(`${p.last_date}T`), body.meta.as_of);
    for (const r of p.returns) {
      const s = expectedStart(cut, r.period);
      assert.equal(r.end_date, p.last_date, r.period);
      if (s < 0) {
        assert.equal(r.return_pct, null, r.period);
        continue;
      }
      assert.equal(r.start_date, cut[s]!.date, `${r.period} start`);
      rel(r.return_pct, (cut.at(-1)!.close / cut[s]!.close - 1) * 100, r.period);
      const bi = lastOnOrBefore(index, cut[s]!.date);
      const bj = lastOnOrBefore(index, p.last_date);
      if (bi >= 0) rel(r.benchmark_return_pct, (index[bj]!.close / index[bi]!.close - 1) * 100, r.period);
    }
    const from = new Date(Date.parse(p.last_date) - 364 * 86_400_000).toISOString().slice(0, 10);
    const year = cut.filter((r) => r.date >= from);
    assert.equal(p.range_52w.high, Math.max(...year.map((r) => r.high ?? r.close)));
    assert.equal(p.range_52w.low, Math.min(...year.map((r) => r.low ?? r.close)));
    assert.ok(p.max_drawdown_1y.trough_date <= p.last_date);
    // The Friday itself gives the same table; today (or later than the last row) the live one.
    assert.deepEqual((await json('/stocks/ENGRO/performance?end=2025-06-13')).data, p);
    const live = await json('/stocks/ENGRO/performance');
    const lastDay = await json(`/stocks/ENGRO/performance?end=${rows.at(-1)!.date}`);
    assert.deepEqual(lastDay.data, live.data);
    assert.equal(lastDay.meta.as_of, live.meta.as_of);
  });

  it('refuses a future day (400), a malformed one (422) and a day before the history (404)', async () => {
    const future = await http(svc.url, '/stocks/ENGRO/performance?end=2099-01-01');
    assertError(future.json, 400, 'bad_request', /end 2099-01-01 is in the future \(today in Karachi is/);
    assertError(
      (await http(svc.url, '/stocks/ENGRO/performance?end=yesterday')).json,
      422,
      'bad_request',
      /end/,
    );
    const first = (await json('/stocks/ENGRO/historical?adjusted=true')).data[0].date as string;
    assertError(
      (await http(svc.url, '/stocks/ENGRO/performance?end=2001-01-01')).json,
      404,
      'not_found',
      new RegExp(`no close on or before 2001-01-01: its daily history starts on ${first}`),
    );
  });
});

describe('GET /indices/{name}/performance', () => {
  it('end= cuts the daily levels there', async () => {
    const rows = ((await json('/indices/KSE100/historical')).data as Row[]).filter(
      (r) => r.date <= '2025-03-31',
    );
    const body = await json('/indices/KSE100/performance?end=2025-03-31');
    assert.equal(body.data.last_date, rows.at(-1)!.date);
    assert.ok(body.meta.as_of.startsWith(`${rows.at(-1)!.date}T`));
    for (const r of body.data.returns) {
      const s = expectedStart(rows, r.period);
      if (s < 0) assert.equal(r.return_pct, null);
      else rel(r.return_pct, (rows.at(-1)!.close / rows[s]!.close - 1) * 100, r.period);
    }
    assertError(
      (await http(svc.url, '/indices/KSE100/performance?end=2099-01-01')).json,
      400,
      'bad_request',
      /future/,
    );
    assertError(
      (await http(svc.url, '/indices/KSE100/performance?end=1990-01-01')).json,
      404,
      'not_found',
      /KSE100/,
    );
  });

  it("computes the index's returns from its daily levels", async () => {
    const p = (await json('/indices/kse-100/performance')).data;
    const rows = (await json('/indices/KSE100/historical')).data as Row[];
    assert.equal(p.index, 'KSE100');
    for (const r of p.returns) {
      const s = expectedStart(rows, r.period);
      if (s < 0) assert.equal(r.return_pct, null);
      else rel(r.return_pct, (rows.at(-1)!.close / rows[s]!.close - 1) * 100, r.period);
    }
    assertError((await http(svc.url, '/indices/NOPE/performance')).json, 404, 'not_found');
  });
});

describe('GET /stocks/{symbol}/indicators', () => {
  it('agrees with trading-signals on the adjusted closes, one row per trading day', async () => {
    const rows = (await json('/stocks/LUCK/historical?adjusted=true')).data as Row[];
    const body = await json('/stocks/LUCK/indicators?i=sma:20,rsi:14,bbands:20:2');
    assert.deepEqual(body.meta.indicators, ['sma:20', 'rsi:14', 'bbands:20:2']);
    assert.equal(body.data.length, rows.length);
    const smaRef = new SMA(20);
    const rsiRef = new RSI(14);
    const bbRef = new BollingerBands(20, 2);
    body.data.forEach((row: Record<string, number | null>, t: number) => {
      const c = rows[t]!.close;
      assert.equal(row.date, rows[t]!.date);
      assert.equal(row.close, c);
      rel(row.sma_20!, smaRef.update(c, false), `sma ${t}`);
      rel(row.rsi_14!, rsiRef.update(c, false), `rsi ${t}`);
      rel(row.bb_upper_20_2!, bbRef.update(c, false)?.upper ?? null, `bb ${t}`);
    });
  });

  it('computes the warm-up on the whole history, then cuts to start/end', async () => {
    const i = 'ema:50,macd,atr:14,obv,vwap:10';
    const whole = (await json(`/stocks/ENGRO/indicators?i=${i}`)).data;
    const window = await json(`/stocks/ENGRO/indicators?i=${i}&start=2026-10-01&end=2026-10-31`);
    assert.ok(window.data.length > 15);
    assert.deepEqual(
      window.data,
      whole.filter((r: { date: string }) => r.date >= '2026-10-01' && r.date <= '2026-10-31'),
    );
    assert.equal(window.meta.count, window.data.length);
    // Warm-up rows are null, never a partial value.
    assert.equal(whole[48].ema_50, null);
    assert.notEqual(whole[49].ema_50, null);
    assert.equal(whole[32].macd_signal_12_26_9, null);
    assert.notEqual(whole[33].macd_signal_12_26_9, null);
    const csv = await http(
      svc.url,
      `/stocks/ENGRO/indicators?i=${i}&start=2026-10-01&end=2026-10-31&format=csv`,
    );
    assert.equal(
      csv.text.split('\r\n')[0],
      'date,close,ema_50,macd_12_26_9,macd_signal_12_26_9,macd_hist_12_26_9,atr_14,obv,vwap_10',
    );
    assert.ok(csv.headers.etag);
  });

  it('refuses a bad indicator list with a 422 that names what i accepts', async () => {
    for (const [i, why] of [
      ['foo', /unknown indicator "foo"/],
      ['sma:0', /sma n must be a whole number 1–5000/],
      ['sma:abc', /sma n must be/],
      ['rsi:100000', /rsi n must be/],
      ['macd:26:12:9', /fast must be shorter/],
      ['sma:1,sma:2,sma:3,sma:4,sma:5,sma:6,sma:7,sma:8,sma:9,sma:10,sma:11', /at most 10/],
    ] as const) {
      const res = await http(svc.url, `/stocks/ENGRO/indicators?i=${encodeURIComponent(i)}`);
      assertError(res.json, 422, 'bad_request', why);
      assert.match(res.json.error.message, /sma:N|at most 10/);
    }
    assertError((await http(svc.url, '/stocks/ENGRO/indicators')).json, 422, 'bad_request');
    assertError(
      (await http(svc.url, '/stocks/ENGRO/indicators?i=sma&start=2026-02-01&end=2026-01-01')).json,
      400,
      'bad_request',
    );
  });
});
