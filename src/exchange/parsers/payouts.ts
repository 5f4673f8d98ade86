// `POST /company/payouts` (form `symbol=SYM`): a bare `<table class="tbl">` with headers exactly
// `Date`, `Financial Results`, `Details`, `Book Closure`, no data-order, no pager, newest first.
// The structure is known from other projects' fixtures, not from a recording
// here, so the parser reads columns by header text and refuses a table whose headers differ in
// any way: a changed page must fail loudly (and leave any good copy in place), not be misread.
// Depth: a rolling window of about 17–18 months; some symbols have no rows at all.
import { UpstreamDataError } from '../../errors.ts';
import type { PayoutEntry, PayoutRow } from '../types.ts';
import { cellText } from './cells.ts';
import { cellAt, headerIndex, headerKey, requirePageText } from './columns.ts';
import { isoDate, karachiDateTime, parseDisplayDate } from './dates.ts';
import { extractTables } from '../html/table.ts';

const HEADERS = ['date', 'financial results', 'details', 'book closure'] as const;

function fail(reason: string): never {
  throw new UpstreamDataError('payouts', reason);
}

// `April 17, 2026 5:10 PM`
const ANNOUNCED = /^([A-Za-z]{3,9}\.? \d{1,2}, \d{4})\s+(\d{1,2}):(\d{2})\s*([AP]M)$/i;
// `31/03/2026(IQ)`
const PERIOD = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\s*(?:\(\s*([A-Za-z]+)\s*\))?$/;
// `29/04/2026  - 30/04/2026`
const BOOK_CLOSURE = /^(\d{1,2}\/\d{1,2}\/\d{4})\s*-\s*(\d{1,2}\/\d{1,2}\/\d{4})$/;
// One entry: an optional `DIVIDEND =`, the percentage (the `%` is sometimes missing: `80(ii) (D)`),
// an optional interim/final label in damaged brackets (`(i)`, `F)`, `(ii`), then `(D)`, `(B)` or
// `(R)` — or nothing when the `DIVIDEND =` prefix already says what it is (`DIVIDEND =350% (F)`).
const ENTRY =
  /^(DIVIDEND\s*=\s*)?(\d+(?:\.\d+)?)\s*%?\s*(?:\(?\s*(i{1,3}|iv|v|vi{0,3}|F)\s*\)?)?\s*(?:\(\s*([DBR])\s*\))?$/i;
// A right issue with its price: `23.855376% AT A PREMIUM RS.10/= PER SHARES (R)`.
const PRICED_RIGHT = /^(\d+(?:\.\d+)?)\s*%\s+AT\s+(?:A\s+)?(?:PREMIUM|DISCOUNT|PAR)\b.*\(\s*R\s*\)$/i;
// Two entries in one cell are joined by a spaced hyphen: `10%(i) (D) - 5%(i) (D)`.
const ENTRY_SEPARATOR = /\s+-\s+/;

/** `April 17, 2026 5:10 PM` → ISO 8601 with +05:00; null when unreadable. */
export function parseAnnouncedTime(text: string | null): string | null {
  const m = text === null ? null : ANNOUNCED.exec(text);
  if (m === null) return null;
  const date = parseDisplayDate(m[1] as string);
  if (date === null) return null;
  let hour = Number(m[2]) % 12;
  if ((m[4] as string).toUpperCase() === 'PM') hour += 12;
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return karachiDateTime(y, mo, d, hour, Number(m[3]), 0);
}

/** `29/04/2026  - 30/04/2026` → both days; null when the cell is not such a range. */
export function parseBookClosure(text: string | null): { from: string | null; to: string | null } | null {
  const m = text === null ? null : BOOK_CLOSURE.exec(text.trim());
  return m === null ? null : { from: dayFirst(m[1] as string), to: dayFirst(m[2] as string) };
}

function dayFirst(text: string): string | null {
  const [d, m, y] = text.split('/').map(Number) as [number, number, number];
  return isoDate(y, m, d);
}

function entry(text: string): PayoutEntry | null {
  const priced = PRICED_RIGHT.exec(text.trim());
  if (priced !== null) return { kind: 'right', percent: Number(priced[1]), label: null };
  const m = ENTRY.exec(text.trim());
  if (m === null) return null;
  const kindLetter = m[4]?.toUpperCase();
  const kind =
    kindLetter === 'B'
      ? 'bonus'
      : kindLetter === 'R'
        ? 'right'
        : kindLetter === 'D' || m[1]
          ? 'dividend'
          : null;
  if (kind === null) return null;
  const label = m[3] === undefined ? null : m[3] === 'f' ? 'F' : m[3];
  return { kind, percent: Number(m[2]), label };
}

/** Every entry of a Details cell, or [] when any part of it is not one of the known shapes. */
export function parsePayoutDetails(text: string): PayoutEntry[] {
  const entries: PayoutEntry[] = [];
  for (const part of text.trim().split(ENTRY_SEPARATOR)) {
    const parsed = entry(part);
    if (parsed === null) return [];
    entries.push(parsed);
  }
  return entries;
}

/**
 * The payouts table, newest first. An empty answer (no bytes) is "no payouts"; a page without the
 * table, or with other headers, throws.
 */
export function parsePayouts(html: string): PayoutRow[] {
  const page = requirePageText('payouts', html);
  if (page.trim() === '') return [];
  const tables = extractTables(page);
  const table = tables.find(
    (t) => headerIndex(t.headers, 'details') >= 0 || headerIndex(t.headers, 'book closure') >= 0,
  );
  if (table === undefined) fail('no payouts table');
  const same =
    table.headers.length === HEADERS.length &&
    HEADERS.every((h, i) => headerKey(table.headers[i] ?? '') === headerKey(h));
  if (!same)
    fail(`unexpected headers ${JSON.stringify(table.headers)} (expected ${JSON.stringify(HEADERS)})`);
  const rows: PayoutRow[] = [];
  for (const row of table.rows) {
    // A "no data" row spanning the table.
    if (row.length < HEADERS.length) continue;
    const details = cellText(cellAt(row, 2)) ?? '';
    const period = PERIOD.exec(cellText(cellAt(row, 1)) ?? '');
    const closure = BOOK_CLOSURE.exec(cellText(cellAt(row, 3)) ?? '');
    rows.push({
      announced: parseAnnouncedTime(cellText(cellAt(row, 0))),
      periodEnded: period === null ? null : isoDate(Number(period[3]), Number(period[2]), Number(period[1])),
      periodCode: period?.[4]?.toUpperCase() ?? null,
      details,
      entries: parsePayoutDetails(details),
      bookClosureFrom: closure === null ? null : dayFirst(closure[1] as string),
      bookClosureTo: closure === null ? null : dayFirst(closure[2] as string),
    });
  }
  return rows;
}
