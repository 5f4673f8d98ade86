// Every index as one compact table row: level, change, change % and the day's range.
import type { IndexLevel } from 'psx-market-data-client';
import { h } from '../dom.ts';
import { arrow, direction, fmtPct, fmtPrice, fmtSigned, SPOKEN_DIRECTION } from '../format.ts';

export function indexTable(levels: IndexLevel[]): HTMLElement {
  if (levels.length === 0) return h('p', {}, 'No index levels are available.');
  return h(
    'div',
    { class: 'table-scroll compact-scroll', tabindex: '0', role: 'region', 'aria-label': 'Index levels' },
    h(
      'table',
      { class: 'data compact indices' },
      h('caption', { class: 'sr-only' }, 'Index levels today'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Index'),
          h('th', { scope: 'col', class: 'num' }, 'Level'),
          h('th', { scope: 'col', class: 'num' }, 'Change'),
          h('th', { scope: 'col', class: 'num' }, '%'),
        ),
      ),
      h('tbody', {}, levels.map(row)),
    ),
  );
}

function row(level: IndexLevel): HTMLElement {
  const dir = direction(level.change);
  return h(
    'tr',
    { 'data-index': level.index },
    h('th', { scope: 'row' }, level.index),
    h('td', { class: 'num level' }, fmtPrice(level.current)),
    h(
      'td',
      { class: `num ${dir}` },
      h('span', { 'aria-hidden': 'true' }, `${arrow(level.change)} `),
      h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
      fmtSigned(level.change),
    ),
    h('td', { class: `num ${dir}` }, fmtPct(level.change_pct)),
  );
}
