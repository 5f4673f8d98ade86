// The sector table: advancing, unchanged and declining symbols as a bar, turnover and market cap.
import type { SectorSummary } from 'psx-market-data-client';
import { h } from '../dom.ts';
import { fmtCompact, fmtWhole } from '../format.ts';

export function sectorTable(sectors: SectorSummary[]): HTMLElement {
  const rows = sectors.map((s) =>
    h(
      'tr',
      {},
      h(
        'th',
        { scope: 'row' },
        h('a', { href: `#/sector/${encodeURIComponent(s.sector_code)}` }, s.sector_name),
      ),
      h('td', {}, breadthBar(s)),
      h('td', { class: 'num' }, fmtCompact(s.turnover)),
      h('td', { class: 'num' }, fmtWhole(s.market_cap_b)),
    ),
  );
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'data sectors' },
      h('caption', { class: 'sr-only' }, 'Sectors: advancing and declining symbols today'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Sector'),
          h('th', { scope: 'col' }, 'Advancing / declining'),
          h('th', { scope: 'col', class: 'num' }, 'Turnover (shares)'),
          h('th', { scope: 'col', class: 'num' }, 'Market cap (PKR bn)'),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

/** A stacked bar: green advancing, grey unchanged, red declining; the counts are written out too. */
export function breadthBar(s: SectorSummary): HTMLElement {
  const adv = s.advance ?? 0;
  const dec = s.decline ?? 0;
  const unch = s.unchanged ?? 0;
  const total = adv + dec + unch;
  const pct = (n: number): string => (total === 0 ? '0' : ((n / total) * 100).toFixed(1));
  const label = `${adv} advancing, ${unch} unchanged, ${dec} declining`;
  return h(
    'div',
    { class: 'breadth' },
    h(
      'div',
      { class: 'breadth-bar', role: 'img', 'aria-label': label, title: label },
      h('span', { class: 'adv', style: `width:${pct(adv)}%` }),
      h('span', { class: 'unch', style: `width:${pct(unch)}%` }),
      h('span', { class: 'dec', style: `width:${pct(dec)}%` }),
    ),
    h(
      'span',
      { class: 'breadth-counts', 'aria-hidden': 'true' },
      h('span', { class: 'up' }, `▲${adv}`),
      ' ',
      h('span', { class: 'down' }, `▼${dec}`),
    ),
  );
}
