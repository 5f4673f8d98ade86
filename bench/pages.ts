// The pages the parse benchmark reads: the project's own generated pages (the fake portal's
// renderers and dataset) at the row counts of the recorded real pages, plus the recorded pages
// themselves when ../shared/dps-recorded is present (read in place, never copied).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createDataset,
  SECTORS,
  type Dataset,
  type SectorDef,
  type SectorMemberRow,
} from '../dev/fake-portal/dataset.ts';
import {
  renderHistorical,
  renderIndexConstituents,
  renderIndicesPage,
  renderMarketWatch,
  renderScreenerPage,
  renderSectorSummary,
} from '../dev/fake-portal/pages.ts';
import type { IndexConstituentsPage, SectorSummaryRow } from '../src/exchange/types.ts';

export type PageKind =
  'history' | 'screener' | 'index-constituents' | 'index-levels' | 'sector-summary' | 'market-watch';

export interface BenchPage {
  kind: PageKind;
  /** e.g. `history ENGRO (generated)`. */
  label: string;
  source: 'generated' | 'recorded';
  html: string;
  bytes: number;
  /** The index code for constituents pages (the API mapping needs a known code). */
  index?: string;
}

/** Row counts of the recorded pages (../shared/dps-recorded/README.md, 2026-04 set). */
export const REAL_SIZE = {
  screenerRows: 729,
  historyRows: 2162,
  allshrRows: 549,
  kse100Rows: 100,
  sectors: 37,
  /** Member rows over all 37 sector tables of the recorded sector summary. */
  sectorMemberRows: 552,
  /** The regular board's size in the same recording (trading_board_REG_main.html, 486 rows). */
  marketWatchRows: 486,
} as const;

export const RECORDED_DIR = fileURLToPath(new URL('../../shared/dps-recorded/', import.meta.url));

// A full page's token slot; any 43-character value will do for parsing.
const TOKEN = 'b'.repeat(43);

/** The smallest extraSymbols for which `count(dataset)` reaches `wanted` (counts grow with extras). */
export function extrasFor(wanted: number, count: (ds: Dataset) => number): number {
  let lo = 0;
  let hi = wanted * 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (count(createDataset({ extraSymbols: mid })) >= wanted) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function page(kind: PageKind, label: string, html: string, index?: string): BenchPage {
  return { kind, label, source: 'generated', html, bytes: Buffer.byteLength(html), index };
}

/**
 * The fake's index lists are fixed (its KSE100 has 49 members): the 100-row KSE100 page reuses the
 * first 100 all-share rows with a FREEFLOAT (M) column, which is the parser path KSE100 takes.
 */
function kse100Page(): string {
  const ds = createDataset({
    extraSymbols: extrasFor(REAL_SIZE.kse100Rows, (d) => d.indexConstituents('ALLSHR')?.rows.length ?? 0),
  });
  const all = ds.indexConstituents('ALLSHR') as IndexConstituentsPage;
  const rows = all.rows.slice(0, REAL_SIZE.kse100Rows).map((r) => {
    const { shares, ...rest } = r;
    return { ...rest, freeFloat: Math.round((shares ?? 0) * 0.4) };
  });
  const kse100: IndexConstituentsPage = {
    title: 'KSE 100 INDEX Constituents',
    sizeColumn: 'freefloat',
    rows,
  };
  const view: Dataset = {
    ...ds,
    indexConstituents: (code) => (code === 'KSE100' ? kse100 : ds.indexConstituents(code)),
  };
  return renderIndexConstituents(view, 'KSE100') as string;
}

/** The fake has 13 sectors; the real page has 37. Its member rows are dealt round-robin over 37. */
function sectorSummaryPage(): string {
  const memberCount = (d: Dataset): number => d.sectorPage.members.reduce((n, m) => n + m.symbols.length, 0);
  const ds = createDataset({ extraSymbols: extrasFor(REAL_SIZE.sectorMemberRows, memberCount) });
  const sectors: SectorDef[] = [...SECTORS];
  for (let code = 838; sectors.length < REAL_SIZE.sectors; code++) {
    sectors.push({ code: `0${code}`, name: `GENERATED SECTOR ${code} & ALLIED` });
  }
  const allRows = SECTORS.flatMap((s) => ds.sectorMemberRows(s.code));
  const members = new Map<string, SectorMemberRow[]>(sectors.map((s) => [s.code, []]));
  allRows.forEach((row, i) => members.get((sectors[i % sectors.length] as SectorDef).code)?.push(row));
  const summary: SectorSummaryRow[] = sectors.map((s) => {
    const rows = members.get(s.code) ?? [];
    return {
      sectorCode: s.code,
      sectorName: s.name,
      advance: rows.filter((r) => r.change > 0).length,
      decline: rows.filter((r) => r.change < 0).length,
      unchanged: rows.filter((r) => r.change === 0).length,
      turnover: rows.reduce((n, r) => n + r.volume, 0),
      marketCapB: Math.round(rows.reduce((n, r) => n + r.current * 1e7, 0) / 1e7) / 100,
    };
  });
  const view: Dataset = {
    ...ds,
    sectors,
    sectorPage: {
      sectors: summary,
      members: sectors.map((s) => ({
        sectorCode: s.code,
        sectorName: s.name,
        symbols: (members.get(s.code) ?? []).map((r) => r.symbol),
      })),
    },
    sectorMemberRows: (code) => members.get(code) ?? [],
  };
  return renderSectorSummary(view);
}

export function generatedPages(): BenchPage[] {
  const base = createDataset();
  const screenerDs = createDataset({
    extraSymbols: extrasFor(REAL_SIZE.screenerRows, (d) => d.screener.length),
  });
  const allshrDs = createDataset({
    extraSymbols: extrasFor(REAL_SIZE.allshrRows, (d) => d.indexConstituents('ALLSHR')?.rows.length ?? 0),
  });
  const watchDs = createDataset({
    extraSymbols: extrasFor(REAL_SIZE.marketWatchRows, (d) => d.marketWatch.length),
  });
  return [
    page('history', 'history ENGRO, 2,162 rows', renderHistorical(base, 'ENGRO')),
    page('screener', 'screener, 729 rows', renderScreenerPage(screenerDs, TOKEN)),
    page(
      'index-constituents',
      'index ALLSHR, 549 rows',
      renderIndexConstituents(allshrDs, 'ALLSHR') as string,
      'ALLSHR',
    ),
    page('index-constituents', 'index KSE100, 100 rows', kse100Page(), 'KSE100'),
    page('sector-summary', 'sector summary, 37 sectors', sectorSummaryPage()),
    page('market-watch', 'market watch, 486 rows', renderMarketWatch(watchDs)),
    page('index-levels', 'index levels, 18 rows', renderIndicesPage(base, TOKEN)),
  ];
}

const RECORDED: readonly { file: string; kind: PageKind; label: string; index?: string }[] = [
  { file: '2026-04/historical_engro.html', kind: 'history', label: 'history ENGRO (2026-04)' },
  { file: '2026-04/screener.html', kind: 'screener', label: 'screener (2026-04)' },
  {
    file: '2026-04/indices_ALLSHR.html',
    kind: 'index-constituents',
    label: 'index ALLSHR (2026-04)',
    index: 'ALLSHR',
  },
  {
    file: '2026-04/indices_KSE100.html',
    kind: 'index-constituents',
    label: 'index KSE100 (2026-04)',
    index: 'KSE100',
  },
  { file: '2026-04/sector_summary.html', kind: 'sector-summary', label: 'sector summary (2026-04)' },
  {
    file: '2026-09/market-watch.html',
    kind: 'market-watch',
    label: 'market watch, trimmed to 60 rows (2026-09)',
  },
  { file: '2026-09/indices.html', kind: 'index-levels', label: 'index levels (2026-09)' },
  {
    file: '2026-09/index-kse100.html',
    kind: 'index-constituents',
    label: 'index KSE100 (2026-09)',
    index: 'KSE100',
  },
  { file: '2026-09/sector-summary.html', kind: 'sector-summary', label: 'sector summary (2026-09)' },
];

/** The recorded pages that exist on this machine ([] without the folder). */
export function recordedPages(): BenchPage[] {
  const pages: BenchPage[] = [];
  for (const r of RECORDED) {
    const path = RECORDED_DIR + r.file;
    if (!existsSync(path)) continue;
    const html = readFileSync(path, 'utf8');
    pages.push({
      kind: r.kind,
      label: r.label,
      source: 'recorded',
      html,
      bytes: Buffer.byteLength(html),
      index: r.index,
    });
  }
  return pages;
}
