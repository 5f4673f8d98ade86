// `GET /stocks?q=…`: symbols and company names from `/symbols`, best matches first.
import { BadRequestError } from '../../errors.ts';
import type { PortalSymbol } from '../../exchange/types.ts';
import { memoByDataset } from '../../cache/memo.ts';
import { answerFrom, answerKey, fetchAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { StockMatchT } from '../models/resources.ts';

export const SEARCH_LIMIT = 50;

interface Entry {
  row: PortalSymbol;
  symbol: string;
  name: string;
  words: string[];
}

const entries = memoByDataset((rows: readonly PortalSymbol[]): Entry[] =>
  rows.map((row) => {
    const name = row.name.toLowerCase();
    return { row, symbol: row.symbol.toLowerCase(), name, words: name.split(/[^a-z0-9]+/).filter(Boolean) };
  }),
);

/**
 * Rank of a match, lower is better; null for no match: the exact symbol, a symbol prefix, a name
 * that starts with the query, a name word that does, the symbol containing it, the name containing it.
 */
function rankOf(entry: Entry, q: string): number | null {
  if (entry.symbol === q) return 0;
  if (entry.symbol.startsWith(q)) return 1;
  if (entry.name.startsWith(q)) return 2;
  if (entry.words.some((w) => w.startsWith(q))) return 3;
  if (entry.symbol.includes(q)) return 4;
  if (entry.name.includes(q)) return 5;
  return null;
}

/** Case-insensitive; ties go to the shorter symbol, then alphabetical order. At most SEARCH_LIMIT. */
export function searchSymbols(rows: readonly PortalSymbol[], query: string): StockMatchT[] {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  const ranked: { entry: Entry; rank: number }[] = [];
  for (const entry of entries(rows)) {
    const rank = rankOf(entry, q);
    if (rank !== null) ranked.push({ entry, rank });
  }
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.entry.symbol.length - b.entry.symbol.length ||
      (a.entry.symbol < b.entry.symbol ? -1 : a.entry.symbol > b.entry.symbol ? 1 : 0),
  );
  return ranked.slice(0, SEARCH_LIMIT).map(({ entry }) => ({
    symbol: entry.row.symbol,
    name: entry.row.name,
    sector: entry.row.sectorName,
  }));
}

export async function searchStocks(
  datasets: Datasets,
  query: string,
  ctx: RequestContext,
): Promise<Answer<StockMatchT[]>> {
  if (query.trim().length === 0)
    throw new BadRequestError('q must not be empty: give part of a symbol or company name');
  const cached = await datasets.symbols(ctx);
  return answerFrom(
    cached,
    searchSymbols(cached.value, query),
    answerKey('search', query.trim().toLowerCase()),
    fetchAsOf(cached.fetchedAt),
  );
}
