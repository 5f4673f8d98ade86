// `GET /eligible-scrips`: one `table.tbl` per market, ids `REGTable`, `FUTTable`,
// `CSFTable`, `SIFTable`, `BNBTable`, `ODLTable`, …, each under a heading (Future Deliverable
// Contract Market, …) with Symbol and Name. Futures symbols carry their month (`AGHA-APR`,
// `ACPL-CAPR`). An empty market has an empty body.
import { UpstreamDataError } from '../../errors.ts';
import type { EligibleMarket } from '../feed-types.ts';
import { extractTables } from '../html/table.ts';
import { cellSymbol, cellText, isSymbol } from './cells.ts';
import { cellAt, locateColumns, requirePageText } from './columns.ts';

const COLUMNS = {
  symbol: { labels: ['symbol', 'scrip'], required: true },
  name: { labels: ['name', 'company', 'company name'] },
} as const;

const MARKET_ID = /^([A-Za-z]{2,5})Table$/;

export function parseEligibleScrips(html: string): EligibleMarket[] {
  const page = requirePageText('eligible-scrips', html);
  const markets: EligibleMarket[] = [];
  for (const table of extractTables(page)) {
    const id = table.id === null ? null : MARKET_ID.exec(table.id);
    if (id === null) continue;
    const { columns: c, missing } = locateColumns(table, COLUMNS);
    if (missing !== null)
      throw new UpstreamDataError('eligible-scrips', `${table.id}: missing column "${missing}"`);
    const scrips: EligibleMarket['scrips'][number][] = [];
    for (const row of table.rows) {
      const cell = cellAt(row, c.symbol);
      const text = cellText(cell);
      const symbol = cellSymbol(cell) ?? (text !== null && isSymbol(text) ? text.toUpperCase() : null);
      if (symbol === null) continue;
      scrips.push({ symbol, name: cellText(cellAt(row, c.name)) });
    }
    markets.push({ code: (id[1] as string).toUpperCase(), title: table.heading, scrips });
  }
  if (markets.length === 0) throw new UpstreamDataError('eligible-scrips', 'no market table');
  return markets;
}
