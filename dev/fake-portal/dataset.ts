// The fake portal's data: a small, fully deterministic market (seeded PRNG, fixed "today"), shaped
// like the portal-side rows of src/exchange/types.ts so tests can compare parser output with it.
// Everything is derived from (seed, symbol), so adding extra symbols never changes the base ones.
// The pieces, one concern each: the fixed universe (universe.ts) and generated extras
// (extra-symbols.ts) make the market's instruments and day (market.ts); the boards derive from it
// (boards.ts, index-boards.ts, sector-boards.ts); histories and reports are generated on demand
// (history.ts, reports.ts). This file assembles them behind the Dataset interface (dataset-types.ts).
import { asOfLabelOf, defaultAsOfTime, tradingDays } from './calendar.ts';
import type { Dataset, DatasetOptions } from './dataset-types.ts';
import { marketWatchRows, portalSymbols, screenerRows } from './boards.ts';
import { generateHistory, HISTORY_ANOMALIES } from './history.ts';
import { indexBoards } from './index-boards.ts';
import { buildMarket } from './market.ts';
import { generateReports } from './reports.ts';
import { sectorBoards } from './sector-boards.ts';
import { INDEX_CODES, SECTORS } from './universe.ts';

export type { Dataset, DatasetOptions, Instrument, SectorDef, SectorMemberRow } from './dataset-types.ts';
export { defaultAsOfTime, priceLimitFraction, tradingDays } from './calendar.ts';
export { HISTORY_ANOMALIES } from './history.ts';
export { hashString, mulberry32, type Rng } from './random.ts';
export { ENGRO_HISTORY_ROWS, SECTORS, STALE_INDEX } from './universe.ts';

export const AS_OF_DATE = '2026-11-20';
export const DEFAULT_SEED = 20261120;

function buildDataset(options: Required<DatasetOptions>): Dataset {
  const { seed, asOfDate, asOfTime } = options;
  const asOfIso = `${asOfDate}T${asOfTime}:00+05:00`;
  const market = buildMarket(options);
  const { instruments, days, models, previousTradingDay } = market;
  const bySymbol = new Map(instruments.map((i) => [i.symbol, i]));
  const symbols = portalSymbols(market);
  const screener = screenerRows(market);
  const marketWatch = marketWatchRows(market);
  const { indexInfos, constituents, levelRows } = indexBoards(market);
  const { memberRows, sectorPage } = sectorBoards(market);

  return {
    options,
    asOfDate,
    asOfLabel: asOfLabelOf(asOfDate, asOfTime),
    asOfIso,
    sectors: SECTORS,
    instruments,
    instrument: (symbol) => bySymbol.get(symbol),
    day: (symbol) => days.get(symbol),
    symbols,
    screener,
    marketWatch,
    indexCodes: INDEX_CODES,
    indexInfo: (code) => indexInfos.get(code),
    indexConstituents: (code) => constituents.get(code) ?? null,
    indexLevels: { asOf: asOfIso, rows: levelRows },
    sectorPage,
    sectorMemberRows: (code) => memberRows.get(code) ?? [],
    history(symbol) {
      const inst = bySymbol.get(symbol);
      const model = models.get(symbol);
      if (!inst || !model || inst.historyRows === 0) return [];
      return generateHistory(
        seed,
        symbol,
        model,
        inst.traded ? asOfDate : previousTradingDay,
        inst.historyRows,
      );
    },
    reports(symbol) {
      const inst = bySymbol.get(symbol);
      if (!inst) return null;
      return inst.hasReports ? generateReports(seed, inst, asOfDate) : [];
    },
    anomalies: HISTORY_ANOMALIES,
  };
}

const cache = new Map<string, Dataset>();

/** The dataset for these options; the same options give the same (shared, read-only) instance. */
export function createDataset(options: DatasetOptions = {}): Dataset {
  const full: Required<DatasetOptions> = {
    seed: options.seed ?? DEFAULT_SEED,
    extraSymbols: Math.max(0, Math.floor(options.extraSymbols ?? 0)),
    historyRows: Math.max(0, Math.floor(options.historyRows ?? 0)),
    asOfDate: options.asOfDate ?? AS_OF_DATE,
    asOfTime: options.asOfTime ?? defaultAsOfTime(options.asOfDate ?? AS_OF_DATE),
  };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(full.asOfDate) || tradingDays(full.asOfDate, 1)[0] !== full.asOfDate) {
    throw new RangeError(`asOfDate must be a weekday as YYYY-MM-DD, got ${full.asOfDate}`);
  }
  if (!/^\d{2}:\d{2}$/.test(full.asOfTime))
    throw new RangeError(`asOfTime must be HH:MM, got ${full.asOfTime}`);
  const key = `${full.seed}:${full.extraSymbols}:${full.historyRows}:${full.asOfDate}:${full.asOfTime}`;
  let ds = cache.get(key);
  if (!ds) {
    ds = buildDataset(full);
    cache.set(key, ds);
  }
  return ds;
}
