// The `i=` list of the indicators endpoint: `sma:20,ema:50,rsi:14,macd:12:26:9,bbands:20:2,atr:14,
// obv,vwap:20`. Parsed here into specs with their output columns, or a sentence naming what is
// accepted; the service turns the sentence into its validation error.
import { atr, bollinger, ema, macd, obv, rsi, sma, vwap, type Line } from './indicators.ts';
import { ACCEPTED, MAX_BAND_WIDTH, MAX_INDICATORS, MAX_WINDOW } from './params.ts';
import type { Bar } from './series.ts';

export { ACCEPTED, MAX_INDICATORS };

export interface IndicatorSpec {
  /** Canonical text, e.g. `macd:12:26:9`. */
  text: string;
  /** Output columns, in order. */
  columns: string[];
  compute(series: SeriesColumns): Line[];
}

/** The series as columns, oldest first (made once per series). */
export interface SeriesColumns {
  close: number[];
  high: (number | null)[];
  low: (number | null)[];
  volume: (number | null)[];
}

export function columnsOf(bars: readonly Bar[]): SeriesColumns {
  return {
    close: bars.map((b) => b.close),
    high: bars.map((b) => b.high),
    low: bars.map((b) => b.low),
    volume: bars.map((b) => b.volume),
  };
}

interface Kind {
  /** Parameter names and defaults. */
  params: { name: string; default: number; integer: boolean; min: number; max: number }[];
  columns(p: number[]): string[];
  compute(s: SeriesColumns, p: number[]): Line[];
}

const win = (name: string, dflt: number, min = 1) => ({
  name,
  default: dflt,
  integer: true,
  min,
  max: MAX_WINDOW,
});

const KINDS: Record<string, Kind> = {
  sma: { params: [win('n', 20)], columns: ([n]) => [`sma_${n}`], compute: (s, [n]) => [sma(s.close, n!)] },
  ema: { params: [win('n', 20)], columns: ([n]) => [`ema_${n}`], compute: (s, [n]) => [ema(s.close, n!)] },
  rsi: { params: [win('n', 14)], columns: ([n]) => [`rsi_${n}`], compute: (s, [n]) => [rsi(s.close, n!)] },
  macd: {
    params: [win('fast', 12), win('slow', 26, 2), win('signal', 9)],
    columns: (p) => {
      const tag = p.join('_');
      return [`macd_${tag}`, `macd_signal_${tag}`, `macd_hist_${tag}`];
    },
    compute: (s, [f, sl, sg]) => {
      const m = macd(s.close, f!, sl!, sg!);
      return [m.macd, m.signal, m.histogram];
    },
  },
  bbands: {
    params: [win('n', 20), { name: 'k', default: 2, integer: false, min: 0, max: MAX_BAND_WIDTH }],
    columns: (p) => {
      const tag = p.join('_');
      return [`bb_lower_${tag}`, `bb_middle_${tag}`, `bb_upper_${tag}`];
    },
    compute: (s, [n, k]) => {
      const b = bollinger(s.close, n!, k!);
      return [b.lower, b.middle, b.upper];
    },
  },
  atr: {
    params: [win('n', 14)],
    columns: ([n]) => [`atr_${n}`],
    compute: (s, [n]) => [atr(s.high, s.low, s.close, n!)],
  },
  obv: { params: [], columns: () => ['obv'], compute: (s) => [obv(s.close, s.volume)] },
  vwap: {
    params: [win('n', 20)],
    columns: ([n]) => [`vwap_${n}`],
    compute: (s, [n]) => [vwap(s.high, s.low, s.close, s.volume, n!)],
  },
};

/** What `i` accepts, in words (every error message ends with it). */

export type ParsedSpecs = { specs: IndicatorSpec[] } | { error: string };

/** Parses the comma-separated list; duplicates (after defaults) count once. */
export function parseIndicators(list: string): ParsedSpecs {
  const items = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) return { error: `i must name at least one indicator: ${ACCEPTED}` };
  const specs: IndicatorSpec[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const parsed = parseOne(item);
    if ('error' in parsed) return parsed;
    if (seen.has(parsed.text)) continue;
    seen.add(parsed.text);
    specs.push(parsed);
  }
  if (specs.length > MAX_INDICATORS) {
    return { error: `i names ${specs.length} indicators; at most ${MAX_INDICATORS} per request` };
  }
  return { specs };
}

function parseOne(item: string): IndicatorSpec | { error: string } {
  const [rawName, ...args] = item.split(':');
  const name = (rawName ?? '').toLowerCase();
  const kind = KINDS[name];
  const shown = item.length > 30 ? `${item.slice(0, 30)}…` : item;
  if (kind === undefined) {
    return { error: `unknown indicator ${JSON.stringify(shown)}; i accepts ${ACCEPTED}` };
  }
  if (args.length > kind.params.length) {
    return {
      error: `${name} takes ${kind.params.length} parameter(s) (got ${JSON.stringify(shown)}); i accepts ${ACCEPTED}`,
    };
  }
  const values: number[] = [];
  for (let k = 0; k < kind.params.length; k++) {
    const param = kind.params[k]!;
    const text = args[k];
    if (text === undefined || text === '') {
      values.push(param.default);
      continue;
    }
    const value = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
    const ok =
      Number.isFinite(value) &&
      (!param.integer || Number.isInteger(value)) &&
      value >= param.min &&
      value <= param.max &&
      !(param.name === 'k' && value === 0);
    if (!ok) {
      const form = param.integer
        ? `a whole number ${param.min}–${param.max}`
        : `a number above ${param.min} up to ${param.max}`;
      return {
        error: `${name} ${param.name} must be ${form} (got ${JSON.stringify(shown)}); i accepts ${ACCEPTED}`,
      };
    }
    values.push(value);
  }
  if (name === 'macd' && values[0]! >= values[1]!) {
    return {
      error: `macd fast must be shorter than slow (got ${JSON.stringify(shown)}); i accepts ${ACCEPTED}`,
    };
  }
  const text = [name, ...values.map(String)].join(':');
  return { text, columns: kind.columns(values), compute: (s) => kind.compute(s, values) };
}
