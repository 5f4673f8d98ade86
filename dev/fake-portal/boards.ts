// The market-wide boards: `/symbols`, `/screener` and `/market-watch`, derived from the market's
// instruments and day (market.ts).
import type { MarketWatchRow, PortalSymbol, ScreenerRow } from '../../src/exchange/types.ts';
import type { Instrument } from './dataset-types.ts';
import { change1yPct, SCREENER_HISTORY_ROWS, volumeAvg30d } from './derived.ts';
import { generateHistory, type PriceModel } from './history.ts';
import { changeDir, type Market } from './market.ts';
import { round2 } from './numbers.ts';
import { rngFor } from './random.ts';
import { STALE_INDEX, type BaseSpec } from './universe.ts';

/** The LISTED IN cell: the symbol's indices, without the stale treasury index. */
function listedIn(inst: Instrument): string[] {
  return inst.indices.filter((c) => c !== STALE_INDEX.code);
}

/** `/symbols`: debt first, as the portal lists it, then by symbol. */
export function portalSymbols(market: Market): PortalSymbol[] {
  return [...market.instruments]
    .sort((a, b) => Number(b.kind === 'debt') - Number(a.kind === 'debt'))
    .map((i) => ({
      symbol: i.symbol,
      name: i.listName,
      sectorName: i.sectorName,
      isETF: i.kind === 'etf',
      isDebt: i.kind === 'debt',
      isGEM: false,
    }));
}

/** `/screener`, by symbol. */
export function screenerRows(market: Market): ScreenerRow[] {
  const { seed, days, models, specBySymbol } = market;
  const screener: ScreenerRow[] = [];
  for (const inst of market.instruments) {
    const day = days.get(inst.symbol);
    if (!inst.onScreener || !day) continue;
    const spec = specBySymbol.get(inst.symbol) as BaseSpec;
    const rng = rngFor(seed, `screener:${inst.symbol}`);
    const price = day.close;
    const changePct = inst.traded ? changeDir(day.ldcp, day.close).changePct : 0;
    // The figures a client can check against /historical come from the history itself.
    const recent = generateHistory(
      seed,
      inst.symbol,
      models.get(inst.symbol) as PriceModel,
      day.date,
      Math.min(inst.historyRows, SCREENER_HISTORY_ROWS),
    );
    rng(); // the draw that once made the 1-year change, so the later draws keep their values
    const eps = round2(price / (3 + rng() * 22));
    const dps = round2(price * rng() * 0.12);
    screener.push({
      symbol: inst.symbol,
      name: inst.name,
      sectorCode: inst.sectorCode,
      listedIn: listedIn(inst),
      marketCap: inst.shares * price,
      price,
      changePct,
      change1yPct: change1yPct(recent),
      peRatio: spec.noEarnings ? 0 : price / eps,
      dividendYield: spec.noEarnings || rng() < 0.25 ? 0 : (dps / price) * 100,
      freeFloat: inst.freeFloat,
      volumeAvg30d: volumeAvg30d(recent),
    });
  }
  return screener;
}

/** `/market-watch`: the traded symbols, by volume (descending). */
export function marketWatchRows(market: Market): MarketWatchRow[] {
  const { days } = market;
  const marketWatch: MarketWatchRow[] = [];
  for (const inst of market.instruments) {
    const day = days.get(inst.symbol);
    if (!inst.traded || !day) continue;
    marketWatch.push({
      symbol: inst.symbol,
      name: inst.name,
      sectorCode: inst.sectorCode,
      listedIn: listedIn(inst),
      ldcp: day.ldcp,
      open: day.open,
      high: day.high,
      low: day.low,
      current: day.close,
      ...changeDir(day.ldcp, day.close),
      volume: day.volume,
    });
  }
  marketWatch.sort((a, b) => (b.volume as number) - (a.volume as number) || (a.symbol < b.symbol ? -1 : 1));
  return marketWatch;
}
