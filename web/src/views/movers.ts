// Gainers, losers and most active: short tables whose prices follow the live stream.
import { h } from '../dom.ts';
import type { Mover, MoverKind } from '../data.ts';
import { direction, fmtCompact, fmtPct, fmtPrice } from '../format.ts';

export interface MoverKindInfo {
  by: MoverKind;
  title: string;
  what: string;
}

export const MOVER_KINDS: MoverKindInfo[] = [
  { by: 'gainers', title: 'Top gainers', what: 'top gainers' },
  { by: 'losers', title: 'Top losers', what: 'top losers' },
  { by: 'active', title: 'Most active', what: 'most active symbols' },
];

export function moverList(rows: Mover[], kind: MoverKindInfo): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, `No ${kind.what} today.`);
  return h(
    'table',
    { class: 'data compact mover-table' },
    h('caption', { class: 'sr-only' }, `${kind.title} today`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Symbol'),
        h('th', { scope: 'col', class: 'num' }, 'Price (PKR)'),
        h('th', { scope: 'col', class: 'num' }, kind.by === 'active' ? 'Volume' : 'Change'),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          { 'data-symbol': r.symbol },
          h(
            'th',
            { scope: 'row' },
            h('a', { href: `#/symbol/${encodeURIComponent(r.symbol)}` }, r.symbol),
            r.name ? h('span', { class: 'quiet name' }, r.name) : null,
          ),
          h('td', { class: 'num', 'data-live': r.symbol, 'data-field': 'price' }, fmtPrice(r.price)),
          kind.by === 'active'
            ? h(
                'td',
                { class: 'num', 'data-live': r.symbol, 'data-field': 'volume', 'data-format': 'compact' },
                fmtCompact(r.volume),
              )
            : h(
                'td',
                {
                  class: `num ${direction(r.change_pct)}`,
                  'data-live': r.symbol,
                  'data-field': 'change_pct',
                },
                fmtPct(r.change_pct),
              ),
        ),
      ),
    ),
  );
}
