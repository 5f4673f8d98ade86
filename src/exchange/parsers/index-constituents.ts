// `GET /indices/{NAME}`: an `<h2>` title, then one table of constituents. Its size column is
// FREEFLOAT (M) for some indices (KSE100) and SHARES (M) for others (ALLSHR).
import type { IndexConstituentRow, IndexConstituentsPage } from '../types.ts';
import { cellInteger, cellNumber, cellScaledNumber, cellSymbol, cellText } from './cells.ts';
import { cellAt, requirePageText, selectTable } from './columns.ts';
import { extractTables } from '../html/table.ts';

const COLUMNS = {
  symbol: { labels: ['symbol'], required: true },
  name: { labels: ['name'] },
  ldcp: { labels: ['ldcp'] },
  current: { labels: ['current'], required: true },
  change: { labels: ['change'] },
  changePct: { labels: ['change (%)'] },
  idxWeight: { labels: ['idx wtg (%)', 'idx wtg'] },
  idxPoint: { labels: ['idx point'] },
  volume: { labels: ['volume'] },
  freeFloat: { labels: ['freefloat (m)', 'free float (m)'], oneOf: 'size' },
  shares: { labels: ['shares (m)'], oneOf: 'size' },
  marketCap: { labels: ['market cap (m)', 'market cap. (m)'] },
} as const;

/** The `(M)` columns' text is in millions; data-order carries the raw count or rupees. */
const MILLION = 1e6;

export function parseIndexConstituents(html: string): IndexConstituentsPage {
  const page = requirePageText('index-constituents', html);
  const { table, columns: c } = selectTable('index-constituents', extractTables(page), COLUMNS);
  const sizeColumn = c.freeFloat >= 0 ? 'freefloat' : c.shares >= 0 ? 'shares' : null;
  const rows: IndexConstituentRow[] = [];
  for (const row of table.rows) {
    const symbolCell = cellAt(row, c.symbol);
    const symbol = cellSymbol(symbolCell);
    if (symbol === null) continue;
    const constituent: IndexConstituentRow = {
      symbol,
      name: cellText(cellAt(row, c.name)) ?? (symbolCell?.linkTitle?.trim() || null),
      ldcp: cellNumber(cellAt(row, c.ldcp)),
      current: cellNumber(cellAt(row, c.current)),
      change: cellNumber(cellAt(row, c.change)),
      changePct: cellNumber(cellAt(row, c.changePct)),
      // No data-order on this column: the text `0.44%` is the value.
      idxWeight: cellNumber(cellAt(row, c.idxWeight)),
      idxPoint: cellNumber(cellAt(row, c.idxPoint)),
      volume: cellInteger(cellAt(row, c.volume)),
      marketCap: cellScaledNumber(cellAt(row, c.marketCap), MILLION),
    };
    if (sizeColumn === 'freefloat')
      constituent.freeFloat = cellScaledNumber(cellAt(row, c.freeFloat), MILLION);
    if (sizeColumn === 'shares') constituent.shares = cellScaledNumber(cellAt(row, c.shares), MILLION);
    rows.push(constituent);
  }
  return { title: table.heading, sizeColumn, rows };
}
