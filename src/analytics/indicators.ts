// Technical indicators over daily rows (oldest first). Each returns one value per input row;
// rows before the indicator has enough data (its warm-up) are null, never a partial value.
// Definitions (docs/analytics.md): the standard ones, Wilder's smoothing for RSI and ATR, every EMA
// seeded with the SMA of its first n values, population standard deviation for Bollinger bands.

export type Line = (number | null)[];

/** Simple moving average of the last n values; null for the first n − 1 rows. */
export function sma(values: readonly number[], n: number): Line {
  const out: Line = new Array<number | null>(values.length).fill(null);
  // Summed afresh per window: a running sum drifts by float error over thousands of rows.
  for (let t = n - 1; t < values.length; t++) {
    let sum = 0;
    for (let k = t - n + 1; k <= t; k++) sum += values[k]!;
    out[t] = sum / n;
  }
  return out;
}

/**
 * Exponential moving average, α = 2 / (n + 1), seeded with the SMA of the first n values (at row
 * n − 1), then EMA_t = α · x_t + (1 − α) · EMA_t−1. `from`: where the input's values start (earlier
 * entries are ignored, for an EMA of a series that has its own warm-up, as MACD's signal line).
 */
export function ema(values: readonly (number | null)[], n: number, from = 0): Line {
  return smoothed(values, n, 2 / (n + 1), from);
}

/** Wilder's smoothing (α = 1 / n), seeded with the SMA of the first n values. */
export function wilder(values: readonly (number | null)[], n: number, from = 0): Line {
  return smoothed(values, n, 1 / n, from);
}

function smoothed(values: readonly (number | null)[], n: number, alpha: number, from: number): Line {
  const out: Line = new Array<number | null>(values.length).fill(null);
  const seedAt = from + n - 1;
  if (seedAt >= values.length) return out;
  let sum = 0;
  for (let k = from; k <= seedAt; k++) sum += values[k]!;
  let prev = sum / n;
  out[seedAt] = prev;
  for (let t = seedAt + 1; t < values.length; t++) {
    prev = alpha * values[t]! + (1 - alpha) * prev;
    out[t] = prev;
  }
  return out;
}

/**
 * Wilder's RSI: changes d_t = close_t − close_t−1 (t ≥ 1), gains max(d, 0) and losses max(−d, 0)
 * each Wilder-smoothed over n (seeded with the mean of the first n), RSI = 100 − 100 / (1 + avg
 * gain / avg loss): first at row n. 100 when the average loss is 0; null when both are 0 (no move).
 */
export function rsi(closes: readonly number[], n: number): Line {
  const len = closes.length;
  const out: Line = new Array<number | null>(len).fill(null);
  if (len <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let t = 1; t <= n; t++) {
    const d = closes[t]! - closes[t - 1]!;
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  out[n] = rsiOf(gain, loss);
  for (let t = n + 1; t < len; t++) {
    const d = closes[t]! - closes[t - 1]!;
    gain = (gain * (n - 1) + (d > 0 ? d : 0)) / n;
    loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
    out[t] = rsiOf(gain, loss);
  }
  return out;
}

function rsiOf(gain: number, loss: number): number | null {
  if (loss === 0) return gain === 0 ? null : 100;
  return 100 - 100 / (1 + gain / loss);
}

export interface Macd {
  macd: Line;
  signal: Line;
  histogram: Line;
}

/**
 * MACD line = EMA(fast) − EMA(slow) of the closes (each EMA seeded with its own SMA; first at row
 * slow − 1); signal = EMA(signal) of the MACD line, seeded with the SMA of its first `signal`
 * values (first at row slow + signal − 2); histogram = MACD − signal.
 */
export function macd(closes: readonly number[], fast: number, slow: number, signal: number): Macd {
  const f = ema(closes, fast);
  const s = ema(closes, slow);
  const line: Line = f.map((v, t) => (v === null || s[t] === null ? null : v - s[t]!));
  const sig = ema(line, signal, slow - 1);
  const histogram: Line = line.map((v, t) => (v === null || sig[t] === null ? null : v - sig[t]!));
  return { macd: line, signal: sig, histogram };
}

export interface Bands {
  lower: Line;
  middle: Line;
  upper: Line;
}

/** Bollinger bands: middle = SMA(n); upper/lower = middle ± k · σ, σ the population standard deviation of the n closes. */
export function bollinger(closes: readonly number[], n: number, k: number): Bands {
  const len = closes.length;
  const middle = sma(closes, n);
  const lower: Line = new Array<number | null>(len).fill(null);
  const upper: Line = new Array<number | null>(len).fill(null);
  for (let t = n - 1; t < len; t++) {
    const m = middle[t]!;
    let ss = 0;
    for (let j = t - n + 1; j <= t; j++) {
      const d = closes[j]! - m;
      ss += d * d;
    }
    const sd = Math.sqrt(ss / n);
    lower[t] = m - k * sd;
    upper[t] = m + k * sd;
  }
  return { lower, middle, upper };
}

/**
 * True range: max(high − low, |high − close_t−1|, |low − close_t−1|), high − low on the first row
 * (no previous close). Where a row has no high or low its close stands for them.
 */
export function trueRange(
  high: readonly (number | null)[],
  low: readonly (number | null)[],
  close: readonly number[],
): number[] {
  return close.map((c, t) => {
    const h = high[t] ?? c;
    const l = low[t] ?? c;
    if (t === 0) return h - l;
    const p = close[t - 1]!;
    return Math.max(h - l, Math.abs(h - p), Math.abs(l - p));
  });
}

/** Wilder's ATR: the true range Wilder-smoothed over n, seeded with the mean of the first n (first at row n − 1). */
export function atr(
  high: readonly (number | null)[],
  low: readonly (number | null)[],
  close: readonly number[],
  n: number,
): Line {
  return wilder(trueRange(high, low, close), n);
}

/**
 * On-balance volume: 0 on the series' first row, then + volume on an up close, − volume on a down
 * close, unchanged on an equal close (a missing volume counts 0). Its level depends on where the
 * series starts; its changes do not.
 */
export function obv(closes: readonly number[], volumes: readonly (number | null)[]): Line {
  const out: Line = new Array<number | null>(closes.length).fill(null);
  if (closes.length === 0) return out;
  let level = 0;
  out[0] = 0;
  for (let t = 1; t < closes.length; t++) {
    const v = volumes[t] ?? 0;
    if (closes[t]! > closes[t - 1]!) level += v;
    else if (closes[t]! < closes[t - 1]!) level -= v;
    out[t] = level;
  }
  return out;
}

/**
 * Rolling VWAP over the last n trading days: Σ typical price × volume / Σ volume, typical price
 * (high + low + close) / 3 (the close where high or low is missing). Null during the first n − 1
 * rows and where the window traded nothing.
 */
export function vwap(
  high: readonly (number | null)[],
  low: readonly (number | null)[],
  close: readonly number[],
  volume: readonly (number | null)[],
  n: number,
): Line {
  const len = close.length;
  const out: Line = new Array<number | null>(len).fill(null);
  for (let t = n - 1; t < len; t++) {
    let pv = 0;
    let v = 0;
    for (let j = t - n + 1; j <= t; j++) {
      const vol = volume[j] ?? 0;
      const c = close[j]!;
      pv += (((high[j] ?? c) + (low[j] ?? c) + c) / 3) * vol;
      v += vol;
    }
    out[t] = v === 0 ? null : pv / v;
  }
  return out;
}
