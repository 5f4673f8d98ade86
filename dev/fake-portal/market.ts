// The fake market's instruments and their day, built from the base universe (universe.ts) and the
// extra symbols: what every board (boards.ts, index-boards.ts, sector-boards.ts) is derived from.
import type { DatasetOptions, DaySummary, Instrument } from './dataset-types.ts';
import { tradingDays } from './calendar.ts';
import { extraSpec } from './extra-symbols.ts';
import { generateHistory, priceModel, type PriceModel } from './history.ts';
import { round2, noisyPct3 } from './numbers.ts';
import { hashString } from './random.ts';
import { BASE, DEBT_SECTOR, INDEX_DEFS, KMI30, KMIALL_EXTRA, SECTORS, type BaseSpec } from './universe.ts';

/** The instruments and their trading day, shared by every board of one dataset. */
export interface Market {
  readonly seed: number;
  /** All instruments sorted by symbol (code-unit order). */
  readonly instruments: readonly Instrument[];
  readonly specBySymbol: ReadonlyMap<string, BaseSpec>;
  /** Index code → member symbols (before dropping members without a day). */
  readonly memberSets: ReadonlyMap<string, ReadonlySet<string>>;
  readonly models: ReadonlyMap<string, PriceModel>;
  readonly days: ReadonlyMap<string, DaySummary>;
  /** The trading day before the as-of date: an untraded symbol's last traded day. */
  readonly previousTradingDay: string;
}

/** The day's change and change % between two prices, as the boards print them. */
export function changeDir(ldcp: number, current: number): { change: number; changePct: number } {
  const change = round2(current - ldcp);
  return { change, changePct: ldcp === 0 ? 0 : noisyPct3((change / ldcp) * 100) };
}

/** Index code → member symbols: explicit lists, every equity ('all'), or KMI30 and more ('kmiall'). */
function indexMemberSets(specs: readonly BaseSpec[]): Map<string, Set<string>> {
  const kmiAll = new Set([...KMI30, ...KMIALL_EXTRA]);
  const memberSets = new Map<string, Set<string>>();
  for (const def of INDEX_DEFS) {
    if (def.members === 'all') {
      memberSets.set(
        def.code,
        new Set(specs.filter((s) => (s.kind ?? 'equity') === 'equity').map((s) => s.symbol)),
      );
    } else if (def.members === 'kmiall') {
      const extra = specs
        .filter((s, i) => i >= BASE.length && (i - BASE.length) % 3 === 0)
        .map((s) => s.symbol);
      memberSets.set(def.code, new Set([...kmiAll, ...extra]));
    } else {
      memberSets.set(def.code, new Set(def.members));
    }
  }
  return memberSets;
}

const SECTOR_NAMES = new Map(SECTORS.map((sector) => [sector.code, sector.name]));

function instrumentOf(
  s: BaseSpec,
  ordinal: number,
  memberSets: ReadonlyMap<string, ReadonlySet<string>>,
  options: Required<DatasetOptions>,
): Instrument {
  const kind = s.kind ?? 'equity';
  const indices = INDEX_DEFS.filter((d) => memberSets.get(d.code)?.has(s.symbol)).map((d) => d.code);
  indices.sort();
  const defaultRows = s.historyRows ?? 250 + (hashString(`${options.seed}:${s.symbol}`) % 1750);
  const shares = Math.round(s.sharesM * 1e6);
  return {
    symbol: s.symbol,
    name: s.name,
    listName: s.listName ?? s.name,
    sectorCode: kind === 'debt' ? null : s.sector,
    sectorName: kind === 'debt' ? DEBT_SECTOR : (SECTOR_NAMES.get(s.sector) ?? ''),
    kind,
    tags: s.tags ?? [],
    indices,
    onScreener: !s.noScreener && kind !== 'debt',
    traded: !s.untraded && kind !== 'debt',
    shares,
    freeFloat: Math.round(shares * s.ff),
    fiscalYearEndMonth: s.fye ?? 6,
    hasReports: !s.noReports && kind !== 'debt',
    historyRows: kind === 'debt' ? 0 : options.historyRows > 0 ? options.historyRows : defaultRows,
    ordinal,
  };
}

export function buildMarket(options: Required<DatasetOptions>): Market {
  const { seed, asOfDate } = options;
  const previousTradingDay = tradingDays(asOfDate, 2)[1] as string;
  const specs: BaseSpec[] = [...BASE];
  for (let i = 0; i < options.extraSymbols; i++) specs.push(extraSpec(i, seed));
  const memberSets = indexMemberSets(specs);
  const instruments = specs.map((s, ordinal) => instrumentOf(s, ordinal, memberSets, options));
  instruments.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  const specBySymbol = new Map(specs.map((s) => [s.symbol, s]));

  // Today's row (and yesterday's close) of every symbol with a history: the walk's last two rows.
  const models = new Map<string, PriceModel>();
  const days = new Map<string, DaySummary>();
  for (const inst of instruments) {
    if (inst.kind === 'debt') continue;
    const spec = specBySymbol.get(inst.symbol) as BaseSpec;
    const model = priceModel(seed, inst.symbol, spec.price);
    models.set(inst.symbol, model);
    const end = inst.traded ? asOfDate : previousTradingDay;
    const [today, yesterday] = generateHistory(seed, inst.symbol, model, end, 2);
    if (!today || !yesterday) continue;
    days.set(inst.symbol, {
      date: today.date,
      ldcp: yesterday.close as number,
      open: today.open as number,
      high: today.high as number,
      low: today.low as number,
      close: today.close as number,
      volume: today.volume as number,
    });
  }
  return { seed, instruments, specBySymbol, memberSets, models, days, previousTradingDay };
}
