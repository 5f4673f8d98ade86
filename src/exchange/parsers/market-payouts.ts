// `POST /payouts` (form symbol, count, offset, date_from, date_to): the market-wide announcements
// of dividends, bonus and right issues. A pager line, then
// `table.tbl#announcementsTable` with Symbol, Company, Sector, Dividend Announcement,
// Date / Time of Announcement, Book Closure Date. The Details shapes are the company payouts
// page's (payouts.ts); a cell none of them fits keeps its text for the caller to report.
import { UpstreamDataError } from '../../errors.ts';
import type { MarketPayoutRow, MarketPayoutsPage } from '../feed-types.ts';
import { extractTables } from '../html/table.ts';
import { cellSymbol, cellText } from './cells.ts';
import { cellAt, preferTableId, requirePageText, selectTable } from './columns.ts';
import { parsePaging } from './paging.ts';
import { parseAnnouncedTime, parseBookClosure, parsePayoutDetails } from './payouts.ts';

const COLUMNS = {
  symbol: { labels: ['symbol'], required: true },
  company: { labels: ['company', 'company name', 'name'] },
  sector: { labels: ['sector'] },
  details: {
    labels: ['dividend announcement', 'announcement', 'details', 'payout', 'entitlement'],
    required: true,
  },
  announced: {
    labels: ['date / time of announcement', 'date/time of announcement', 'date / time', 'date', 'announced'],
  },
  bookClosure: { labels: ['book closure date', 'book closure', 'book closure dates'] },
} as const;

const NO_VALUE = /^-*$/;

export function parseMarketPayouts(html: string): MarketPayoutsPage {
  const page = requirePageText('market-payouts', html);
  const tables = preferTableId(extractTables(page), 'announcementsTable');
  const { table, columns: c } = selectTable('market-payouts', tables, COLUMNS);
  const rows: MarketPayoutRow[] = [];
  for (const row of table.rows) {
    // A "no data" row spanning the table.
    if (row.length < 2) continue;
    const symbol = cellSymbol(cellAt(row, c.symbol));
    const details = cellText(cellAt(row, c.details)) ?? '';
    if (symbol === null) {
      if (details === '') continue;
      throw new UpstreamDataError('market-payouts', `a row without a symbol (${details.slice(0, 40)})`);
    }
    const announcedText = cellText(cellAt(row, c.announced));
    const closureText = cellText(cellAt(row, c.bookClosure));
    const closure = parseBookClosure(closureText);
    rows.push({
      symbol,
      company: cellText(cellAt(row, c.company)),
      sector: cellText(cellAt(row, c.sector)),
      details,
      entries: parsePayoutDetails(details),
      announced: parseAnnouncedTime(announcedText),
      announcedText,
      bookClosureFrom: closure?.from ?? null,
      bookClosureTo: closure?.to ?? null,
      bookClosureText:
        closure !== null || closureText === null || NO_VALUE.test(closureText) ? null : closureText,
    });
  }
  return { paging: parsePaging(page), rows };
}
