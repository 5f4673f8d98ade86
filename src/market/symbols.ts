// Whether a symbol exists, and the normalised form every endpoint uses.
import type { Datasets } from './datasets.ts';
import type { RequestContext } from './context.ts';
import { memoByDataset } from '../cache/memo.ts';
import type { PortalSymbol } from '../exchange/types.ts';
import { isPageFailure } from './partial.ts';

/** Symbols are case-insensitive for callers; the portal writes them upper-case. */
export function normaliseSymbol(raw: string): string {
  return raw.trim().toUpperCase();
}

const symbolSet = memoByDataset((rows: readonly PortalSymbol[]) => new Set(rows.map((r) => r.symbol)));
const rowSymbols = memoByDataset(
  (rows: ReadonlyArray<{ symbol: string }>) => new Set(rows.map((r) => r.symbol)),
);

/**
 * A symbol is known when the portal lists it anywhere: the symbol list, the screener or the market
 * watch. Checked in that order so the usual case costs one cached lookup. A page that cannot be had
 * is passed over (src/market/partial.ts): another that lists the symbol answers the question; only
 * when none lists it and one failed is the failure the answer, since "unknown" cannot be told.
 */
export async function isKnownSymbol(
  datasets: Datasets,
  symbol: string,
  ctx: RequestContext,
): Promise<boolean> {
  const sources = [
    async () => symbolSet((await datasets.symbols(ctx)).value),
    async () => rowSymbols((await datasets.screener(ctx)).value),
    async () => rowSymbols((await datasets.marketWatch(ctx)).value),
  ];
  let failure: unknown;
  for (const listed of sources) {
    try {
      if ((await listed()).has(symbol)) return true;
    } catch (err) {
      if (!isPageFailure(err)) throw err;
      failure ??= err;
    }
  }
  if (failure !== undefined) throw failure;
  return false;
}
