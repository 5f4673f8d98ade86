// Returns and risk over a daily close series (oldest first). Every result is a fraction (0.05 is
// +5 %); the service turns them into percentages. Formulas: docs/analytics.md.
import { lastOnOrBefore, minusDays } from './dates.ts';
import { periodStart, type Period } from './periods.ts';
import type { Bar } from './series.ts';

/** Simple return from row i to row j: close_j / close_i − 1. */
export function returnBetween(closes: readonly number[], i: number, j: number): number {
  return closes[j]! / closes[i]! - 1;
}

export type PeriodReturn =
  | { period: Period; start: number; end: number; target: string | null; value: number }
  | { period: Period; start: null; end: number; target: null; value: null; reason: string };

/** The return of `period` ending on the last row. */
export function periodReturn(bars: readonly Bar[], dates: readonly string[], period: Period): PeriodReturn {
  const end = bars.length - 1;
  const start = periodStart(period, dates);
  if (start.index === null)
    return { period, start: null, end, target: null, value: null, reason: start.reason };
  return {
    period,
    start: start.index,
    end,
    target: start.target,
    value: bars[end]!.close / bars[start.index]!.close - 1,
  };
}

/**
 * Annualised volatility over rows [from, to]: the sample standard deviation (n − 1) of the daily
 * log returns ln(close_t / close_t−1), t = from+1 … to, times √n, n the number of those returns:
 * over a one-year window n is that year's own count of trading days (not a fixed 245 or 252).
 */
export function annualisedVolatility(
  closes: readonly number[],
  from: number,
  to: number,
): { value: number; returns: number } | { value: null; reason: string } {
  const n = to - from;
  if (n < 2) return { value: null, reason: 'fewer than two daily returns in the window' };
  let mean = 0;
  for (let t = from + 1; t <= to; t++) mean += Math.log(closes[t]! / closes[t - 1]!);
  mean /= n;
  let ss = 0;
  for (let t = from + 1; t <= to; t++) {
    const d = Math.log(closes[t]! / closes[t - 1]!) - mean;
    ss += d * d;
  }
  return { value: Math.sqrt(ss / (n - 1)) * Math.sqrt(n), returns: n };
}

export interface Drawdown {
  /** close_trough / close_peak − 1 (≤ 0); 0 when the closes never fell below an earlier high. */
  value: number;
  peak: number | null;
  trough: number | null;
  /** First row after the trough whose close is back at or above the peak's; null if none by `to`. */
  recovery: number | null;
}

/** The largest fall from a running high to a later low over rows [from, to]. */
export function maxDrawdown(closes: readonly number[], from: number, to: number): Drawdown {
  let peak = from;
  let best = 0;
  let bestPeak: number | null = null;
  let bestTrough: number | null = null;
  for (let t = from; t <= to; t++) {
    const c = closes[t]!;
    if (c > closes[peak]!) peak = t;
    const dd = c / closes[peak]! - 1;
    if (dd < best) {
      best = dd;
      bestPeak = peak;
      bestTrough = t;
    }
  }
  let recovery: number | null = null;
  if (bestPeak !== null && bestTrough !== null) {
    const level = closes[bestPeak]!;
    for (let t = bestTrough + 1; t <= to; t++) {
      if (closes[t]! >= level) {
        recovery = t;
        break;
      }
    }
  }
  return { value: best, peak: bestPeak, trough: bestTrough, recovery };
}

export interface Relation {
  beta: number;
  /** null when the series did not move (its variance is 0). */
  correlation: number | null;
  /** Daily return pairs used. */
  returns: number;
  first: string;
  last: string;
}

/**
 * Beta and correlation of a series against a benchmark over dates ≥ `from`: both are aligned on the
 * dates they share, daily simple returns are taken between consecutive shared dates, and
 * beta = cov(r, r_b) / var(r_b), correlation = cov(r, r_b) / (σ σ_b) (sample moments; the n − 1
 * cancels).
 */
export function relation(
  series: readonly { date: string; close: number }[],
  benchmark: readonly { date: string; close: number }[],
  from: string,
): Relation | { reason: string } {
  const levels = new Map<string, number>();
  for (const b of benchmark) if (b.date >= from) levels.set(b.date, b.close);
  const a: number[] = [];
  const b: number[] = [];
  let prevA: number | null = null;
  let prevB: number | null = null;
  let first: string | null = null;
  let last = '';
  for (const row of series) {
    if (row.date < from) continue;
    const level = levels.get(row.date);
    if (level === undefined) continue;
    if (prevA !== null && prevB !== null) {
      a.push(row.close / prevA - 1);
      b.push(level / prevB - 1);
    } else first = row.date;
    prevA = row.close;
    prevB = level;
    last = row.date;
  }
  const n = a.length;
  if (n < 2 || first === null) return { reason: 'fewer than two daily returns on dates both series share' };
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  if (vb === 0) return { reason: 'the benchmark did not move over the window' };
  if (va === 0) return { beta: 0, correlation: null, returns: n, first, last };
  return { beta: cov / vb, correlation: cov / Math.sqrt(va * vb), returns: n, first, last };
}

export interface Range52 {
  high: number;
  highIndex: number;
  low: number;
  lowIndex: number;
  /** First row of the window. */
  from: number;
}

/**
 * The 52-week high and low: over rows dated on or after E − 364 days (52 weeks back from the last
 * date, E included), the highest daily high and lowest daily low (the close where a row has no
 * high or low); the earliest date on a tie.
 */
export function range52(bars: readonly Bar[], dates: readonly string[]): Range52 | null {
  const n = bars.length;
  if (n === 0) return null;
  const from = lastOnOrBefore(dates, minusDays(dates[n - 1]!, 365)) + 1;
  let high = -Infinity;
  let low = Infinity;
  let highIndex = from;
  let lowIndex = from;
  for (let t = from; t < n; t++) {
    const bar = bars[t]!;
    const h = bar.high ?? bar.close;
    const l = bar.low ?? bar.close;
    if (h > high) {
      high = h;
      highIndex = t;
    }
    if (l < low) {
      low = l;
      lowIndex = t;
    }
  }
  return { high, highIndex, low, lowIndex, from };
}
