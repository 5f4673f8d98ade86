// Every index as one compact table row: level, change, change % and the day's range.
import type { IndexLevel } from 'psx-market-data-client';
import { h } from '../dom.ts';
import { arrow, direction, fmtPct, fmtPrice, fmtSigned, fmtWhen, SPOKEN_DIRECTION } from '../format.ts';

/** Rows shown before the reader asks for the rest (the button says how many more there are). */
const SHOWN_FIRST = 8;

export function indexTable(levels: IndexLevel[], asOf: string | null = null): HTMLElement {
  if (levels.length === 0) return h('p', {}, 'No index levels are available.');
  const table = h(
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
  );
  const rest = levels.length - SHOWN_FIRST;
  const more =
    rest > 0
      ? h(
          'button',
          {
            type: 'button',
            class: 'more-rows',
            'aria-expanded': 'false',
            onclick: (e: Event) => {
              const open = table.classList.toggle('all-rows');
              const b = e.currentTarget as HTMLButtonElement;
              b.setAttribute('aria-expanded', String(open));
              b.textContent = open ? 'Show fewer' : `Show ${rest} more ${rest === 1 ? 'index' : 'indices'}`;
            },
          },
          `Show ${rest} more ${rest === 1 ? 'index' : 'indices'}`,
        )
      : null;
  return h(
    'div',
    { class: 'index-levels' },
    h('div', { class: 'table-scroll' }, table),
    more,
    asOf ? h('p', { class: 'quiet as-of-note' }, `Levels as of ${fmtWhen(asOf)}`) : null,
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
