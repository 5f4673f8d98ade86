// `GET /company/reports/{SYM}`: a table `Reports`, `Period Ended`, `Posting Date`, whose Reports
// cell is a link: text = report type, href = the PDF
// (`https://financials.psx.com.pk/lib/DownloadPDF.php?id=NNNNNN`). No recording of this page
// exists, so the parser also accepts the `/financial-reports-list`
// column set: SYMBOL, NAME, YEAR, TYPE, PERIOD ENDED, POSTING DATE, POSTING TIME, DOCUMENT.
import type { ReportRow } from '../types.ts';
import { cellSymbol, cellText } from './cells.ts';
import { cellAt, requirePageText, selectTable } from './columns.ts';
import { parseDisplayDate } from './dates.ts';
import { extractTables, type Cell, type Row } from '../html/table.ts';

const COLUMNS = {
  type: { labels: ['reports', 'report', 'type', 'report type'], required: true },
  periodEnded: { labels: ['period ended', 'period'], required: true },
  postingDate: { labels: ['posting date'], required: true },
  year: { labels: ['year'], sometimes: true },
  symbol: { labels: ['symbol'], sometimes: true },
  document: { labels: ['document', 'pdf', 'download'], sometimes: true },
} as const;

const PORTAL = 'https://dps.psx.com.pk/';
const YEAR = /^\d{4}$/;
const YEAR_INSIDE = /(?:^|\D)((?:19|20)\d{2})(?:\D|$)/;

/** An absolute http(s) URL for a link the portal may write relative; null for `javascript:` etc. */
function documentUrl(href: string | null): string | null {
  const trimmed = href?.trim();
  if (trimmed === undefined || trimmed.length === 0 || trimmed.startsWith('#')) return null;
  try {
    const url = new URL(trimmed, PORTAL);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The cell's document: its first link that is a file (a `View`/`javascript:` link may come first). */
function cellDocument(cell: Cell | undefined): string | null {
  if (cell === undefined) return null;
  for (const link of cell.links) {
    const url = documentUrl(link.href);
    if (url !== null) return url;
  }
  return null;
}

function rowDocument(row: Row, documentCell: Cell | undefined, typeCell: Cell | undefined): string | null {
  const direct = cellDocument(documentCell) ?? cellDocument(typeCell);
  if (direct !== null) return direct;
  for (const cell of row) {
    const url = cellDocument(cell);
    if (url !== null) return url;
  }
  return null;
}

/** `Mar 31, 2026` / `31/03/2026` → `2026-03-31`; a bare year stays a year; other text as given. */
function normaliseDate(text: string | null): string | null {
  if (text === null) return null;
  if (YEAR.test(text)) return text;
  return parseDisplayDate(text) ?? text;
}

function yearOf(...sources: (string | null)[]): string | null {
  for (const source of sources) {
    if (source === null) continue;
    if (YEAR.test(source)) return source;
    const match = YEAR_INSIDE.exec(source);
    if (match !== null) return match[1] as string;
  }
  return null;
}

/**
 * The report list of `symbol`. With the list-page column set, rows of other symbols are dropped.
 * Rows without a type, a document link or a year are skipped.
 */
export function parseReports(html: string, symbol: string | null): ReportRow[] {
  const page = requirePageText('reports', html);
  const { table, columns: c } = selectTable('reports', extractTables(page), COLUMNS);
  const wanted = typeof symbol === 'string' && symbol.trim().length > 0 ? symbol.trim().toUpperCase() : null;
  const rows: ReportRow[] = [];
  for (const row of table.rows) {
    const rowSymbol = cellSymbol(cellAt(row, c.symbol));
    if (wanted !== null && rowSymbol !== null && rowSymbol !== wanted) continue;
    const typeCell = cellAt(row, c.type);
    const type = cellText(typeCell);
    const document = rowDocument(row, cellAt(row, c.document), typeCell);
    const periodEnded = normaliseDate(cellText(cellAt(row, c.periodEnded)));
    const postingDate = normaliseDate(cellText(cellAt(row, c.postingDate)));
    const year = yearOf(cellText(cellAt(row, c.year)), periodEnded, postingDate);
    if (type === null || document === null || year === null) continue;
    rows.push({
      symbol: rowSymbol ?? wanted,
      year,
      type,
      periodEnded: periodEnded ?? '',
      postingDate: postingDate ?? '',
      document,
    });
  }
  return rows;
}
