// Today's trades as ticks or as bars on the Karachi clock, for a symbol or an index, from the
// portal's `/timeseries/int` series.
import { NotFoundError } from '../../errors.ts';
import type { IntradaySeries, IntradayTick } from '../../exchange/types.ts';
import { karachiPeriodStart, karachiTime } from '../../time/karachi.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { resolveIndexCode } from '../listings/indices.ts';
import type { IndexTickT, IntradayBarT, StockTickT } from '../models/intraday.ts';
import { normaliseSymbol } from '../symbols.ts';

export const INTERVALS = ['tick', '1m', '5m', '15m', '30m', '60m'] as const;
export type Interval = (typeof INTERVALS)[number];

export const BAR_SECONDS: Record<Exclude<Interval, 'tick'>, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '60m': 3600,
};

/** The start (epoch ms) of the Karachi-clock bar of `size` seconds holding `epoch` (epoch seconds). */
function barStart(epoch: number, size: number): number {
  return karachiPeriodStart(epoch * 1000, size * 1000);
}

/**
 * OHLCV bars of `size` seconds, oldest first, only for intervals holding at least one print.
 * `trades` counts the portal's prints in the bar (a print may carry volume 0).
 */
export function toBars(ticks: readonly IntradayTick[], size: number): IntradayBarT[] {
  const bars: IntradayBarT[] = [];
  let current: IntradayBarT | undefined;
  let currentStart = Number.NaN;
  for (const t of ticks) {
    const start = barStart(t.epoch, size);
    if (current === undefined || start !== currentStart) {
      currentStart = start;
      current = {
        time: karachiTime(start),
        open: t.price,
        high: t.price,
        low: t.price,
        close: t.price,
        volume: t.volume,
        trades: 1,
      };
      bars.push(current);
      continue;
    }
    if (t.price > current.high) current.high = t.price;
    if (t.price < current.low) current.low = t.price;
    current.close = t.price;
    current.volume += t.volume;
    current.trades += 1;
  }
  return bars;
}

// Views are made once per cached series and interval.
const stockTicks = memoByDataset((s: IntradaySeries): StockTickT[] =>
  s.ticks.map((t) => ({ time: karachiTime(t.epoch * 1000), price: t.price, volume: t.volume })),
);
const indexTicks = memoByDataset((s: IntradaySeries): IndexTickT[] =>
  s.ticks.map((t) => ({ time: karachiTime(t.epoch * 1000), value: t.price, volume: t.volume })),
);
const barsOf = memoByDataset((s: IntradaySeries) => {
  const bySize = new Map<number, IntradayBarT[]>();
  return (size: number): IntradayBarT[] => {
    let bars = bySize.get(size);
    if (bars === undefined) {
      bars = toBars(s.ticks, size);
      bySize.set(size, bars);
    }
    return bars;
  };
});

export async function stockIntraday(
  datasets: Datasets,
  rawSymbol: string,
  interval: Interval,
  ctx: RequestContext,
): Promise<Answer<StockTickT[] | IntradayBarT[]>> {
  const symbol = normaliseSymbol(rawSymbol);
  const cached = await datasets.intraday(symbol, ctx);
  if (!cached.value.known) throw new NotFoundError(`${symbol} not found`);
  const rows = interval === 'tick' ? stockTicks(cached.value) : barsOf(cached.value)(BAR_SECONDS[interval]);
  return answerFrom(cached, rows, answerKey('intraday', symbol, { interval }));
}

export async function indexIntraday(
  datasets: Datasets,
  name: string,
  interval: Interval,
  ctx: RequestContext,
): Promise<Answer<IndexTickT[] | IntradayBarT[]>> {
  const code = resolveIndexCode(name);
  if (!code) throw new NotFoundError(`index ${name} not found`);
  const cached = await datasets.intraday(code, ctx);
  // The portal serves series for index codes [M]; one it has none for is a 404, not an empty day.
  if (!cached.value.known) throw new NotFoundError(`the exchange has no intraday series for index ${code}`);
  const rows = interval === 'tick' ? indexTicks(cached.value) : barsOf(cached.value)(BAR_SECONDS[interval]);
  return answerFrom(cached, rows, answerKey('index-intraday', code, { interval }));
}
