// Index tiles: level, change and change % of every index, coloured (and arrowed) by direction.
import type { IndexLevel } from 'psx-market-data-client';
import { h } from '../dom.ts';
import { arrow, direction, fmtPct, fmtPrice, fmtSigned } from '../format.ts';

const SPOKEN: Record<string, string> = { up: 'up', down: 'down', flat: 'unchanged' };

export function indexTiles(levels: IndexLevel[]): HTMLElement {
  if (levels.length === 0) return h('p', {}, 'No index levels are available.');
  return h('ul', { class: 'tiles' }, levels.map(tile));
}

function tile(level: IndexLevel): HTMLElement {
  const dir = direction(level.change);
  return h(
    'li',
    { class: `tile ${dir}`, 'data-index': level.index },
    h('span', { class: 'tile-name' }, level.index),
    h('span', { class: 'tile-level' }, fmtPrice(level.current)),
    h(
      'span',
      { class: 'tile-change' },
      h('span', { 'aria-hidden': 'true' }, `${arrow(level.change)} `),
      h('span', { class: 'sr-only' }, `${SPOKEN[dir]} `),
      `${fmtSigned(level.change)} (${fmtPct(level.change_pct)})`,
    ),
  );
}
