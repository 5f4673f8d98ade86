import type { ScreenerRow } from '../../exchange/types.ts';
import { zeroIsMissing } from '../no-value.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { ScreenerRowT } from '../models/resources.ts';

const screenerRows = memoByDataset((rows: readonly ScreenerRow[]) =>
  rows.map((r): ScreenerRowT => ({
    symbol: r.symbol,
    // The spec types sector as a number: the portal's 4-digit code `0813` becomes 813.
    sector: r.sectorCode === null || !/^\d+$/.test(r.sectorCode) ? null : Number(r.sectorCode),
    listed_in: r.listedIn.length > 0 ? r.listedIn.join(',') : null,
    market_cap: zeroIsMissing(r.marketCap),
    price: zeroIsMissing(r.price),
    pe_ratio: zeroIsMissing(r.peRatio),
    dividend_yield: r.dividendYield,
    free_float: zeroIsMissing(r.freeFloat),
    volume_avg_30d: r.volumeAvg30d,
    change_1y_pct: zeroIsMissing(r.change1yPct),
  })),
);

export async function screener(datasets: Datasets, ctx: RequestContext): Promise<Answer<ScreenerRowT[]>> {
  const cached = await datasets.screener(ctx);
  return answerFrom(cached, screenerRows(cached.value), 'screener');
}
