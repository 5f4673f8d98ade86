// GET /market/payouts: every entitlement announced across the market in a date range, from the
// portal's paged `POST /payouts`, with the ex-date and the last day to buy under the settlement
// cycle (src/time/settlement.ts). The portal's date fields filter on the announcement day.
import { ServiceError } from '../errors.ts';
import type { MarketPayoutRow } from '../exchange/feed-types.ts';
import { denoise } from '../exchange/parsers/cells.ts';
import { entitlementDates } from '../time/settlement.ts';
import { combine, freshNoLaterThan, type Cached } from '../cache/types.ts';
import type { MarketPayoutsPage } from '../exchange/feed-types.ts';
import { answerKey, karachiTime, type Answer } from './answer.ts';
import type { RequestContext } from './context.ts';
import { FACE_VALUE } from './corporate-actions.ts';
import type { DateRange } from './date-range.ts';
import { PORTAL_PAGE_ROWS, type FeedDatasets } from './feed-datasets.ts';
import type { MarketPayoutT, PayoutKind } from './models-feeds.ts';

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

function rowsOf(row: MarketPayoutRow): MarketPayoutT[] {
  const dates = row.bookClosureFrom === null ? null : entitlementDates(row.bookClosureFrom);
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

export async function marketPayouts(
  feeds: FeedDatasets,
  filter: PayoutsFilter,
  ctx: RequestContext,
): Promise<Answer<MarketPayoutT[]>> {
  const symbol = filter.symbol?.toUpperCase();
  const query = { from: filter.from, to: filter.to, symbol: symbol ?? '' };
  // The first page decides: its failure is the answer's (stale copy, 502 or 503 as everywhere).
  const pages: Cached<MarketPayoutsPage>[] = [await feeds.payouts({ ...query, offset: 0 }, ctx)];
  const first = pages[0]!.value;
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
  const data: MarketPayoutT[] = [];
  for (const page of pages) {
    for (const row of page.value.rows) {
      // The portal prefix-matches the symbol field: `HBL` also brings `HBLTFC3`.
      if (symbol !== undefined && row.symbol !== symbol) continue;
      for (const item of rowsOf(row)) {
        // A row whose kind could not be read is kept whatever the filter: it may be of that kind.
        if (filter.kind !== undefined && item.kind !== null && item.kind !== filter.kind) continue;
        data.push(item);
      }
    }
  }
  let provenance = combine(pages);
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
    },
  };
}
