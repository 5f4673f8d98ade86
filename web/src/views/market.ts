// The market at a glance: the chosen index (KSE100 unless the reader picked another) with its
// intraday chart, breadth, the day's movers, every index as a compact table, the screener and the
// sector table. One request (GET /market/overview) brings all but the screener; the screener is
// one more (its table and today's numbers). Without the stream the overview is read again each
// minute; a refused refresh keeps what is shown.
import type { IndexConstituent, IndexLevel } from 'psx-market-data-client';
import { noteAsOf } from '../asof.ts';
import {
  indexHistory,
  learnSectorNames,
  marketOverview,
  sectorNames,
  type Breadth,
  type IntradayBar,
  type MarketOverview,
  type Mover,
  type Part,
} from '../data.ts';
import { h, nextTask, replace, whenVisible } from '../dom.ts';
import { startBackfillPanel } from '../backfill-panel.ts';
import { dayPicker } from '../day-picker.ts';
import { arrow, direction, fmtPct, fmtPrice, fmtSigned, SPOKEN_DIRECTION } from '../format.ts';
import { dailyPoints, intradayPoints } from '../chart-data.ts';
import { createAreaChart, type AreaChart } from '../area-chart.ts';
import { watch } from '../live.ts';
import { failureBox, keptNote, load } from '../load.ts';
import { navigate } from '../router.ts';
import { noteMarketState } from '../status.ts';
import { breadthPanel } from './breadth.ts';
import { contributors } from './contributors.ts';
import { screenRows } from './market-data.ts';
import { moverList, MOVER_KINDS } from './movers.ts';
import { partNote, retryDelayMs } from './parts.ts';
import { screener } from './screener.ts';
import { sectorTable } from './sectors.ts';
import { indexTable } from './indices.ts';

const CHOSEN_KEY = 'psx.index';
/** The page re-reads the overview this often (levels, breadth and the lists are not streamed). */
const REFRESH_MS = 60_000;

export function marketView(main: HTMLElement): () => void {
  const hero = h('div', { class: 'panel hero', id: 'index-panel' });
  const breadthBox = h('div', { class: 'panel', id: 'breadth-panel' });
  const levels = h('div', { class: 'panel', id: 'indices-panel' });
  const moverBoxes = MOVER_KINDS.map((k) => h('div', { class: 'panel movers', id: `movers-${k.by}` }));
  const sectorPanel = h('div', { class: 'panel', id: 'sectors-panel' });
  const screenerPanel = h('div', { class: 'panel', id: 'screener-panel' });
  // Last on the page: whether it appears, grows or collapses, nothing else moves.
  const backfill = h('section', {
    'aria-labelledby': 'backfill-heading',
    id: 'backfill-section',
    hidden: true,
  });
  main.append(
    h('h1', { tabindex: '-1', class: 'sr-only' }, 'Market'),
    // Any past day from the archive: a button; its bounds are asked for only when it is opened.
    dayPicker({ open: false }),
    h(
      'div',
      { class: 'market-top' },
      h(
        'section',
        { 'aria-labelledby': 'index-heading', class: 'area-hero' },
        h('h2', { id: 'index-heading', class: 'sr-only' }, 'Index today'),
        hero,
      ),
      h(
        'div',
        { class: 'area-side' },
        h(
          'section',
          { 'aria-labelledby': 'breadth-heading' },
          h('h2', { id: 'breadth-heading' }, 'Breadth'),
          breadthBox,
        ),
        h(
          'section',
          { 'aria-labelledby': 'indices-heading' },
          h('h2', { id: 'indices-heading' }, 'Indices'),
          levels,
        ),
      ),
    ),
    h(
      'div',
      { class: 'movers-row' },
      MOVER_KINDS.map((k, i) =>
        h(
          'section',
          { 'aria-labelledby': `movers-${k.by}-heading` },
          h('h2', { id: `movers-${k.by}-heading` }, k.title),
          moverBoxes[i],
        ),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'screener-heading' },
      h('h2', { id: 'screener-heading' }, 'Screener'),
      screenerPanel,
    ),
    h(
      'section',
      { 'aria-labelledby': 'sectors-heading' },
      h('h2', { id: 'sectors-heading' }, 'Sectors'),
      sectorPanel,
    ),
    backfill,
  );

  let chart: AreaChart | undefined;
  let disposed = false;
  const chosen = (): string => localStorage.getItem(CHOSEN_KEY) ?? 'KSE100';

  /** Draws a part into its box; a part missing this time leaves what the box shows. */
  const part = <T>(box: HTMLElement, p: Part<T>, what: string, render: (v: T) => Node): void => {
    if (p.data !== null) {
      replace(box, render(p.data));
      box.dataset.loadedAt = String(Date.now());
    } else if (box.dataset.loadedAt === undefined) {
      replace(
        box,
        partNote(p as Part<unknown>, what, () => void read(true)),
      );
    }
  };

  /**
   * Draws the overview panel by panel, each in a task of its own (the hero first: it is what the
   * reader looks at), so a phone's main thread is never blocked for the whole page at once.
   * Resolves false when the view was left meanwhile.
   */
  const show = async (ov: MarketOverview, fresh: boolean): Promise<boolean> => {
    noteMarketState(ov.market);
    if (ov.breadth.as_of) noteAsOf(ov.breadth.as_of);
    const levelsNow = ov.indices.data ?? [];
    if (fresh) showIndex(ov, levelsNow);
    else updateHero(hero, levelsNow);
    await nextTask();
    if (disposed) return false;
    part(levels, ov.indices, 'index levels', (rows) => indexTable(rows, ov.indices.as_of));
    part(breadthBox, ov.breadth, 'market breadth', (b) => breadthPanel(b as Breadth));
    await nextTask();
    if (disposed) return false;
    const streamed: string[] = [];
    MOVER_KINDS.forEach((k, i) => {
      const rows = (ov.movers.data?.[k.by] ?? null) as Mover[] | null;
      rows?.forEach((r) => streamed.push(r.symbol));
      part(moverBoxes[i]!, { ...ov.movers, data: rows }, k.what, (r) => moverList(r, k));
    });
    if (streamed.length > 0) watch(streamed);
    if (ov.sectors.data) learnSectorNames(ov.sectors.data);
    await nextTask();
    if (disposed) return false;
    part(sectorPanel, ov.sectors, 'sectors', sectorTable);
    return true;
  };

  const showIndex = (ov: MarketOverview, all: IndexLevel[]): void => {
    chart?.destroy();
    chart = undefined;
    const level = all.find((l) => l.index === ov.index.code) ?? all[0];
    if (!level) {
      if (hero.dataset.loadedAt === undefined)
        replace(
          hero,
          partNote(ov.indices, 'index levels', () => void read(true)),
        );
      return;
    }
    hero.dataset.index = level.index;
    hero.dataset.loadedAt = String(Date.now());
    const picker = h(
      'select',
      {
        id: 'index-picker',
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          localStorage.setItem(CHOSEN_KEY, v);
          void read(true);
        },
      },
      all.map((l) => h('option', { value: l.index, selected: l.index === level.index }, l.index)),
    );
    const host = h('div', { class: 'hero-chart' });
    const contrib = h('div', { class: 'contrib-box' });
    replace(
      hero,
      h(
        'div',
        { class: 'hero-head' },
        h('label', { for: 'index-picker', class: 'sr-only' }, 'Index shown'),
        picker,
        h(
          'p',
          { class: 'hero-level', 'data-index': level.index },
          h('span', { class: 'level' }, fmtPrice(level.current)),
          ' ',
          heroChange(level),
        ),
        h('p', { class: 'hero-range' }, `Day high ${fmtPrice(level.high)} · low ${fmtPrice(level.low)}`),
      ),
      host,
      contrib,
    );
    const members = ov.index.constituents as Part<IndexConstituent[]>;
    if (members.data) replace(contrib, contributors(level.index, members.data));
    else replace(contrib, partNote(members, `${level.index} contributions`));
    void drawIndexChart(host, level, ov.index.intraday as Part<IntradayBar[]>);
  };

  const drawIndexChart = async (
    host: HTMLElement,
    level: IndexLevel,
    bars: Part<IntradayBar[]>,
  ): Promise<void> => {
    const baseline = level.current !== null && level.change !== null ? level.current - level.change : null;
    const label = (what: string): void =>
      host.setAttribute('aria-label', `${level.index} ${what}; level ${fmtPrice(level.current)}`);
    host.setAttribute('role', 'img');
    const points = intradayPoints(bars.data ?? []);
    if (points.length > 1) {
      label('today, every 5 minutes');
      host.dataset.chart = 'intraday';
      chart = createAreaChart(host, points, { baseline, intraday: true });
      return;
    }
    // No bars today (before the open, a holiday): the daily closes, asked for only then.
    try {
      const days = dailyPoints((await indexHistory(level.index)).data).slice(-130);
      if (disposed || !host.isConnected) return;
      if (days.length > 1) {
        label('daily closes, last six months');
        host.dataset.chart = 'daily';
        chart = createAreaChart(host, days, { intraday: false });
        return;
      }
    } catch {
      // No history either: the note below.
    }
    note(host, 'No intraday chart for this index yet.');
  };

  let refresh: ReturnType<typeof setTimeout> | undefined;
  let shownAt: number | undefined;
  // Where a failed read says so, above the panels (which keep their numbers).
  const statusLine = h('div', { class: 'view-banner' });
  main.querySelector('.market-top')?.before(statusLine);
  for (const box of [hero, breadthBox, levels, ...moverBoxes, sectorPanel])
    replace(box, h('p', { class: 'loading', role: 'status' }, 'Loading…'));

  /** Reads the overview (`again`: not the page's shared copy) and draws it; a failure keeps what is shown. */
  const read = async (again: boolean): Promise<void> => {
    clearTimeout(refresh);
    let next = REFRESH_MS;
    try {
      const ov = (await marketOverview(chosen(), again)).data;
      if (disposed) return;
      replace(statusLine);
      if (!(await show(ov, shownAt === undefined || hero.dataset.index !== ov.index.code))) return;
      shownAt = Date.now();
      // A part that will follow is asked for when the service said, if that is sooner.
      const parts = [ov.indices, ov.breadth, ov.movers, ov.sectors, ov.index.intraday, ov.index.constituents];
      next = Math.min(next, retryDelayMs(parts as Part<unknown>[]) ?? next);
    } catch (err) {
      if (disposed) return;
      const retry = (): void => void read(true);
      if (shownAt === undefined) {
        replace(statusLine, failureBox(err, 'the market', retry));
        for (const box of [hero, breadthBox, levels, ...moverBoxes, sectorPanel]) replace(box);
      } else {
        replace(statusLine, keptNote(err, 'the market', shownAt, retry));
      }
      // The box or note above asks again by itself (or offers to); no timed refresh meanwhile.
      next = 0;
    }
    if (!disposed && next > 0) refresh = setTimeout(() => void read(true), next);
  };
  let stopBackfill: (() => void) | undefined;
  // The backfill's progress sits at the bottom (it may be hidden until the archive is known to be
  // on): asked once the reader reaches the sectors above it, and after the overview, so the view's
  // first load is its overview and the screener.
  const overviewRead = read(false);
  const stopWatching = whenVisible(sectorPanel, () => {
    void overviewRead.finally(() => {
      if (!disposed) stopBackfill = startBackfillPanel(backfill);
    });
  });

  void load(
    screenerPanel,
    'the screener',
    async () => ({ rows: await screenRows(), names: await sectorNames() }),
    ({ rows, names }) =>
      screener(rows, { sectorNames: names, caption: 'Screener: every listed symbol', open: openSymbol }),
  );

  return () => {
    disposed = true;
    clearTimeout(refresh);
    stopWatching();
    stopBackfill?.();
    chart?.destroy();
  };
}

function heroChange(level: IndexLevel): HTMLElement {
  const dir = direction(level.change);
  return h(
    'span',
    { class: `hero-change ${dir}` },
    h('span', { 'aria-hidden': 'true' }, `${arrow(level.change)} `),
    h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
    `${fmtSigned(level.change)} (${fmtPct(level.change_pct)})`,
  );
}

/** The hero's level and change, rewritten in place (its chart stays). */
function updateHero(hero: HTMLElement, rows: IndexLevel[]): void {
  const el = hero.querySelector<HTMLElement>('.hero-level');
  const level = rows.find((l) => l.index === el?.dataset.index);
  if (!el || !level) return;
  const value = el.querySelector('.level');
  if (value) value.textContent = fmtPrice(level.current);
  el.querySelector('.hero-change')?.replaceWith(heroChange(level));
}

function note(host: HTMLElement, text: string): void {
  host.removeAttribute('role');
  host.removeAttribute('aria-label');
  host.dataset.chart = 'none';
  replace(host, h('p', { class: 'chart-note' }, text));
}

export const openSymbol = (symbol: string): void => navigate(`#/symbol/${encodeURIComponent(symbol)}`);
