// One sector: its breadth today and the screener narrowed to its members.
import type { SectorSummary } from 'psx-market-data-client';
import { sectorMembers, sectorNames, sectors } from '../data.ts';
import { h } from '../dom.ts';
import { fmtCompact, fmtWhole } from '../format.ts';
import { load } from '../load.ts';
import { screenRows } from './market-data.ts';
import { openSymbol } from './market.ts';
import { screener } from './screener.ts';
import { breadthBar } from './sectors.ts';

export function sectorView(main: HTMLElement, code: string): void {
  const heading = h('h1', { tabindex: '-1' }, `Sector ${code}`);
  const crumb = h('span', {}, `Sector ${code}`);
  const summary = h('div', { class: 'panel sector-summary' });
  const members = h('div', { class: 'panel sector-members' });
  main.append(
    h('nav', { 'aria-label': 'Breadcrumb', class: 'crumbs' }, h('a', { href: '#/' }, 'Market'), ' › ', crumb),
    heading,
    summary,
    h(
      'section',
      { 'aria-labelledby': 'members-heading' },
      h('h2', { id: 'members-heading' }, 'Symbols'),
      members,
    ),
  );
  void load(
    summary,
    'the sector',
    async () => (await sectors()).data.find((s) => s.sector_code === code || s.sector_name === code),
    (s) => {
      if (!s) return h('p', {}, 'This sector is not in the sector summary.');
      heading.textContent = s.sector_name;
      crumb.textContent = s.sector_name;
      document.title = `${s.sector_name} · PSX market`;
      return sectorCard(s);
    },
  );
  void load(
    members,
    'the sector’s symbols',
    async () => {
      const [members, rows, names] = await Promise.all([sectorMembers(code), screenRows(), sectorNames()]);
      const inSector = new Set(members.data);
      return { rows: rows.filter((r) => inSector.has(r.symbol)), names, count: members.data.length };
    },
    ({ rows, names, count }) =>
      count === 0
        ? h('p', {}, 'No symbols are listed in this sector.')
        : screener(rows, { sectorNames: names, caption: `Symbols in sector ${code}`, open: openSymbol }),
  );
}

function sectorCard(s: SectorSummary): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    h('div', {}, h('dt', {}, 'Advancing / declining'), h('dd', {}, breadthBar(s))),
    h('div', {}, h('dt', {}, 'Unchanged'), h('dd', {}, fmtWhole(s.unchanged))),
    h('div', {}, h('dt', {}, 'Turnover (shares)'), h('dd', {}, fmtCompact(s.turnover))),
    h('div', {}, h('dt', {}, 'Market cap (PKR bn)'), h('dd', {}, fmtWhole(s.market_cap_b))),
  );
}
