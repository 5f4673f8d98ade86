// The columns the screener and the market watch share: who the row is about.
import { cellSymbol, cellText, splitList } from './cells.ts';
import { cellAt } from './columns.ts';
import type { Row } from '../html/table.ts';

/** The shared SYMBOL / SECTOR / LISTED IN columns of a board row. */
export const LISTING_COLUMNS = {
  symbol: { labels: ['symbol'], dataName: 'symbol', required: true },
  sector: { labels: ['sector'], dataName: 'sector' },
  listedIn: { labels: ['listed in'], dataName: 'listed' },
} as const;

export interface Listing {
  symbol: string;
  name: string | null;
  sectorCode: string | null;
  listedIn: string[];
}

/** The row's symbol (never from the whole cell text: status tags follow it), or null to skip the row. */
export function listingOf(row: Row, c: { symbol: number; sector: number; listedIn: number }): Listing | null {
  const symbolCell = cellAt(row, c.symbol);
  const symbol = cellSymbol(symbolCell);
  if (symbol === null) return null;
  return {
    symbol,
    name: symbolCell?.linkTitle?.trim() || null,
    sectorCode: cellText(cellAt(row, c.sector)),
    listedIn: splitList(cellText(cellAt(row, c.listedIn))),
  };
}
