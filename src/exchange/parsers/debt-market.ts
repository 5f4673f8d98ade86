// `GET /debt-market`: four `table.tbl` in a row, government securities first,
// then corporate issues, all with Security Code, Security Name, Face Value, Listing Date,
// Issue Date, Issue Size, Maturity Date, Coupon/Rental Rate, Previous Coupon/Rental Date,
// Next Coupon/Rental Date, Outstanding Days, Remaining Years. Issue sizes are abbreviated
// (`53.71B`, `1.00T`); names may be cut short (`Bank Al-Falah(TFC6`) and are kept as printed.
// The tables have no headings: each sits in a `div.tabs__panel[data-name=gop]` whose title is the
// matching `div.tabs__list__item[data-name=gop]` (GoP Ijarah Sukuk, Public Debt Securities, …).
import { UpstreamDataError } from '../../errors.ts';
import type { DebtInstrumentRow } from '../feed-types.ts';
import { extractTables, type Cell } from '../html/table.ts';
import { cellNumber, cellText, denoise, parseNumberText } from './cells.ts';
import { cellAt, locateColumns, requirePageText } from './columns.ts';
import { parseDisplayDate } from './dates.ts';
import { byClass, findAll, parseElements, textOf } from './elements.ts';

const COLUMNS = {
  code: { labels: ['security code', 'code', 'symbol'], required: true },
  name: { labels: ['security name', 'name'], required: true },
  faceValue: { labels: ['face value'] },
  listingDate: { labels: ['listing date'] },
  issueDate: { labels: ['issue date'] },
  issueSize: { labels: ['issue size'] },
  maturityDate: { labels: ['maturity date', 'maturity'], required: true },
  couponRate: { labels: ['coupon/rental rate', 'coupon rate', 'coupon / rental rate', 'rental rate'] },
  previousCoupon: {
    labels: ['previous coupon/rental date', 'previous coupon date', 'previous coupon / rental date'],
  },
  nextCoupon: { labels: ['next coupon/rental date', 'next coupon date', 'next coupon / rental date'] },
  outstandingDays: { labels: ['outstanding days'] },
  remainingYears: { labels: ['remaining years'] },
} as const;

const SCALE: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 };
const ABBREVIATED = /^([\d,]+(?:\.\d+)?)\s*([KMBT])$/i;

/** `53.71B` → 53,710,000,000; a plain number as it is. */
export function abbreviatedNumber(cell: Cell | undefined): number | null {
  const text = cellText(cell);
  if (text === null) return null;
  const m = ABBREVIATED.exec(text);
  if (m === null) return cellNumber(cell);
  const base = parseNumberText(m[1] as string);
  return base === null ? null : denoise(base * (SCALE[(m[2] as string).toUpperCase()] as number));
}

function dateOf(cell: Cell | undefined): string | null {
  const text = cellText(cell);
  return text === null ? null : parseDisplayDate(text);
}

/** The tab titles by their `data-name` (`gop` → `GoP Ijarah Sukuk`). */
function tabTitles(page: string): Map<string, string> {
  const titles = new Map<string, string>();
  for (const item of findAll(parseElements(page), byClass('tabs__list__item'))) {
    const name = item.attrs.get('data-name');
    const title = textOf(item);
    if (name !== undefined && title !== '' && !titles.has(name)) titles.set(name, title);
  }
  return titles;
}

export function parseDebtMarket(html: string): DebtInstrumentRow[] {
  const page = requirePageText('debt-market', html);
  const rows: DebtInstrumentRow[] = [];
  let seen = 0;
  let firstMissing: string | null = null;
  const titles = page.includes('tabs__list__item') ? tabTitles(page) : new Map<string, string>();
  for (const table of extractTables(page, { scope: { className: 'tabs__panel' } })) {
    const { columns: c, missing } = locateColumns(table, COLUMNS);
    if (missing !== null) {
      firstMissing ??= missing;
      continue;
    }
    seen++;
    const tab = table.scope?.name ?? null;
    const heading = (tab === null ? undefined : titles.get(tab)) ?? table.heading ?? tab;
    for (const row of table.rows) {
      const code = cellText(cellAt(row, c.code));
      if (code === null || row.length < 3) continue;
      rows.push({
        table: seen,
        heading,
        code: code.toUpperCase(),
        name: cellText(cellAt(row, c.name)),
        faceValue: cellNumber(cellAt(row, c.faceValue)),
        listingDate: dateOf(cellAt(row, c.listingDate)),
        issueDate: dateOf(cellAt(row, c.issueDate)),
        issueSize: abbreviatedNumber(cellAt(row, c.issueSize)),
        maturityDate: dateOf(cellAt(row, c.maturityDate)),
        couponRate: cellNumber(cellAt(row, c.couponRate)),
        previousCouponDate: dateOf(cellAt(row, c.previousCoupon)),
        nextCouponDate: dateOf(cellAt(row, c.nextCoupon)),
        outstandingDays: cellNumber(cellAt(row, c.outstandingDays)),
        remainingYears: cellNumber(cellAt(row, c.remainingYears)),
      });
    }
  }
  if (seen === 0) {
    throw new UpstreamDataError(
      'debt-market',
      firstMissing === null ? 'no table' : `missing column "${firstMissing}"`,
    );
  }
  return rows;
}
