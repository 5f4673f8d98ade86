import type { PortalSymbol } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, fetchAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { constituentSymbols } from './indices.ts';

const symbolList = memoByDataset((rows: readonly PortalSymbol[]) => rows.map((r) => r.symbol));

/** Every listed symbol, or with `index` only that index's constituents. */
export async function listStocks(
  datasets: Datasets,
  ctx: RequestContext,
  index?: string,
): Promise<Answer<string[]>> {
  if (index !== undefined) return constituentSymbols(datasets, index, ctx);
  const cached = await datasets.symbols(ctx);
  return answerFrom(cached, symbolList(cached.value), 'stocks', fetchAsOf(cached.fetchedAt));
}
