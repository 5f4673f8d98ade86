// Properties the definitions promise, over generated price series (fast-check): returns over
// consecutive periods compound to the return over their union; an indicator computed on a suffix of
// the history equals the whole history's once warmed up (exactly for the windowed ones, within
// 1e-9 relative for the exponentially smoothed ones once their seed has decayed below that).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { minusMonths } from '../../src/analytics/dates.ts';
import { atr, bollinger, ema, macd, obv, rsi, sma, vwap, type Line } from '../../src/analytics/indicators.ts';
import { periodStart } from '../../src/analytics/periods.ts';
import { maxDrawdown, returnBetween } from '../../src/analytics/returns.ts';

const price = fc.double({ min: 1, max: 1000, noNaN: true, noDefaultInfinity: true });
const series = (min: number, max: number) => fc.array(price, { minLength: min, maxLength: max });

function near(a: number | null, b: number | null, rel: number, what: string): void {
  if (a === null || b === null) return assert.equal(a, b, what);
  assert.ok(Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12), `${what}: ${a} vs ${b}`);
}

describe('returns', () => {
  it('compound over consecutive periods to the return over their union', () => {
    fc.assert(
      fc.property(series(3, 300), fc.nat(), fc.nat(), fc.nat(), (closes, x, y, z) => {
        const [i, j, k] = [x, y, z].map((v) => v % closes.length).sort((a, b) => a - b) as [
          number,
          number,
          number,
        ];
        // Growth factors 1 + r multiply; compared as factors (a return of 0 has no relative scale).
        const joined = (1 + returnBetween(closes, i, j)) * (1 + returnBetween(closes, j, k));
        near(joined, 1 + returnBetween(closes, i, k), 1e-12, `${i}→${j}→${k}`);
      }),
    );
  });

  it('start every calendar period on the last trading day on or before its target', () => {
    // Trading days: weekdays from 2019-01-01 to 2026-11-20.
    const dates: string[] = [];
    for (let t = Date.UTC(2019, 0, 1); t <= Date.UTC(2026, 10, 20); t += 86_400_000) {
      const d = new Date(t);
      if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) dates.push(d.toISOString().slice(0, 10));
    }
    const at = (p: Parameters<typeof periodStart>[0]) => {
      const s = periodStart(p, dates);
      return s.index === null ? s.reason : dates[s.index];
    };
    assert.equal(at('1D'), '2026-11-19');
    assert.equal(at('1W'), '2026-11-13');
    assert.equal(at('1M'), '2026-10-20');
    assert.equal(at('YTD'), '2025-12-31');
    assert.equal(at('1Y'), '2025-11-20');
    assert.equal(at('5Y'), '2021-11-19'); // 2021-11-20 is a Saturday
    assert.equal(at('ALL'), '2019-01-01');
    assert.equal(minusMonths('2026-03-31', 1), '2026-02-28');
    assert.equal(minusMonths('2024-02-29', 12), '2023-02-28');
    // Seven years back is before the first row: null with the reason, never a shorter period.
    const short = periodStart('5Y', dates.slice(dates.indexOf('2022-01-03')));
    assert.equal(short.index, null);
    assert.match((short as { reason: string }).reason, /starts on 2022-01-03/);
  });

  it('never report a drawdown deeper than any fall it can see, nor a positive one', () => {
    fc.assert(
      fc.property(series(1, 200), (closes) => {
        const d = maxDrawdown(closes, 0, closes.length - 1);
        assert.ok(d.value <= 0);
        for (let a = 0; a < closes.length; a++)
          for (let b = a; b < closes.length; b++) assert.ok(closes[b]! / closes[a]! - 1 >= d.value - 1e-15);
        if (d.peak !== null) near(closes[d.trough!]! / closes[d.peak]! - 1, d.value, 1e-15, 'peak→trough');
      }),
    );
  });
});

describe('indicators on a suffix of the history', () => {
  interface Rows {
    close: number[];
    high: number[];
    low: number[];
    volume: number[];
  }
  const rows = fc
    .array(fc.tuple(price, fc.double({ min: 0, max: 0.05, noNaN: true }), fc.nat(1_000_000)), {
      minLength: 700,
      maxLength: 900,
    })
    .map((t): Rows => ({
      close: t.map(([c]) => c),
      high: t.map(([c, w]) => c * (1 + w)),
      low: t.map(([c, w]) => c * (1 - w)),
      volume: t.map(([, , v]) => v),
    }));
  const cut = (r: Rows, s: number): Rows => ({
    close: r.close.slice(s),
    high: r.high.slice(s),
    low: r.low.slice(s),
    volume: r.volume.slice(s),
  });

  /** The suffix from `s` equals the whole from row s + warm (relative tolerance `rel`). */
  function same(whole: Line, suffix: Line, s: number, warm: number, rel: number, what: string): void {
    for (let t = warm; t < suffix.length; t++) near(suffix[t]!, whole[s + t]!, rel, `${what} row ${t}`);
  }

  it('equal exactly for the windowed indicators once their window is full', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 300 }), (r, s) => {
        const p = cut(r, s);
        same(sma(r.close, 20), sma(p.close, 20), s, 19, 0, 'sma');
        const [bw, bp] = [bollinger(r.close, 20, 2), bollinger(p.close, 20, 2)];
        same(bw.upper, bp.upper, s, 19, 0, 'bb upper');
        same(bw.lower, bp.lower, s, 19, 0, 'bb lower');
        same(
          vwap(r.high, r.low, r.close, r.volume, 20),
          vwap(p.high, p.low, p.close, p.volume, 20),
          s,
          19,
          0,
          'vwap',
        );
        // OBV's level starts at 0 wherever the series starts; its changes are the same.
        const [ow, op] = [obv(r.close, r.volume), obv(p.close, p.volume)];
        for (let t = 1; t < op.length; t++) assert.equal(op[t]! - op[t - 1]!, ow[s + t]! - ow[s + t - 1]!);
      }),
      { numRuns: 30 },
    );
  });

  it('agree to 1e-9 for the smoothed ones once their seed has decayed', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 1, max: 300 }), (r, s) => {
        const p = cut(r, s);
        // (1 − α)^k < 1e-10: EMA 12 (α = 2/13) after ~140 rows, Wilder 14 (α = 1/14) after ~320.
        same(ema(r.close, 12), ema(p.close, 12), s, 160, 1e-9, 'ema');
        same(rsi(r.close, 14), rsi(p.close, 14), s, 360, 1e-9, 'rsi');
        same(atr(r.high, r.low, r.close, 14), atr(p.high, p.low, p.close, 14), s, 360, 1e-9, 'atr');
        const [mw, mp] = [macd(r.close, 12, 26, 9), macd(p.close, 12, 26, 9)];
        // MACD and its signal are differences of nearly equal EMAs: compared to the close's scale.
        for (let t = 400; t < mp.macd.length; t++) {
          assert.ok(Math.abs(mp.macd[t]! - mw.macd[s + t]!) <= 1e-9 * r.close[s + t]!, `macd row ${t}`);
          assert.ok(Math.abs(mp.signal[t]! - mw.signal[s + t]!) <= 1e-9 * r.close[s + t]!, `signal row ${t}`);
        }
      }),
      { numRuns: 30 },
    );
  });
});
