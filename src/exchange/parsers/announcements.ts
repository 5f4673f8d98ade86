// `POST /announcements` (form type, symbol, query, count, offset, date_from, date_to, page=annc):
// the market-wide announcements. A pager line (before and after the table),
// then `#announcementsTable`: companies DATE, TIME, SYMBOL, NAME, TITLE and a blank-headed
// document column; the other types without SYMBOL and NAME. Titles may carry a `REVOKED` tag; the
// document cell holds a `View` link (images) and/or a `PDF` link (see documentOf).
import { UpstreamDataError } from '../../errors.ts';
import type { AnnouncementRow, AnnouncementsPage } from '../feed-types.ts';
import { extractTables, type Cell, type Row } from '../html/table.ts';
import { cellSymbol, cellText, imageNames, isSymbol } from './cells.ts';
import { cellAt, preferTableId, requirePageText, selectTable } from './columns.ts';
import { parseDisplayDate } from './dates.ts';
import { parsePaging } from './paging.ts';

const COLUMNS = {
  date: { labels: ['date'], required: true },
  time: { labels: ['time'] },
  // The SECP's announcements (type B) have no symbol and no name.
  symbol: { labels: ['symbol'], sometimes: true },
  name: { labels: ['name', 'company'], sometimes: true },
  title: { labels: ['title', 'subject', 'announcement'], required: true },
  document: { labels: ['', 'document', 'attachment', 'view'] },
} as const;

const PORTAL = 'https://dps.psx.com.pk/';
const REVOKED = /\s*\bREVOKED\b\s*$/;
const TIME = /^(\d{1,2}):(\d{2})\s*([AaPp][Mm])?$/;

function clock(text: string | null): string | null {
  const m = text === null ? null : TIME.exec(text);
  if (m === null) return null;
  let hour = Number(m[1]);
  const meridiem = m[3]?.toLowerCase();
  if (meridiem !== undefined) hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  return hour > 23 ? null : `${String(hour).padStart(2, '0')}:${m[2]}`;
}

/** An absolute http(s) URL for a link the portal writes relative; null for `javascript:`, `#`. */
export function absoluteUrl(href: string | null): string | null {
  const trimmed = href?.trim();
  if (trimmed === undefined || trimmed === '' || trimmed.startsWith('#')) return null;
  try {
    const url = new URL(trimmed, PORTAL);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const DOCUMENT_PATH = /\/download\/|\.pdf(?:$|[?#])/i;

/**
 * The row's document and images. The cell reads `View` (a `javascript:` link whose `data-images`
 * names the page images) and/or `PDF` (a `/download/document/…pdf` or `/download/attachment/…`
 * link), in either order: the document is the PDF or attachment whichever link carries it, and
 * the row is image-only when it has images or a `View` link and no document.
 */
function documentOf(
  cell: Cell | undefined,
  row: Row,
): Pick<AnnouncementRow, 'document' | 'documentKind' | 'images'> {
  const cells = cell === undefined ? row : [cell];
  let document: string | null = null;
  let viewer = false;
  const images: string[] = [];
  for (const c of cells) {
    for (const link of c.links) {
      images.push(...imageNames(link.images));
      if (link.images !== null || link.text.toLowerCase() === 'view') viewer = true;
      const url = absoluteUrl(link.href);
      if (url !== null && document === null && (DOCUMENT_PATH.test(url) || /pdf/i.test(link.text))) {
        document = url;
      }
    }
  }
  const documentKind = document !== null ? 'pdf' : viewer || images.length > 0 ? 'image' : null;
  return { document, documentKind, images };
}

function symbolOf(cell: Cell | undefined): string | null {
  const text = cellText(cell);
  return cellSymbol(cell) ?? (text !== null && isSymbol(text) ? text.toUpperCase() : null);
}

export function parseAnnouncements(html: string): AnnouncementsPage {
  const page = requirePageText('announcements', html);
  const tables = preferTableId(extractTables(page), 'announcementsTable');
  const { table, columns: c } = selectTable('announcements', tables, COLUMNS);
  const rows: AnnouncementRow[] = [];
  for (const row of table.rows) {
    if (row.length < 2) continue;
    const rawTitle = cellText(cellAt(row, c.title));
    const dateText = cellText(cellAt(row, c.date));
    if (rawTitle === null && dateText === null) continue;
    if (rawTitle === null) throw new UpstreamDataError('announcements', 'a row without a title');
    const revoked = REVOKED.test(rawTitle);
    rows.push({
      date: dateText === null ? null : parseDisplayDate(dateText),
      time: clock(cellText(cellAt(row, c.time))),
      symbol: symbolOf(cellAt(row, c.symbol)),
      name: cellText(cellAt(row, c.name)),
      title: revoked ? rawTitle.replace(REVOKED, '') : rawTitle,
      revoked,
      ...documentOf(cellAt(row, c.document), row),
    });
  }
  return { paging: parsePaging(page), rows };
}
