// Which constituents moved the index today: the largest index-point contributions up and down.
import type { IndexConstituent } from 'psx-market-data-client';
import { h } from '../dom.ts';
import { fmtSigned } from '../format.ts';

const SHOWN = 5;

export function contributors(index: string, rows: IndexConstituent[]): HTMLElement {
  const moved = rows.filter((r) => r.idx_point !== null && r.idx_point !== 0);
  if (moved.length === 0) return h('p', { class: 'empty' }, `No point contributions for ${index} today.`);
  const byPoints = [...moved].sort((a, b) => (b.idx_point ?? 0) - (a.idx_point ?? 0));
  const up = byPoints.filter((r) => (r.idx_point ?? 0) > 0).slice(0, SHOWN);
  const down = byPoints
    .filter((r) => (r.idx_point ?? 0) < 0)
    .reverse()
    .slice(0, SHOWN);
  const largest = Math.max(...[...up, ...down].map((r) => Math.abs(r.idx_point ?? 0)), 1e-9);
  const list = (title: string, items: IndexConstituent[], cls: 'up' | 'down'): HTMLElement =>
    h(
      'div',
      { class: 'contrib-col' },
      h('h3', {}, title),
      items.length === 0
        ? h('p', { class: 'empty' }, 'None today.')
        : h(
            'ol',
            { class: 'contrib-list' },
            items.map((r) =>
              h(
                'li',
                {},
                h('a', { href: `#/symbol/${encodeURIComponent(r.symbol)}` }, r.symbol),
                h(
                  'span',
                  { class: 'contrib-bar', 'aria-hidden': 'true' },
                  h('span', {
                    class: `bar ${cls}`,
                    style: `width:${((Math.abs(r.idx_point ?? 0) / largest) * 100).toFixed(1)}%`,
                  }),
                ),
                h('span', { class: `num ${cls}` }, `${fmtSigned(r.idx_point)} pts`),
              ),
            ),
          ),
    );
  return h(
    'div',
    { class: 'contrib' },
    list(`Lifting ${index}`, up, 'up'),
    list(`Dragging ${index}`, down, 'down'),
  );
}
