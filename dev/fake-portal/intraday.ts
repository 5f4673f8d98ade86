// The fake portal's moving market and its time series: `/timeseries/int/{SYM}`
// and `/timeseries/int/{INDEX}` (today's prints, newest first), `/timeseries/eod/{INDEX}` (daily
// index levels). The dataset is frozen (and shared between portals), so the motion is a layer on
// top: each step moves some market-watch rows by a few ticks and appends one print per moved
// symbol, so the market watch and the intraday series always agree — a symbol's prints end at its
// market-watch CURRENT and add up to its VOLUME.
//
// Every print lies inside a session of the dataset's day and no later than the portal's clock: the
// day's prints are spread over the trading time up to the clock (all of it once the day has
// closed), and a print of the moving market is stamped with the clock when it is in a session,
// else with the last second of the session before it, never after the close.
import type { IndexLevelRow, MarketWatchRow } from '../../src/exchange/types.ts';
import { sessionsOfDay } from '../../src/time/market-clock.ts';
import { hashString, mulberry32, tradingDays, type Dataset, type Rng } from './dataset.ts';

/** One print: `[epoch seconds, price, volume]` as the portal sends it. */
export type Print = [number, number, number];

type Sessions = ReadonlyArray<readonly [number, number]>;

/** The sessions of the dataset's day in epoch seconds, cut at `cutoffS`; at least one second long. */
function sessionsUntil(date: string, cutoffS: number): Sessions {
  const all = sessionsOfDay(Date.parse(`${date}T12:00:00+05:00`)).map(
    ({ open, close }) => [open / 1000, close / 1000] as const,
  );
  const cut = all
    .filter(([open]) => open < cutoffS)
    .map(([open, close]) => [open, Math.min(close, cutoffS)] as const);
  return cut.length > 0 ? cut : [[all[0]![0], all[0]![0] + 1]];
}

/** Index ticks about every 15 s (§5). */
const INDEX_TICK_S = 15;
const INDEX_EOD_ROWS = 1250;

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round4 = (x: number): number => Math.round(x * 10000) / 10000;

export interface TickResult {
  step: number;
  /** Symbols whose market-watch row moved in this step. */
  moved: string[];
}

export interface MarketMotion {
  /** Steps taken so far (0: the dataset as recorded). */
  readonly step: number;
  /** Moves the given symbols (default: about a third of the traded ones, chosen by the seed). */
  tick(symbols?: readonly string[]): TickResult;
  /** The dataset with the moved market watch, for rendering `/market-watch`. */
  view(): Dataset;
  /** `/timeseries/int/{code}` body for a symbol or index code. */
  intradayJson(code: string): string;
  /** `/timeseries/eod/{code}` body for an index code; null for anything else (not this module's). */
  indexEodJson(code: string): string | null;
}

/**
 * `now`: the portal's clock (epoch ms). The day's prints end at it, or at the close once it has
 * passed; it is read once here for the day's prints and at each tick for the moving market's.
 */
export function createMarketMotion(dataset: Dataset, now: () => number): MarketMotion {
  const seed = dataset.options.seed;
  const daySessions = sessionsUntil(dataset.asOfDate, Infinity);
  const sessions = sessionsUntil(dataset.asOfDate, Math.floor(now() / 1000));
  /** The latest second in a session of the day at or before the clock: a print's time. */
  const printTime = (): number => {
    const t = Math.floor(now() / 1000);
    let at = sessions[0]![0];
    for (const [open, close] of daySessions) {
      if (t >= close) at = close - 1;
      else if (t >= open) at = t;
    }
    return at;
  };
  const base = new Map(dataset.marketWatch.map((r) => [r.symbol, r]));
  const rows = new Map<string, MarketWatchRow>(dataset.marketWatch.map((r) => [r.symbol, { ...r }]));
  const extraPrints = new Map<string, Print[]>();
  const basePrints = new Map<string, Print[]>();
  let step = 0;
  let view: Dataset | undefined;

  const limitsOf = (r: MarketWatchRow): [number, number] => {
    const ldcp = r.ldcp as number;
    const band = round2(Math.max(ldcp * 0.1, 1));
    return [round2(Math.max(0.01, ldcp - band)), round2(ldcp + band)];
  };

  function move(symbol: string, rng: Rng): boolean {
    const row = rows.get(symbol);
    if (!row || row.current === null || row.ldcp === null) return false;
    const price = row.current;
    const tickSize = Math.max(0.01, round2(price * 0.002));
    const [floor, ceiling] = limitsOf(row);
    const steps = Math.floor(rng() * 7) - 3 || 1;
    const next = round2(Math.min(ceiling, Math.max(floor, price + steps * tickSize)));
    const volume = 100 * (1 + Math.floor(rng() * 50));
    row.current = next;
    row.high = Math.max(row.high ?? next, next);
    row.low = Math.min(row.low ?? next, next);
    row.change = round2(next - row.ldcp);
    row.changePct = round4(((next - row.ldcp) / row.ldcp) * 100);
    row.volume = (row.volume ?? 0) + volume;
    const prints = extraPrints.get(symbol) ?? [];
    prints.push([printTime(), next, volume]);
    extraPrints.set(symbol, prints);
    return true;
  }

  function printsOf(symbol: string): Print[] {
    let prints = basePrints.get(symbol);
    if (prints === undefined) {
      const row = base.get(symbol);
      prints = row ? dayPrints(row, mulberry32(hashString(`int:${symbol}`) ^ seed), sessions) : [];
      basePrints.set(symbol, prints);
    }
    return [...prints, ...(extraPrints.get(symbol) ?? [])];
  }

  return {
    get step() {
      return step;
    },
    tick(symbols) {
      step += 1;
      const rng = mulberry32(hashString(`motion:${step}`) ^ seed);
      const chosen = symbols ?? [...rows.keys()].filter(() => rng() < 0.35);
      const moved = chosen.filter((s) => move(s, mulberry32(hashString(`motion:${step}:${s}`) ^ seed)));
      view = undefined;
      return { step, moved };
    },
    view() {
      view ??= { ...dataset, marketWatch: dataset.marketWatch.map((r) => rows.get(r.symbol) ?? r) };
      return view;
    },
    intradayJson(code) {
      const level = dataset.indexLevels.rows.find((r) => r.index === code);
      if (level) return series(level.staleSince === null ? indexPrints(level, dataset, seed, sessions) : []);
      if (dataset.instrument(code) === undefined) {
        return JSON.stringify({ status: 0, message: 'Invalid symbol' });
      }
      return series(printsOf(code));
    },
    indexEodJson(code) {
      const level = dataset.indexLevels.rows.find((r) => r.index === code);
      if (!level) return dataset.instrument(code) ? null : series([]);
      return series(indexDays(level, dataset, seed));
    },
  };
}

/** The portal's wrapper, newest first. */
function series(oldestFirst: readonly unknown[]): string {
  return JSON.stringify({ status: 1, message: '', data: [...oldestFirst].reverse() });
}

/** Seconds of the session clock, `fraction` of the way through the day's trading time. */
function sessionTime(fraction: number, sessions: Sessions): number {
  const lengths = sessions.map(([a, b]) => b - a);
  let at = Math.floor(fraction * lengths.reduce((a, b) => a + b, 0));
  for (const [i, [start]] of sessions.entries()) {
    if (at < lengths[i]!) return start + at;
    at -= lengths[i]!;
  }
  return sessions[sessions.length - 1]![1] - 1;
}

/**
 * A traded symbol's prints: the first at OPEN, the last at CURRENT, HIGH and LOW each printed
 * once, every price within them, volumes adding up to VOLUME.
 */
function dayPrints(row: MarketWatchRow, rng: Rng, sessions: Sessions): Print[] {
  const volume = row.volume ?? 0;
  if (volume <= 0 || row.open === null || row.current === null) return [];
  const open = row.open;
  const close = row.current;
  const high = row.high ?? Math.max(open, close);
  const low = row.low ?? Math.min(open, close);
  const n = Math.max(4, Math.min(80, Math.round(Math.log10(volume + 1) * 12)));
  const prices: number[] = [];
  for (let i = 0; i < n; i++) prices.push(round2(low + rng() * (high - low)));
  prices[0] = open;
  prices[n - 1] = close;
  const hi = 1 + Math.floor(rng() * (n - 2));
  let lo = 1 + Math.floor(rng() * (n - 2));
  if (lo === hi) lo = hi === 1 ? 2 : hi - 1;
  prices[hi] = high;
  prices[lo] = low;
  // Distinct seconds, sorted; a couple of prints may share a second, as on the portal.
  const times = prices.map(() => sessionTime(rng(), sessions)).sort((a, b) => a - b);
  const weights = prices.map(() => 0.2 + rng());
  const total = weights.reduce((a, b) => a + b, 0);
  const volumes = weights.map((w) => Math.floor((w / total) * volume));
  volumes[n - 1]! += volume - volumes.reduce((a, b) => a + b, 0);
  return prices.map((p, i): Print => [times[i]!, p, volumes[i]!]);
}

/** An index's ticks: from LDCP at the open to CURRENT, within the day's HIGH and LOW, each reached. */
function indexPrints(level: IndexLevelRow, dataset: Dataset, seed: number, sessions: Sessions): Print[] {
  const current = level.current as number;
  const ldcp = round4(current - (level.change ?? 0));
  const high = level.high ?? Math.max(current, ldcp);
  const low = level.low ?? Math.min(current, ldcp);
  const rng = mulberry32(hashString(`index-int:${level.index}`) ^ seed);
  const times: number[] = [];
  for (const [start, end] of sessions) for (let t = start; t < end; t += INDEX_TICK_S) times.push(t);
  const n = times.length;
  // Too early in the day for a bridged walk (the first minute): no ticks yet.
  if (n < 4) return [];
  // A random walk bridged from LDCP to CURRENT, then kept inside [low, high].
  const walk = [0];
  for (let i = 1; i < n; i++) walk.push(walk[i - 1]! + (rng() - 0.5));
  const spread = (high - low) / 4;
  const values = walk.map((w, i) => {
    const bridged = w - (walk[n - 1]! * i) / (n - 1);
    const v = ldcp + ((current - ldcp) * i) / (n - 1) + (bridged * spread) / Math.sqrt(n);
    return round4(Math.min(high, Math.max(low, v)));
  });
  values[0] = ldcp;
  values[n - 1] = current;
  values[Math.floor(n / 3)] = high;
  values[Math.floor((2 * n) / 3)] = low;
  const members = dataset.indexInfo(level.index)?.members.length ?? 0;
  return times.map((t, i): Print => [t, values[i]!, members === 0 ? 0 : Math.floor(rng() * 200_000)]);
}

/**
 * An index's daily levels `[epoch, close, volume, open]`: today's close is CURRENT, yesterday's
 * LDCP, each open the previous close. Recent rows sit at 16:00 Karachi; rows before 2023 at
 * Karachi midnight (19:00 UTC the day before), so only a Karachi reading gives the right date.
 */
function indexDays(
  level: IndexLevelRow,
  dataset: Dataset,
  seed: number,
): Array<[number, number, number, number]> {
  const rng = mulberry32(hashString(`index-eod:${level.index}`) ^ seed);
  const days = tradingDays(dataset.asOfDate, INDEX_EOD_ROWS);
  const current = level.current as number;
  const closes = [current, round4(current - (level.change ?? 0))];
  while (closes.length < days.length) {
    const next = closes[closes.length - 1]! / (1 + (rng() - 0.5) * 0.03);
    closes.push(round4(next));
  }
  const rows: Array<[number, number, number, number]> = days.map((date, i) => {
    const midnight = Date.parse(`${date}T00:00:00+05:00`) / 1000;
    const epoch = date < '2023-01-01' ? midnight : midnight + 16 * 3600;
    const open = closes[i + 1] ?? closes[i]!;
    return [epoch, closes[i]!, 50_000_000 + Math.floor(rng() * 400_000_000), open];
  });
  return rows.reverse();
}
