// Market breadth: how many symbols rose, fell or stood still today, as a bar and as numbers.
import { h } from '../dom.ts';
import type { Breadth } from '../data.ts';
import { fmtCompact, fmtWhole } from '../format.ts';

export function breadthPanel(b: Breadth): HTMLElement {
  // Unknown unchanged (the screener missing) leaves the bar to the advances and declines.
  const total = b.advances + b.declines + (b.unchanged ?? 0);
  const pct = (n: number): string => (total === 0 ? '0' : ((n / total) * 100).toFixed(1));
  const label = `${b.advances} advancing, ${fmtWhole(b.unchanged)} unchanged, ${b.declines} declining`;
  return h(
    'div',
    { class: 'market-breadth' },
    h(
      'div',
      { class: 'breadth-bar wide', role: 'img', 'aria-label': label },
      h('span', { class: 'adv', style: `width:${pct(b.advances)}%` }),
      h('span', { class: 'unch', style: `width:${pct(b.unchanged ?? 0)}%` }),
      h('span', { class: 'dec', style: `width:${pct(b.declines)}%` }),
    ),
    h(
      'dl',
      { class: 'breadth-numbers' },
      h(
        'div',
        {},
        h('dt', {}, 'Advancing'),
        h('dd', { class: 'up', 'data-breadth': 'advances' }, `▲ ${fmtWhole(b.advances)}`),
      ),
      h(
        'div',
        {},
        h('dt', {}, 'Declining'),
        h('dd', { class: 'down', 'data-breadth': 'declines' }, `▼ ${fmtWhole(b.declines)}`),
      ),
      h('div', {}, h('dt', {}, 'Unchanged'), h('dd', { 'data-breadth': 'unchanged' }, fmtWhole(b.unchanged))),
      h('div', {}, h('dt', {}, 'Volume (shares)'), h('dd', {}, fmtCompact(b.total_volume))),
      b.total_value === null
        ? null
        : h('div', {}, h('dt', {}, 'Value (PKR)'), h('dd', {}, fmtCompact(b.total_value))),
    ),
  );
}
