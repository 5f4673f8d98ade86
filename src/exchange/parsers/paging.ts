// The pager line of the portal's searchable lists (`POST /payouts`, `POST /announcements`):
// `Showing  1 to 25 of 559 entries` (two spaces), printed before and sometimes after the table.
import type { Paging } from '../feed-types.ts';

const SHOWING = /Showing\s+([\d,]+)\s+to\s+([\d,]+)\s+of\s+([\d,]+)\s+entries/i;
const TAG = /<[^>]*>/g;

const count = (text: string): number => Number(text.replace(/,/g, ''));

/** The first pager line of the page, or null when it prints none. */
export function parsePaging(html: string): Paging | null {
  const at = html.search(/Showing/i);
  if (at < 0) return null;
  // The numbers may sit in their own elements: read the line's text, not its markup.
  const text = html.slice(at, at + 400).replace(TAG, ' ');
  const m = SHOWING.exec(text);
  if (m === null) return null;
  return { first: count(m[1] as string), last: count(m[2] as string), total: count(m[3] as string) };
}
