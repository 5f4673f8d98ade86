// `GET /trading-board/{MARKET}/{board}`: `table#tradingBoardTable`. The regular
// and GEM boards print SYMBOL, NAME, BID VOL., BID PRICE, OFFER VOL., OFFER PRICE, LDCP, CHANGE,
// VOLUME; the bills-and-bonds board adds yields (BID YIELD (%), OFFER YIELD (%), LTP, LTY (%),
// LDCY (%)) and has no NAME. Every column but the symbol is optional; prices and yields to 4
// decimals, zeros where nothing is bid or offered (kept: the board's own value).
import type { BoardRow } from '../feed-types.ts';
import { extractTables } from '../html/table.ts';
import { cellInteger, cellNumber, cellSymbol, cellText } from './cells.ts';
import { cellAt, preferTableId, requirePageText, selectTable } from './columns.ts';

const COLUMNS = {
  symbol: { labels: ['symbol'], required: true },
  name: { labels: ['name', 'security name'], sometimes: true },
  bidVolume: { labels: ['bid vol.', 'bid vol', 'bid volume'] },
  bidPrice: { labels: ['bid price', 'bid'] },
  bidYield: { labels: ['bid yield (%)', 'bid yield'], sometimes: true },
  offerVolume: { labels: ['offer vol.', 'offer vol', 'offer volume'] },
  offerPrice: { labels: ['offer price', 'offer'] },
  offerYield: { labels: ['offer yield (%)', 'offer yield'], sometimes: true },
  lastPrice: { labels: ['ltp', 'last price', 'current'], sometimes: true },
  lastYield: { labels: ['lty (%)', 'lty', 'last yield'], sometimes: true },
  ldcp: { labels: ['ldcp'] },
  ldcy: { labels: ['ldcy (%)', 'ldcy'], sometimes: true },
  change: { labels: ['change'] },
  volume: { labels: ['volume'], required: true },
} as const;

export function parseTradingBoard(html: string): BoardRow[] {
  const page = requirePageText('trading-board', html);
  const tables = preferTableId(extractTables(page), 'tradingBoardTable');
  const { table, columns: c } = selectTable('trading-board', tables, COLUMNS);
  const rows: BoardRow[] = [];
  for (const row of table.rows) {
    const cell = cellAt(row, c.symbol);
    const symbol = cellSymbol(cell) ?? cellText(cell)?.toUpperCase() ?? null;
    if (symbol === null || row.length < 2) continue;
    rows.push({
      symbol,
      name: cellText(cellAt(row, c.name)) ?? (cell?.linkTitle?.trim() || null),
      bidVolume: cellInteger(cellAt(row, c.bidVolume)),
      bidPrice: cellNumber(cellAt(row, c.bidPrice)),
      bidYield: cellNumber(cellAt(row, c.bidYield)),
      offerVolume: cellInteger(cellAt(row, c.offerVolume)),
      offerPrice: cellNumber(cellAt(row, c.offerPrice)),
      offerYield: cellNumber(cellAt(row, c.offerYield)),
      lastPrice: cellNumber(cellAt(row, c.lastPrice)),
      lastYield: cellNumber(cellAt(row, c.lastYield)),
      ldcp: cellNumber(cellAt(row, c.ldcp)),
      ldcy: cellNumber(cellAt(row, c.ldcy)),
      change: cellNumber(cellAt(row, c.change)),
      volume: cellInteger(cellAt(row, c.volume)),
    });
  }
  return rows;
}
