// The market at a glance, computed from the cached market-watch page: the
// portal's own home-page widgets give breadth only as fractions (symbol-position.json) and the
// top-10 lists without prices, so the full board is the fresher and complete source.
import { denoise } from '../../exchange/parsers/cells.ts';
import { combine } from '../../cache/types.ts';
import type { MarketWatchRow, ScreenerRow } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, marketAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { BreadthT, MoverT } from '../models/intraday.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';

export const MOVER_KINDS = ['gainers', 'losers', 'active'] as const;
export type MoverKind = (typeof MOVER_KINDS)[number];

interface Traded {
  row: MarketWatchRow;
  mover: MoverT;
}

/** Rows with a price and a change: what a mover list can rank. */
const tradedRows = memoByDataset((rows: readonly MarketWatchRow[]): Traded[] => {
  const traded: Traded[] = [];
  for (const row of rows) {
    if (row.current === null || row.change === null) continue;
    // A computed percentage carries float noise; the one rounding rule removes it.
    const changePct = row.changePct ?? (row.ldcp ? denoise((row.change / row.ldcp) * 100) : 0);
    traded.push({
      row,
      mover: {
        symbol: row.symbol,
        name: row.name,
        price: row.current,
        change: row.change,
        change_pct: changePct,
        volume: row.volume ?? 0,
      },
    });
  }
  return traded;
});

// Ties break by symbol so a list is the same on every replica and every request.
const bySymbol = (a: MoverT, b: MoverT) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0);

const ranked = memoByDataset((rows: readonly MarketWatchRow[]) => {
  const movers = tradedRows(rows).map((t) => t.mover);
  return {
    gainers: movers
      .filter((m) => m.change_pct > 0)
      .sort((a, b) => b.change_pct - a.change_pct || bySymbol(a, b)),
    losers: movers
      .filter((m) => m.change_pct < 0)
      .sort((a, b) => a.change_pct - b.change_pct || bySymbol(a, b)),
    active: movers.filter((m) => m.volume > 0).sort((a, b) => b.volume - a.volume || bySymbol(a, b)),
  } satisfies Record<MoverKind, MoverT[]>;
});

export async function movers(
  datasets: Datasets,
  by: MoverKind,
  limit: number,
  ctx: RequestContext,
): Promise<Answer<MoverT[]>> {
  const cached = await datasets.marketWatch(ctx);
  return answerFrom(cached, ranked(cached.value)[by].slice(0, limit), answerKey('movers', { by, limit }));
}

// "Unchanged" as the portal's sector table counts it (and /sectors gives it): symbols at LDCP,
// including those not traded today, which the sector tables list as `zero` rows with no change.
// The market watch carries only traded symbols; the screener lists every equity, so one on the
// screener and not on the board is one not traded today.
const breadthOf = memoByDataset((screener: readonly ScreenerRow[]) =>
  memoByDataset((rows: readonly MarketWatchRow[]): BreadthT => {
    const onBoard = new Set(rows.map((r) => r.symbol));
    let notTraded = 0;
    for (const r of screener) if (!onBoard.has(r.symbol)) notTraded++;
    return tally(rows, notTraded);
  }),
);

/** The tally without the screener: who was not traded is unknown, so unchanged and total are. */
const breadthWithoutScreener = memoByDataset((rows: readonly MarketWatchRow[]): BreadthT => ({
  ...tally(rows, 0),
  unchanged: null,
  total: null,
}));

function tally(rows: readonly MarketWatchRow[], notTraded: number): BreadthT {
  let advances = 0;
  let declines = 0;
  let unchanged = notTraded;
  let totalVolume = 0;
  let totalValue = 0;
  for (const { row } of tradedRows(rows)) {
    if ((row.change as number) > 0) advances++;
    else if ((row.change as number) < 0) declines++;
    else unchanged++;
    const volume = row.volume ?? 0;
    totalVolume += volume;
    totalValue += (row.current as number) * volume;
  }
  return {
    advances,
    declines,
    unchanged,
    total: advances + declines + unchanged,
    total_volume: totalVolume,
    // Whole rupees: a sum of price × volume carries float noise in its fractions.
    total_value: Math.round(totalValue),
  };
}

// Breadth's primary page is the market watch (advances, declines, volume and value); the screener is
// secondary: it only counts the equities not traded today into `unchanged`. Without it those two
// counts are null and `meta.missing` names `screener`.
export async function breadth(datasets: Datasets, ctx: RequestContext): Promise<Answer<BreadthT>> {
  const [screener, marketWatch] = await Promise.all([
    secondary('screener', datasets.screener(ctx)),
    datasets.marketWatch(ctx),
  ]);
  const missing = lacking([screener]);
  const missingParts = missingMeta(missing);
  return {
    key: 'breadth',
    data:
      screener instanceof Missing
        ? breadthWithoutScreener(marketWatch.value)
        : breadthOf(screener.value)(marketWatch.value),
    provenance: degraded(combine(had([screener, marketWatch])), missing),
    // The board's time, as the quotes and movers say it.
    asOf: marketAsOf(marketWatch.fetchedAt),
    ...(missingParts ? { meta: { missing: missingParts } } : {}),
  };
}
