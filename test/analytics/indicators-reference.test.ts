// The indicators against an independent implementation: the trading-signals package (MIT, a dev
// dependency the service never imports), fed the same rows, compared to 1e-9 relative on every
// fake-portal history (the planted bonus, split and right issues included). trading-signals seeds its EMA with the first price, not the SMA: the reference
// EMA here is its SMA over the first n values followed by its EMA fed that SMA and then the rest,
// which is the SMA-seeded definition.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ATR, BollingerBands, EMA, OBV, RSI, SMA, VWMA } from 'trading-signals';
import { createDataset } from '../../dev/fake-portal/dataset.ts';
import { atr, bollinger, ema, macd, obv, rsi, sma, vwap, type Line } from '../../src/analytics/indicators.ts';
import { denoise } from '../../src/exchange/parsers/cells.ts';
import { denoiseFast } from '../../src/market/analytics/indicators.ts';

const dataset = createDataset();

interface Candle {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A fake-portal history oldest first, rows with a close only. */
function history(symbol: string): Candle[] {
  return [...dataset.history(symbol)]
    .reverse()
    .filter((r) => r.close !== null)
    .map((r) => ({
      date: r.date,
      open: r.open ?? r.close!,
      high: r.high ?? r.close!,
      low: r.low ?? r.close!,
      close: r.close!,
      volume: r.volume ?? 0,
    }));
}

const SYMBOLS = dataset.instruments
  .filter((i) => i.kind === 'equity')
  .map((i) => i.symbol)
  .filter((s) => dataset.history(s).length > 60)
  .slice(0, 12);

function close(a: number | null, b: number | null, what: string): void {
  if (a === null || b === null) {
    assert.equal(a, b, what);
    return;
  }
  const scale = Math.max(Math.abs(a), Math.abs(b), 1e-300);
  assert.ok(Math.abs(a - b) / scale <= 1e-9 || Math.abs(a - b) <= 1e-12, `${what}: ${a} vs ${b}`);
}

function sameLine(mine: Line, ref: Line, what: string): void {
  assert.equal(mine.length, ref.length, what);
  mine.forEach((v, t) => close(v, ref[t]!, `${what} row ${t}`));
}

/** Runs a trading-signals indicator over inputs; null until it reports a value. */
function run<I, O>(ind: { update(x: I, replace: boolean): O | null }, inputs: readonly I[]): (O | null)[] {
  return inputs.map((x) => ind.update(x, false));
}

function refEma(values: readonly number[], n: number, offset = 0): Line {
  const out: Line = new Array<number | null>(values.length).fill(null);
  if (offset + n > values.length) return out;
  const seed = run(new SMA(n), values.slice(offset, offset + n)).at(-1)!;
  const e = new EMA(n);
  out[offset + n - 1] = e.update(seed, false);
  for (let t = offset + n; t < values.length; t++) out[t] = e.update(values[t]!, false);
  return out;
}

describe('indicators against trading-signals', () => {
  it('covers enough histories', () => assert.ok(SYMBOLS.length >= 5, SYMBOLS.join(',')));

  for (const symbol of SYMBOLS) {
    it(`agrees on ${symbol}`, () => {
      const rows = history(symbol);
      const closes = rows.map((r) => r.close);
      const highs = rows.map((r) => r.high);
      const lows = rows.map((r) => r.low);
      const vols = rows.map((r) => r.volume);
      for (const n of [1, 5, 20, 50]) {
        sameLine(sma(closes, n), run(new SMA(n), closes), `${symbol} sma ${n}`);
        sameLine(ema(closes, n), refEma(closes, n), `${symbol} ema ${n}`);
      }
      for (const n of [2, 14, 30]) {
        // trading-signals says 100 where gains and losses are both 0; this service says null.
        const ref = run(new RSI(n), closes);
        const mine = rsi(closes, n);
        sameLine(
          mine,
          ref.map((v, t) => (mine[t] === null && v === 100 ? null : v)),
          `${symbol} rsi ${n}`,
        );
        sameLine(atr(highs, lows, closes, n), run(new ATR(n), rows), `${symbol} atr ${n}`);
      }
      const bands = bollinger(closes, 20, 2);
      const refBands = run(new BollingerBands(20, 2), closes);
      sameLine(
        bands.lower,
        refBands.map((b) => b?.lower ?? null),
        `${symbol} bb lower`,
      );
      sameLine(
        bands.middle,
        refBands.map((b) => b?.middle ?? null),
        `${symbol} bb middle`,
      );
      sameLine(
        bands.upper,
        refBands.map((b) => b?.upper ?? null),
        `${symbol} bb upper`,
      );

      const m = macd(closes, 12, 26, 9);
      const fast = refEma(closes, 12);
      const slow = refEma(closes, 26);
      const line = fast.map((f, t) => (f === null || slow[t] === null ? null : f - slow[t]!));
      const signal = refEma(line as number[], 9, 25);
      sameLine(m.macd, line, `${symbol} macd`);
      sameLine(m.signal, signal, `${symbol} macd signal`);
      sameLine(
        m.histogram,
        line.map((v, t) => (v === null || signal[t] === null ? null : v - signal[t]!)),
        `${symbol} macd histogram`,
      );

      // OBV from 0 on the first row: trading-signals' OBV(2) starts one row later at ±volume.
      const refObv = run(new OBV(2), rows);
      sameLine(obv(closes, vols), [0, ...refObv.slice(1)], `${symbol} obv`);

      // Rolling VWAP = trading-signals' volume-weighted moving average of the typical price.
      const typical = rows.map((r) => ({ ...r, close: (r.high + r.low + r.close) / 3 }));
      sameLine(vwap(highs, lows, closes, vols, 20), run(new VWMA(20), typical), `${symbol} vwap`);
    });
  }
});

describe('number cleaning of indicator tables', () => {
  it('gives what denoise gives, value for value', () => {
    for (const symbol of SYMBOLS) {
      const rows = history(symbol);
      const closes = rows.map((r) => r.close);
      const lines = [
        ...Object.values(macd(closes, 12, 26, 9)),
        rsi(closes, 14),
        ema(closes, 50),
        vwap(
          rows.map((r) => r.high),
          rows.map((r) => r.low),
          closes,
          rows.map((r) => r.volume),
          20,
        ),
        obv(
          closes,
          rows.map((r) => r.volume),
        ),
      ];
      for (const line of lines)
        for (const v of line) if (v !== null) assert.equal(denoiseFast(v), denoise(v), `${symbol} ${v}`);
    }
  });
});
