// One sector: its breadth today and the screener narrowed to its members. Two requests (its
// members, then their quotes in one batch); the sector's name and summary come from the market
// overview the page already holds, or from a new one (which also brings the market's state).
import type { SectorSummary } from 'psx-market-data-client';
import { noteAsOf } from '../asof.ts';
import {
  heldMarketOverview,
  learnSectorNames,
  marketOverview,
  quotesOf,
  sectorMembers,
  sectorNames,
  sectors,
  type FullQuote,
} from '../data.ts';
import { h } from '../dom.ts';
import { fmtCompact, fmtWhole } from '../format.ts';
import { watch } from '../live.ts';
import { load } from '../load.ts';
import { noteMarketState } from '../status.ts';
import type { ScreenRow } from './market-data.ts';
import { openSymbol } from './market.ts';
import { screener } from './screener.ts';
import { breadthBar } from './sectors.ts';

/** The service's batch limit for /quotes. */
const BATCH = 100;

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
    async () => {
      // The market overview the page holds, else a new one: it also says the market's state.
      const held = await heldMarketOverview()?.catch(() => undefined);
      const overview = held ?? (await marketOverview(localStorage.getItem('psx.index') ?? 'KSE100'));
      noteMarketState(overview.data.market);
      const rows = overview.data.sectors.data ?? (await sectors()).data;
      learnSectorNames(rows);
      return rows.find((s) => s.sector_code === code || s.sector_name === code);
    },
    (s) => {
      if (!s) return h('p', {}, 'This sector is not in the sector summary.');
      heading.textContent = s.sector_name;
      crumb.textContent = s.sector_name;
      document.title = `${s.sector_name} · PSX market`;
      return sectorCard(s);
    },
  );
  // Kept once fetched: a retry after a refusal asks only for what is still missing (the quotes).
  let memberList: Awaited<ReturnType<typeof sectorMembers>>['data'] | undefined;
  void load(
    members,
    'the sector’s symbols',
    async () => {
      memberList ??= (await sectorMembers(code)).data;
      const list = memberList;
      const batches: Promise<FullQuote[]>[] = [];
      for (let i = 0; i < list.length; i += BATCH)
        batches.push(
          quotesOf(list.slice(i, i + BATCH)).then((r) => {
            // The same market-watch time every view's header shows.
            noteAsOf(r.asOf, r.stale);
            return r.data;
          }),
        );
      const [quotes, names] = await Promise.all([Promise.all(batches), sectorNames()]);
      return { rows: quotes.flat().map(screenRow), names, count: list.length };
    },
    ({ rows, names, count }) => {
      watch(rows.map((r) => r.symbol));
      return count === 0
        ? h('p', {}, 'No symbols are listed in this sector.')
        : screener(rows, { sectorNames: names, caption: `Symbols in sector ${code}`, open: openSymbol });
    },
  );
}

/** A quote as a screener row: the same fields under the screener's names. */
function screenRow(q: FullQuote): ScreenRow {
  return {
    symbol: q.symbol,
    sector: q.sector_code === null ? null : Number(q.sector_code),
    listed_in: q.listed_in,
    market_cap: q.market_cap,
    price: q.price,
    pe_ratio: q.pe_ratio,
    dividend_yield: q.dividend_yield,
    free_float: q.free_float,
    volume_avg_30d: q.volume_avg_30d,
    change_1y_pct: q.change_1y_pct,
    name: q.name,
    change: q.change,
    change_pct: q.change_pct,
    volume: q.volume,
  };
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
