// `GET /screener`: one table, ~730 rows. `th`s carry data-name (symbol, sector, listed, marketCap,
// close, percentChange, changeYear, peRatio, dividendYield, freeFloat, volume30Avg).
import type { ScreenerRow } from '../types.ts';
import { cellNumber } from './cells.ts';
import { cellAt, preferTableId, requirePageText, selectTable } from './columns.ts';
import { extractTables } from '../html/table.ts';
import { LISTING_COLUMNS, listingOf } from './listing.ts';

const COLUMNS = {
  ...LISTING_COLUMNS,
  marketCap: { labels: ['market cap.', 'market cap'], dataName: 'marketCap' },
  price: { labels: ['price'], dataName: 'close', required: true },
  changePct: { labels: ['change (%)'], dataName: 'percentChange' },
  change1yPct: { labels: ['1-year ch. (%) *', '1-year ch. (%)'], dataName: 'changeYear' },
  peRatio: { labels: ['pe ratio (ttm)', 'p/e ratio (ttm)'], dataName: 'peRatio' },
  dividendYield: { labels: ['dividend yield (%)'], dataName: 'dividendYield' },
  freeFloat: { labels: ['free float'], dataName: 'freeFloat' },
  volumeAvg30d: { labels: ['30d volume avg.', '30d volume avg'], dataName: 'volume30Avg' },
} as const;

export function parseScreener(html: string): ScreenerRow[] {
  const page = requirePageText('screener', html);
  const { table, columns: c } = selectTable(
    'screener',
    preferTableId(extractTables(page), 'screenerTable'),
    COLUMNS,
  );
  const rows: ScreenerRow[] = [];
  for (const row of table.rows) {
    const listing = listingOf(row, c);
    if (listing === null) continue;
    // Spelled out: `{ ...listing, … }` copies the listing, then adds the other eight properties one
    // by one; a literal with every property allocates the row in its final shape, which is
    // several times faster (bench/README.md).
    rows.push({
      symbol: listing.symbol,
      name: listing.name,
      sectorCode: listing.sectorCode,
      listedIn: listing.listedIn,
      marketCap: cellNumber(cellAt(row, c.marketCap)),
      price: cellNumber(cellAt(row, c.price)),
      changePct: cellNumber(cellAt(row, c.changePct)),
      change1yPct: cellNumber(cellAt(row, c.change1yPct)),
      peRatio: cellNumber(cellAt(row, c.peRatio)),
      dividendYield: cellNumber(cellAt(row, c.dividendYield)),
      freeFloat: cellNumber(cellAt(row, c.freeFloat)),
      volumeAvg30d: cellNumber(cellAt(row, c.volumeAvg30d)),
    });
  }
  return rows;
}
