// `GET /market-watch`: one table, ~490 rows (regular board).
import type { MarketWatchRow } from '../types.ts';
import { cellInteger, cellNumber } from './cells.ts';
import { cellAt, requirePageText, selectTable } from './columns.ts';
import { extractTables } from '../html/table.ts';
import { LISTING_COLUMNS, listingOf } from './listing.ts';

const COLUMNS = {
  ...LISTING_COLUMNS,
  ldcp: { labels: ['ldcp'], dataName: 'ldcp' },
  open: { labels: ['open'], dataName: 'open' },
  high: { labels: ['high'], dataName: 'high' },
  low: { labels: ['low'], dataName: 'low' },
  current: { labels: ['current'], dataName: 'close', required: true },
  change: { labels: ['change'], dataName: 'change' },
  changePct: { labels: ['change (%)'], dataName: 'percentChange' },
  volume: { labels: ['volume'], dataName: 'volume' },
} as const;

/** CHANGE (%) arrives with float noise (`-1.7239999999999998`); cellNumber rounds it to 4 decimals. */
export function parseMarketWatch(html: string): MarketWatchRow[] {
  const page = requirePageText('market-watch', html);
  const { table, columns: c } = selectTable('market-watch', extractTables(page), COLUMNS);
  const rows: MarketWatchRow[] = [];
  for (const row of table.rows) {
    const listing = listingOf(row, c);
    if (listing === null) continue;
    // Spelled out: `{ ...listing, … }` copies the listing, then adds the other eight properties one
    // by one; a literal with every property allocates the row in its final shape (see screener.ts).
    rows.push({
      symbol: listing.symbol,
      name: listing.name,
      sectorCode: listing.sectorCode,
      listedIn: listing.listedIn,
      ldcp: cellNumber(cellAt(row, c.ldcp)),
      open: cellNumber(cellAt(row, c.open)),
      high: cellNumber(cellAt(row, c.high)),
      low: cellNumber(cellAt(row, c.low)),
      current: cellNumber(cellAt(row, c.current)),
      change: cellNumber(cellAt(row, c.change)),
      changePct: cellNumber(cellAt(row, c.changePct)),
      volume: cellInteger(cellAt(row, c.volume)),
    });
  }
  return rows;
}
