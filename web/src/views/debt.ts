// The debt market: every instrument of the portal's debt-market page with its quote on the bills
// and bonds board where it has one today. Two calls plus the service's OpenAPI document.
import type { components } from 'psx-market-data-client';
import { getJson } from '../api.ts';
import { noteAsOf } from '../asof.ts';
import { askMarketState } from '../status.ts';
import { h } from '../dom.ts';
import { fmtCompact, fmtPrice } from '../format.ts';
import { load } from '../load.ts';

type Instrument = components['schemas']['DebtInstrument'];
type BoardQuote = components['schemas']['BoardQuote'];

const pct = (v: number | null): string => (v === null ? '—' : `${v.toFixed(2)}%`);

function debtTable(instruments: Instrument[], quotes: Map<string, BoardQuote>): Node {
  if (instruments.length === 0) return h('p', { class: 'empty' }, 'The debt market lists no instruments.');
  // Nine columns do not fit a phone: the table scrolls sideways under a hint, the symbol kept in view.
  return h(
    'div',
    {},
    h('p', { class: 'scroll-hint' }, 'Swipe the table sideways for more columns →'),
    debtRows(instruments, quotes),
  );
}

function debtRows(instruments: Instrument[], quotes: Map<string, BoardQuote>): Node {
  return h(
    'div',
    { class: 'table-scroll debt-scroll', tabindex: '0', 'aria-label': 'Debt instruments, scrolls sideways' },
    h(
      'table',
      { class: 'data compact' },
      h('caption', { class: 'sr-only' }, 'Debt instruments and their quotes'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Code'),
          h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col', class: 'num' }, 'Coupon'),
          h('th', { scope: 'col' }, 'Maturity'),
          h('th', { scope: 'col', class: 'num' }, 'Issue size (PKR)'),
          h('th', { scope: 'col', class: 'num' }, 'Bid'),
          h('th', { scope: 'col', class: 'num' }, 'Offer'),
          h('th', { scope: 'col', class: 'num' }, 'LDCP'),
          h('th', { scope: 'col', class: 'num' }, 'Volume'),
        ),
      ),
      h(
        'tbody',
        {},
        instruments.map((d) => {
          const q = quotes.get(d.code);
          const price = (v: number | null | undefined) => (v ? fmtPrice(v) : '—');
          return h(
            'tr',
            {},
            h('th', { scope: 'row' }, d.code),
            h('td', {}, d.name ?? '—'),
            h('td', { class: 'num' }, pct(d.coupon_rate)),
            h('td', {}, d.maturity_date ?? '—'),
            h('td', { class: 'num' }, fmtCompact(d.issue_size)),
            h('td', { class: 'num' }, price(q?.bid_price)),
            h('td', { class: 'num' }, price(q?.offer_price)),
            h('td', { class: 'num' }, price(q?.ldcp)),
            h('td', { class: 'num' }, q?.on_board ? fmtCompact(q.volume) : '—'),
          );
        }),
      ),
    ),
  );
}

export function debtView(main: HTMLElement): void {
  askMarketState();
  const panel = h('div', { class: 'panel', id: 'debt-panel' });
  main.append(
    h('h1', { tabindex: '-1' }, 'Debt market'),
    h(
      'p',
      { class: 'quiet' },
      'Government securities, then corporate TFCs and sukuks; quotes from the bills and bonds board.',
    ),
    panel,
  );
  void load(
    panel,
    'the debt market',
    async () => {
      const [list, board] = await Promise.all([
        getJson<Instrument[]>('/debt', '/debt'),
        getJson<BoardQuote[]>('/boards/{board}', '/boards/bills-and-bonds').catch(() => null),
      ]);
      noteAsOf(board?.asOf ?? list.asOf, board?.stale ?? list.stale);
      return { instruments: list.data, quotes: new Map((board?.data ?? []).map((q) => [q.symbol, q])) };
    },
    ({ instruments, quotes }) => debtTable(instruments, quotes),
  );
}
