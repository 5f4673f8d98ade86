// Whether a symbol exists, and the normalised form every endpoint uses.
import type { Datasets } from './datasets.ts';
import type { RequestContext } from './context.ts';
import { derived } from './answer.ts';
import type { PortalSymbol } from '../exchange/types.ts';

/** Symbols are case-insensitive for callers; the portal writes them upper-case. */
export function normaliseSymbol(raw: string): string {
  return raw.trim().toUpperCase();
}

const symbolSet = derived((rows: PortalSymbol[]) => new Set(rows.map((r) => r.symbol)));
const rowSymbols = derived((rows: Array<{ symbol: string }>) => new Set(rows.map((r) => r.symbol)));

/**
 * A symbol is known when the portal lists it anywhere: the symbol list, the screener or the market
 * watch. Checked in that order so the usual case costs one cached lookup.
 */
export async function isKnownSymbol(
  datasets: Datasets,
  symbol: string,
  ctx: RequestContext,
): Promise<boolean> {
  if (symbolSet((await datasets.symbols(ctx)).value).has(symbol)) return true;
  if (rowSymbols((await datasets.screener(ctx)).value).has(symbol)) return true;
  return rowSymbols((await datasets.marketWatch(ctx)).value).has(symbol);
}
