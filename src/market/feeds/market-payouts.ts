// GET /market/payouts: every entitlement announced across the market in a date range, from the
// portal's paged `POST /payouts`, with the ex-date and the last day to buy under the settlement
// cycle (src/time/settlement.ts). The portal's date fields filter on the announcement day.
import { ServiceError } from '../../errors.ts';
import type { MarketPayoutRow } from '../../exchange/feed-types.ts';
import { denoise } from '../../exchange/parsers/cells.ts';
import { entitlementDatesOn, type TradingCalendar } from '../../time/settlement.ts';
import { combine, freshNoLaterThan, type Cached } from '../../cache/types.ts';
import type { MarketPayoutsPage } from '../../exchange/feed-types.ts';
import { answerKey, type Answer } from '../answer.ts';
import { karachiTime } from '../../time/karachi.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { ArchiveCalendar } from '../archive/trading-calendar.ts';
import type { RequestContext } from '../context.ts';
import { FACE_VALUE } from '../corporate-actions/corporate-actions.ts';
import type { DateRange } from './date-range.ts';
import { PORTAL_PAGE_ROWS, type FeedDatasets } from './feed-datasets.ts';
import type { MarketPayoutT, PayoutKind } from '../models/feeds.ts';

/** Portal pages one request may fetch: 10 × 100 rows, a busy quarter's announcements. */
export const MAX_PAYOUT_PAGES = 10;

/** How long an answer missing some pages counts as fresh before the missing pages are tried again. */
const PARTIAL_RETRY_MS = 60_000;

export interface PayoutsFilter extends DateRange {
  kind?: PayoutKind;
  symbol?: string;
}

const KIND: Record<'dividend' | 'bonus' | 'right', PayoutKind> = {
  dividend: 'cash_dividend',
  bonus: 'bonus',
  right: 'right',
};

function rowsOf(row: MarketPayoutRow, calendar: TradingCalendar | undefined): MarketPayoutT[] {
  const dates = row.bookClosureFrom === null ? null : entitlementDatesOn(row.bookClosureFrom, calendar);
  const unread: string[] = [];
  if (row.entries.length === 0) unread.push(row.details);
  if (row.bookClosureText !== null) unread.push(`book closure: ${row.bookClosureText}`);
  if (row.announced === null && row.announcedText !== null) unread.push(`announced: ${row.announcedText}`);
  const item = (
    kind: PayoutKind | null,
    percent: number | null,
    label: string | null,
    amount: number | null,
  ): MarketPayoutT => ({
    symbol: row.symbol,
    company: row.company,
    sector: row.sector,
    kind,
    percent,
    label,
    amount_per_share: amount,
    announced_at: row.announced,
    book_closure_from: row.bookClosureFrom,
    book_closure_to: row.bookClosureTo,
    ex_date: dates?.exDate ?? null,
    last_day_to_buy: dates?.lastDayToBuy ?? null,
    settlement_cycle: dates?.cycle ?? null,
    details: row.details,
    raw: unread.length === 0 ? null : unread.join(' | '),
  });
  if (row.entries.length === 0) return [item(null, null, null, null)];
  return row.entries.map((entry) =>
    item(
      KIND[entry.kind],
      entry.percent,
      entry.label,
      entry.kind === 'dividend' ? denoise((entry.percent / 100) * FACE_VALUE) : null,
    ),
  );
}

/** The archive that keeps payout rows (docs/archive.md) and the time now, when the service has one. */
export interface PayoutsArchive {
  archive: MarketArchive;
  now: number;
}

export async function marketPayouts(
  feeds: FeedDatasets,
  filter: PayoutsFilter,
  ctx: RequestContext,
  kept?: PayoutsArchive,
): Promise<Answer<MarketPayoutT[]>> {
  const symbol = filter.symbol?.toUpperCase();
  const query = { from: filter.from, to: filter.to, symbol: symbol ?? '' };
  // The first page decides: its failure is the answer's (stale copy, 502 or 503 as everywhere)
  // unless the archive kept rows of the range, which are then served in its place.
  let firstPage: Cached<MarketPayoutsPage>;
  try {
    firstPage = await feeds.payouts({ ...query, offset: 0 }, ctx);
  } catch (err) {
    if (!(err instanceof ServiceError) || kept === undefined) throw err;
    const archived = await archivedOnly(kept, filter, symbol);
    if (archived.length === 0) throw err;
    return fromArchiveOnly(kept, archived, filter, symbol, kept.now, err.message);
  }
  const pages: Cached<MarketPayoutsPage>[] = [firstPage];
  const first = firstPage.value;
  const total = first.paging?.total ?? first.rows.length;
  let offset = first.paging?.last ?? first.rows.length;
  let missing: string | null = null;
  while (offset < total && pages.length < MAX_PAYOUT_PAGES) {
    let page: Cached<MarketPayoutsPage>;
    try {
      page = await feeds.payouts({ ...query, offset }, ctx);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      missing = `rows ${offset + 1}–${total} of the portal's ${total}: ${err.message}`;
      break;
    }
    pages.push(page);
    if (page.value.rows.length === 0) break;
    offset = page.value.paging?.last ?? offset + page.value.rows.length;
  }
  if (missing === null && offset < total) {
    missing = `rows ${offset + 1}–${total} of the portal's ${total}: at most ${MAX_PAYOUT_PAGES * PORTAL_PAGE_ROWS} rows a request; narrow the range`;
  }
  const portalRows = pages.flatMap((p) => p.value.rows);
  if (kept !== undefined) for (const page of pages) await kept.archive.keepMarketPayouts(page.value.rows);
  const extra =
    kept === undefined
      ? { rows: [], reason: null }
      : await archivedBeyond(kept, filter, symbol, portalRows, missing !== null);
  const rows = [...portalRows, ...extra.rows];
  const calendar = await calendarFor(kept, rows);
  const { data, archivedAt, onWeekdays } = entitlementRows(rows, extra.rows.length, filter, symbol, calendar);
  let provenance = combine(pages);
  if (extra.rows.length > 0) {
    provenance = { ...provenance, version: `${provenance.version}+archive:${extra.rows.length}` };
  }
  if (missing !== null) {
    // A partial answer must not be replayed for the filings' hours: the next request tries again.
    const newest = Math.max(...pages.map((p) => p.fetchedAt));
    provenance = freshNoLaterThan(provenance, newest + PARTIAL_RETRY_MS, '+partial');
  }
  return {
    key: answerKey('market-payouts', { from: filter.from, to: filter.to, kind: filter.kind, symbol }),
    data,
    provenance,
    asOf: karachiTime(provenance.fetchedAt),
    meta: {
      coverage: {
        from: filter.from,
        to: filter.to,
        face_value: FACE_VALUE,
        portal_rows: total,
        complete: missing === null,
        missing,
      },
      ...(kept === undefined
        ? {}
        : {
            archive: { rows: archivedAt.length, positions: archivedAt, reason: extra.reason },
            trading_days: tradingDaysMeta(calendar, onWeekdays),
          }),
    },
  };
}

/** The archive's trading days around the rows' book closures; undefined without an archive. */
async function calendarFor(
  kept: PayoutsArchive | undefined,
  rows: readonly MarketPayoutRow[],
): Promise<ArchiveCalendar | undefined> {
  if (kept === undefined) return undefined;
  const closures = rows.map((r) => r.bookClosureFrom).filter((d): d is string => d !== null);
  if (closures.length === 0) return undefined;
  const from = closures.reduce((a, b) => (a < b ? a : b));
  const to = closures.reduce((a, b) => (a > b ? a : b));
  return (await ArchiveCalendar.around(kept.archive, from, to)) ?? undefined;
}

function tradingDaysMeta(calendar: ArchiveCalendar | undefined, onWeekdays: number) {
  const span = calendar?.span ?? null;
  return { archive_from: span?.from ?? null, archive_to: span?.to ?? null, rows_on_weekdays: onWeekdays };
}

/** Portal rows then `archivedCount` archived ones → entitlement rows, newest announcement first. */
function entitlementRows(
  rows: readonly MarketPayoutRow[],
  archivedCount: number,
  filter: PayoutsFilter,
  symbol: string | undefined,
  calendar: TradingCalendar | undefined,
): { data: MarketPayoutT[]; archivedAt: number[]; onWeekdays: number } {
  const firstArchived = rows.length - archivedCount;
  const order = rows.map((row, i) => ({ row, archived: i >= firstArchived }));
  // Archived rows join the portal's in the portal's order (newest first, an unreadable time last).
  if (archivedCount > 0 && firstArchived > 0)
    order.sort((a, b) => (b.row.announced ?? '').localeCompare(a.row.announced ?? ''));
  const data: MarketPayoutT[] = [];
  const archivedAt: number[] = [];
  let onWeekdays = 0;
  for (const { row, archived } of order) {
    // The portal prefix-matches the symbol field: `HBL` also brings `HBLTFC3`.
    if (symbol !== undefined && row.symbol !== symbol) continue;
    for (const item of rowsOf(row, calendar)) {
      // A row whose kind could not be read is kept whatever the filter: it may be of that kind.
      if (filter.kind !== undefined && item.kind !== null && item.kind !== filter.kind) continue;
      if (archived) archivedAt.push(data.length);
      if (item.last_day_to_buy !== null && calendar !== undefined && onWeekdaysOnly(row, calendar))
        onWeekdays++;
      data.push(item);
    }
  }
  return { data, archivedAt, onWeekdays };
}

const onWeekdaysOnly = (row: MarketPayoutRow, calendar: TradingCalendar): boolean =>
  row.bookClosureFrom !== null &&
  entitlementDatesOn(row.bookClosureFrom, calendar)?.tradingDays === 'weekdays';

const payoutKey = (r: MarketPayoutRow): string => `${r.symbol}|${r.announced ?? ''}|${r.details}`;

/** The archive's rows of the range, or none when the archive cannot be read now. */
async function archivedOnly(
  kept: PayoutsArchive,
  filter: PayoutsFilter,
  symbol: string | undefined,
): Promise<MarketPayoutRow[]> {
  // While the store is away (readiness pings it back) a request does not wait on it.
  if (!kept.archive.available) return [];
  try {
    return await kept.archive.marketPayouts(filter.from, filter.to, symbol);
  } catch {
    return [];
  }
}

/**
 * Archived rows the portal's answer lacks and the portal no longer has: announced before the
 * oldest row it printed for the range (its window is rolling; an empty answer means the whole
 * range is behind it), or any it lacks when some of its pages could not be read.
 */
async function archivedBeyond(
  kept: PayoutsArchive,
  filter: PayoutsFilter,
  symbol: string | undefined,
  portalRows: readonly MarketPayoutRow[],
  portalIncomplete: boolean,
): Promise<{ rows: MarketPayoutRow[]; reason: string | null }> {
  const archived = await archivedOnly(kept, filter, symbol);
  if (archived.length === 0) return { rows: [], reason: null };
  const seen = new Set(portalRows.map(payoutKey));
  let oldest: string | null = null;
  for (const r of portalRows)
    if (r.announced !== null && (oldest === null || r.announced < oldest)) oldest = r.announced;
  const rows = archived.filter(
    (r) =>
      !seen.has(payoutKey(r)) &&
      (portalIncomplete || oldest === null || (r.announced !== null && r.announced < oldest)),
  );
  if (rows.length === 0) return { rows, reason: null };
  return {
    rows,
    reason: portalIncomplete
      ? 'rows the portal could not give now, kept by the archive when it last printed them'
      : "rows older than the portal's window, kept by the archive when it printed them",
  };
}

/** The portal failed and the archive kept rows of the range: those, said to be the archive's. */
async function fromArchiveOnly(
  kept: PayoutsArchive,
  rows: readonly MarketPayoutRow[],
  filter: PayoutsFilter,
  symbol: string | undefined,
  now: number,
  failure: string,
): Promise<Answer<MarketPayoutT[]>> {
  const calendar = await calendarFor(kept, rows);
  const { data, archivedAt, onWeekdays } = entitlementRows(rows, rows.length, filter, symbol, calendar);
  const newest = rows.map((r) => r.announced ?? '').reduce((a, b) => (a > b ? a : b), '');
  return {
    key: answerKey('market-payouts', { from: filter.from, to: filter.to, kind: filter.kind, symbol }),
    data,
    // Not replayed for the filings' hours: the next request asks the portal again.
    provenance: {
      state: 'STALE',
      fetchedAt: now,
      freshUntil: now + PARTIAL_RETRY_MS,
      version: `archive:${rows.length}:${newest}`,
    },
    asOf: karachiTime(now),
    meta: {
      coverage: {
        from: filter.from,
        to: filter.to,
        face_value: FACE_VALUE,
        portal_rows: 0,
        complete: false,
        missing: `the portal's rows of the range: ${failure}`,
      },
      archive: {
        rows: archivedAt.length,
        positions: archivedAt,
        reason: 'the portal failed; every row is from the archive, kept when the portal printed it',
      },
      trading_days: tradingDaysMeta(calendar, onWeekdays),
    },
  };
}
