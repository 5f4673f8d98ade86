// The market at a glance: index tiles, the sector table and the screener.
import { indexLevels, screenerRows, sectorNames, sectors } from '../data.ts';
import { h } from '../dom.ts';
import { load } from '../load.ts';
import { navigate } from '../router.ts';
import { screener } from './screener.ts';
import { sectorTable } from './sectors.ts';
import { indexTiles } from './tiles.ts';

export function marketView(main: HTMLElement): void {
  const tiles = h('div', { class: 'panel', id: 'indices-panel' });
  const sectorPanel = h('div', { class: 'panel', id: 'sectors-panel' });
  const screenerPanel = h('div', { class: 'panel', id: 'screener-panel' });
  main.append(
    h('h1', { tabindex: '-1' }, 'Market'),
    h(
      'section',
      { 'aria-labelledby': 'indices-heading' },
      h('h2', { id: 'indices-heading' }, 'Indices'),
      tiles,
    ),
    h(
      'section',
      { 'aria-labelledby': 'sectors-heading' },
      h('h2', { id: 'sectors-heading' }, 'Sectors'),
      sectorPanel,
    ),
    h(
      'section',
      { 'aria-labelledby': 'screener-heading' },
      h('h2', { id: 'screener-heading' }, 'Screener'),
      screenerPanel,
    ),
  );
  void load(tiles, 'index levels', indexLevels, indexTiles);
  void load(sectorPanel, 'sectors', sectors, sectorTable);
  void load(
    screenerPanel,
    'the screener',
    async () => ({ rows: await screenerRows(), names: await sectorNames() }),
    ({ rows, names }) =>
      screener(rows, { sectorNames: names, caption: 'Screener: every listed symbol', open: openSymbol }),
  );
}

export const openSymbol = (symbol: string): void => navigate(`#/symbol/${encodeURIComponent(symbol)}`);
