// The market at a glance: the chosen index (KSE100 unless the reader picked another) with its
// intraday chart, breadth, the day's movers, every index as a compact table, the screener and
// the sector table.
import type { IndexLevel } from 'psx-market-data-client';
import { NotAvailable } from '../api.ts';
import {
  indexConstituents,
  indexHistory,
  indexIntraday,
  indexLevels,
  sectorNames,
  sectors,
} from '../data.ts';
import { h, replace } from '../dom.ts';
import { arrow, direction, fmtPct, fmtPrice, fmtSigned, SPOKEN_DIRECTION } from '../format.ts';
import { dailyPoints, intradayPoints } from '../chart-data.ts';
import type { LineChart } from '../line-chart.ts';
import { streamQuotes } from '../live.ts';
import { load } from '../load.ts';
import { navigate } from '../router.ts';
import { breadthPanel } from './breadth.ts';
import { contributors } from './contributors.ts';
import { dayBreadth, dayMovers, screenRows } from './market-data.ts';
import { moverList, MOVER_KINDS } from './movers.ts';
import { screener } from './screener.ts';
import { sectorTable } from './sectors.ts';
import { indexTable } from './indices.ts';

const CHOSEN_KEY = 'psx.index';
/** Without the live stream, the page re-reads levels, breadth and movers this often. */
const REFRESH_MS = 60_000;
const MOVERS_SHOWN = 6;

export function marketView(main: HTMLElement): () => void {
  const hero = h('div', { class: 'panel hero', id: 'index-panel' });
  const breadthBox = h('div', { class: 'panel', id: 'breadth-panel' });
  const levels = h('div', { class: 'panel', id: 'indices-panel' });
  const moverBoxes = MOVER_KINDS.map((k) => h('div', { class: 'panel movers', id: `movers-${k.by}` }));
  const sectorPanel = h('div', { class: 'panel', id: 'sectors-panel' });
  const screenerPanel = h('div', { class: 'panel', id: 'screener-panel' });
  main.append(
    h('h1', { tabindex: '-1', class: 'sr-only' }, 'Market'),
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
  );

  let chart: LineChart | undefined;
  let disposed = false;
  let stopStream = (): void => undefined;
  let all: IndexLevel[] = [];
  const chosen = (): string => localStorage.getItem(CHOSEN_KEY) ?? 'KSE100';

  const showIndex = (name: string): void => {
    chart?.destroy();
    chart = undefined;
    const level = all.find((l) => l.index === name) ?? all[0];
    if (!level) return replace(hero, h('p', {}, 'No index levels are available.'));
    const picker = h(
      'select',
      {
        id: 'index-picker',
        onchange: (e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          localStorage.setItem(CHOSEN_KEY, v);
          showIndex(v);
        },
      },
      all.map((l) => h('option', { value: l.index, selected: l.index === level.index }, l.index)),
    );
    const dir = direction(level.change);
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
          h(
            'span',
            { class: `hero-change ${dir}` },
            h('span', { 'aria-hidden': 'true' }, `${arrow(level.change)} `),
            h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
            `${fmtSigned(level.change)} (${fmtPct(level.change_pct)})`,
          ),
        ),
        h('p', { class: 'hero-range' }, `Day high ${fmtPrice(level.high)} · low ${fmtPrice(level.low)}`),
      ),
      host,
      contrib,
    );
    void drawIndexChart(host, level);
    void load(
      contrib,
      `${level.index} contributions`,
      async () => (await indexConstituents(level.index)).data,
      (rows) => contributors(level.index, rows),
    );
  };

  const drawIndexChart = async (host: HTMLElement, level: IndexLevel): Promise<void> => {
    const baseline = level.current !== null && level.change !== null ? level.current - level.change : null;
    const label = (what: string): void =>
      host.setAttribute('aria-label', `${level.index} ${what}; level ${fmtPrice(level.current)}`);
    host.setAttribute('role', 'img');
    try {
      const bars = intradayPoints((await indexIntraday(level.index)).data);
      if (disposed || !host.isConnected) return;
      if (bars.length > 1) {
        label('today, every 5 minutes');
        host.dataset.chart = 'intraday';
        // The charting library is loaded only when there is something to draw.
        const { createLineChart } = await import('../line-chart.ts');
        if (disposed || !host.isConnected) return;
        chart = createLineChart(host, bars, { baseline, intraday: true });
        return;
      }
    } catch (err) {
      if (!(err instanceof NotAvailable)) return note(host, 'The intraday chart could not be loaded.');
    }
    try {
      const days = dailyPoints((await indexHistory(level.index)).data).slice(-130);
      if (disposed || !host.isConnected) return;
      if (days.length > 1) {
        label('daily closes, last six months');
        host.dataset.chart = 'daily';
        const { createLineChart } = await import('../line-chart.ts');
        if (disposed || !host.isConnected) return;
        chart = createLineChart(host, days, { intraday: false });
        return;
      }
    } catch {
      // No history either: the note below.
    }
    note(host, 'No intraday chart for this index yet.');
  };

  void load(
    hero,
    'index levels',
    async () => (await indexLevels()).data,
    (rows) => {
      all = rows;
      queueMicrotask(() => !disposed && showIndex(chosen()));
      return h('p', { class: 'loading' }, '');
    },
  );
  void load(
    levels,
    'index levels',
    async () => (await indexLevels()).data,
    (rows) => indexTable(rows),
  );
  void load(breadthBox, 'market breadth', dayBreadth, breadthPanel);
  const streamed = new Set<string>();
  MOVER_KINDS.forEach((k, i) => {
    void load(
      moverBoxes[i]!,
      k.what,
      () => dayMovers(k.by, MOVERS_SHOWN),
      (rows) => {
        rows.forEach((r) => streamed.add(r.symbol));
        if (i === MOVER_KINDS.length - 1) stopStream = streamQuotes([...streamed]);
        return moverList(rows, k);
      },
    );
  });
  void load(
    screenerPanel,
    'the screener',
    async () => ({ rows: await screenRows(), names: await sectorNames() }),
    ({ rows, names }) =>
      screener(rows, { sectorNames: names, caption: 'Screener: every listed symbol', open: openSymbol }),
  );
  void load(sectorPanel, 'sectors', async () => (await sectors()).data, sectorTable);

  // A page kept open all day: the numbers are re-read every minute (the service answers from its
  // cache, so this costs the portal nothing until the data is due for a refresh anyway).
  const refresh = setInterval(() => {
    void load(
      levels,
      'index levels',
      async () => (await indexLevels()).data,
      (rows) => {
        all = rows;
        updateHero(hero, rows);
        return indexTable(rows);
      },
    );
    void load(breadthBox, 'market breadth', dayBreadth, breadthPanel);
    MOVER_KINDS.forEach(
      (k, i) =>
        void load(
          moverBoxes[i]!,
          k.what,
          () => dayMovers(k.by, MOVERS_SHOWN),
          (rows) => moverList(rows, k),
        ),
    );
  }, REFRESH_MS);

  return () => {
    disposed = true;
    clearInterval(refresh);
    chart?.destroy();
    stopStream();
  };
}

/** The hero's level and change, rewritten in place (its chart stays). */
function updateHero(hero: HTMLElement, rows: IndexLevel[]): void {
  const el = hero.querySelector<HTMLElement>('.hero-level');
  const level = rows.find((l) => l.index === el?.dataset.index);
  if (!el || !level) return;
  const dir = direction(level.change);
  const value = el.querySelector('.level');
  if (value) value.textContent = fmtPrice(level.current);
  el.querySelector('.hero-change')?.replaceWith(
    h(
      'span',
      { class: `hero-change ${dir}` },
      h('span', { 'aria-hidden': 'true' }, `${arrow(level.change)} `),
      h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
      `${fmtSigned(level.change)} (${fmtPct(level.change_pct)})`,
    ),
  );
}

function note(host: HTMLElement, text: string): void {
  host.removeAttribute('role');
  host.removeAttribute('aria-label');
  host.dataset.chart = 'none';
  replace(host, h('p', { class: 'chart-note' }, text));
}

export const openSymbol = (symbol: string): void => navigate(`#/symbol/${encodeURIComponent(symbol)}`);
