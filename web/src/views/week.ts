// "This week": entitlements whose last day to buy or ex-date falls in the current Karachi week,
// and the company meetings of the week. Two calls (payouts announced over the last 45 days, and
// the week's calendar) plus the service's OpenAPI document, read once per page load.
import type { components } from 'psx-market-data-client';
import { getJson } from '../api.ts';
import { noteAsOf } from '../asof.ts';
import { askMarketState } from '../status.ts';
import { h } from '../dom.ts';
import { fmtPrice } from '../format.ts';
import { load } from '../load.ts';

type Payout = components['schemas']['MarketPayout'];
type Meeting = components['schemas']['Meeting'];

const DAY_MS = 86_400_000;
const KARACHI_MS = 5 * 3_600_000;
/** Announcements come one to three weeks before the book closure: this reaches far enough back. */
const LOOKBACK_DAYS = 45;

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Monday and Sunday of the current week in Karachi, and today, as YYYY-MM-DD. */
export function karachiWeek(now = Date.now()): { monday: string; sunday: string; today: string } {
  const local = now + KARACHI_MS;
  const day = new Date(local).getUTCDay();
  const monday = local - ((day + 6) % 7) * DAY_MS;
  return { monday: iso(monday), sunday: iso(monday + 6 * DAY_MS), today: iso(local) };
}

const KIND_LABEL: Record<string, string> = { cash_dividend: 'Cash dividend', bonus: 'Bonus', right: 'Right' };

function entitlement(p: Payout): string {
  if (p.kind === null) return p.raw ?? p.details;
  const pct = p.percent === null ? '' : ` ${p.percent}%`;
  const amount = p.amount_per_share === null ? '' : ` (Rs ${fmtPrice(p.amount_per_share)} a share)`;
  return `${KIND_LABEL[p.kind] ?? p.kind}${pct}${p.label ? ` (${p.label})` : ''}${amount}`;
}

function payoutTable(rows: Payout[], week: { monday: string; sunday: string }): Node {
  const inWeek = (d: string | null) => d !== null && d >= week.monday && d <= week.sunday;
  const due = rows
    .filter((p) => inWeek(p.last_day_to_buy) || inWeek(p.ex_date))
    .sort((a, b) => ((a.last_day_to_buy ?? '') < (b.last_day_to_buy ?? '') ? -1 : 1));
  if (due.length === 0) return h('p', { class: 'empty' }, 'No ex-dates this week.');
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'data compact' },
      h('caption', { class: 'sr-only' }, 'Entitlements going ex this week'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Symbol'),
          h('th', { scope: 'col' }, 'Entitlement'),
          h('th', { scope: 'col' }, 'Last day to buy'),
          h('th', { scope: 'col' }, 'Ex-date'),
          h('th', { scope: 'col' }, 'Book closure'),
        ),
      ),
      h(
        'tbody',
        {},
        due.map((p) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('a', { href: `#/symbol/${encodeURIComponent(p.symbol)}` }, p.symbol)),
            h('td', {}, entitlement(p)),
            h('td', {}, p.last_day_to_buy ?? '—'),
            h('td', {}, p.ex_date ?? '—'),
            h('td', {}, p.book_closure_from ? `${p.book_closure_from} – ${p.book_closure_to ?? ''}` : '—'),
          ),
        ),
      ),
    ),
  );
}

function meetingTable(rows: Meeting[]): Node {
  if (rows.length === 0) return h('p', { class: 'empty' }, 'No meetings this week.');
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'data compact' },
      h('caption', { class: 'sr-only' }, 'Company meetings this week'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Day'),
          h('th', { scope: 'col' }, 'Symbol'),
          h('th', { scope: 'col' }, 'Meeting'),
          h('th', { scope: 'col' }, 'City'),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((m) =>
          h(
            'tr',
            {},
            h('td', {}, `${m.date ?? '—'} ${m.time ?? ''}`),
            h('th', { scope: 'row' }, h('a', { href: `#/symbol/${encodeURIComponent(m.symbol)}` }, m.symbol)),
            h('td', {}, m.type),
            h('td', {}, m.city ?? '—'),
          ),
        ),
      ),
    ),
  );
}

export function weekView(main: HTMLElement): void {
  askMarketState();
  const week = karachiWeek();
  const payouts = h('div', { class: 'panel', id: 'week-payouts' });
  const meetings = h('div', { class: 'panel', id: 'week-meetings' });
  main.append(
    h('h1', { tabindex: '-1' }, `This week (${week.monday} – ${week.sunday})`),
    h(
      'p',
      { class: 'quiet' },
      'Last day to buy under T+1 settlement, counted over the trading days the archive has seen (holidays included), weekdays beyond them.',
    ),
    h(
      'section',
      { 'aria-labelledby': 'week-payouts-h' },
      h('h2', { id: 'week-payouts-h' }, 'Ex-dates'),
      payouts,
    ),
    h(
      'section',
      { 'aria-labelledby': 'week-meetings-h' },
      h('h2', { id: 'week-meetings-h' }, 'Meetings'),
      meetings,
    ),
  );
  const from = iso(Date.parse(`${week.today}T00:00:00Z`) - LOOKBACK_DAYS * DAY_MS);
  void load(
    payouts,
    'this week’s ex-dates',
    async () => {
      const r = await getJson<Payout[]>('/market/payouts', `/market/payouts?from=${from}&to=${week.today}`);
      noteAsOf(r.asOf, r.stale);
      return r;
    },
    (r) => payoutTable(r.data, week),
  );
  void load(
    meetings,
    'this week’s meetings',
    () => getJson<Meeting[]>('/market/calendar', `/market/calendar?from=${week.monday}&to=${week.sunday}`),
    (r) => meetingTable(r.data),
  );
}
