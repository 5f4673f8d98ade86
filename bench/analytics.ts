// Analytics: computation cost without I/O. A performance table over 2,500 rows (uncached: a fresh
// series each run), ten indicators over 2,500 rows (computation and number cleaning), and a
// 100-member ranking from member series already in memory (as an archive would hand them over),
// through the market service with a stub dataset for the index's constituents and levels; and
// the same ranking read from a SQLite archive (100 symbols × 2,500 days with kept corporate
// actions), as the service does with the archiver on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SqliteArchive } from '../src/archive/sqlite-archive.ts';
import { MarketArchive } from '../src/market/archive/archive.ts';
import { archiveMemberSource } from '../src/market/whole-market/member-series.ts';
import { fillArchive } from './archive-data.ts';
import { parseIndicators } from '../src/analytics/indicator-spec.ts';
import type { Bar } from '../src/analytics/series.ts';
import type { DeepReadonly } from '../src/cache/immutable.ts';
import type { Cached } from '../src/cache/types.ts';
import type { IndexConstituentsPage, IndexSeriesRow } from '../src/exchange/types.ts';
import type { Series } from '../src/market/analytics/analytics-rows.ts';
import type { RequestContext } from '../src/market/context.ts';
import type { Datasets } from '../src/market/datasets.ts';
import { indicatorTable } from '../src/market/analytics/indicators.ts';
import type { MemberSeriesSource } from '../src/market/analytics/member-series.ts';
import { performanceTable } from '../src/market/analytics/performance.ts';
import { marketPerformance } from '../src/market/analytics/rankings.ts';
import { describeMachine } from './machine.ts';
import type { Figure, Section } from './report.ts';
import { median, quantile } from './stats.ts';

const ROWS = 2500;
const RUNS = 200;
const CTX: RequestContext = { clientIp: '127.0.0.1' };
const INDICATORS = 'sma:20,sma:200,ema:50,ema:200,rsi:14,macd:12:26:9,bbands:20:2,atr:14,obv,vwap:20';

/** Weekday dates ending 2026-11-20, oldest first. */
function weekdays(n: number): string[] {
  const out: string[] = [];
  for (let t = Date.UTC(2026, 10, 20); out.length < n; t -= 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out.reverse();
}

/** A deterministic random walk (the figures must not depend on the data's luck). */
function walk(seed: number, dates: string[]): Bar[] {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let close = 100;
  return dates.map((date) => {
    close = Math.max(1, close * (1 + (rnd() - 0.5) * 0.04));
    const w = rnd() * 0.02;
    return {
      date,
      open: close,
      high: close * (1 + w),
      low: close * (1 - w),
      close,
      volume: Math.round(rnd() * 1e6),
    };
  });
}

function time(runs: number, run: (k: number) => unknown): number[] {
  const out: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    run(k);
    out.push(performance.now() - t);
  }
  return out;
}

async function timeAsync(runs: number, run: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    await run();
    out.push(performance.now() - t);
  }
  return out;
}

const fresh = <T>(value: T): Cached<T> => ({
  value: value as DeepReadonly<T>,
  state: 'HIT',
  fetchedAt: 0,
  freshUntil: 1,
  version: '1',
});

export async function runAnalytics(): Promise<Section> {
  const startedAt = new Date();
  const machine = describeMachine();
  const dates = weekdays(ROWS);
  const bench = walk(1, dates);
  const benchDates = dates;

  // Performance table: a new array each run, so nothing memoised is reused; the arrays are made
  // before the clock starts, so the figure is the computation's alone.
  const tableInputs = Array.from({ length: RUNS }, () => walk(2, dates));
  const table = time(RUNS, (k) =>
    performanceTable({ bars: tableInputs[k]!, dates }, { code: 'KSE100', bars: bench, dates: benchDates }),
  );

  const parsed = parseIndicators(INDICATORS);
  if ('error' in parsed) throw new Error(parsed.error);
  const indicatorInputs = Array.from({ length: RUNS }, () => walk(3, dates));
  const indicators = time(RUNS, (k) => indicatorTable(indicatorInputs[k]!, parsed.specs));

  // 100 members held in memory; the index's constituents and levels from a stub dataset.
  const symbols = Array.from({ length: 100 }, (_, k) => `SYM${k}`);
  const members = new Map(
    symbols.map((symbol, k) => {
      const bars = walk(10 + k, dates);
      const series: Series = {
        answer: { key: symbol, data: bars, asOf: '', provenance: fresh(null) },
        bars,
        dates,
        adjustment: null,
      };
      return [symbol, series];
    }),
  );
  const source: MemberSeriesSource = {
    load: async (list) => list.map((symbol) => ({ symbol, series: members.get(symbol)! })),
  };
  const page: IndexConstituentsPage = {
    title: 'KSE 100',
    sizeColumn: 'freefloat',
    rows: symbols.map((symbol) => ({ symbol }) as IndexConstituentsPage['rows'][number]),
  };
  const levels: IndexSeriesRow[] = bench.map((b) => ({
    date: b.date,
    open: b.open,
    close: b.close,
    volume: b.volume,
  }));
  const datasets = {
    indexConstituents: async () => fresh(page),
    indexSeries: async () => fresh(levels),
  } as unknown as Datasets;
  const ranking = await timeAsync(RUNS, () =>
    marketPerformance(datasets, source, { period: '1Y', index: 'KSE100' }, CTX),
  );

  // The same ranking from the archive: bars read from SQLite (the period's rows), adjusted with
  // each symbol's kept factors. The portal is never asked (every member is archived).
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-bench-ranking-'));
  const store = new SqliteArchive(dir);
  let fromArchive: number[];
  try {
    const names = await fillArchive(store, 100, ROWS);
    for (const [k, symbol] of names.entries()) {
      await store.writeAdjustments({
        symbol,
        checkedAt: 0,
        checkedThrough: dates.at(-1)!,
        seriesStart: dates[ROWS - 1250]!,
        dividendsFrom: null,
        dividendsKnown: false,
        factors: [
          {
            exDate: dates[ROWS - 100 - k]!,
            kind: 'capital_change',
            factor: 1 / 1.1,
            ratio: 1.1,
            amount: null,
          },
        ],
      });
    }
    const archivePage: IndexConstituentsPage = {
      ...page,
      rows: names.map((symbol) => ({ symbol }) as IndexConstituentsPage['rows'][number]),
    };
    const archiveDatasets = {
      ...datasets,
      indexConstituents: async () => fresh(archivePage),
    } as unknown as Datasets;
    const noPortal: MemberSeriesSource = {
      load: () => Promise.reject(new Error('the bench archive holds every member')),
    };
    const archived = archiveMemberSource(new MarketArchive({ store }), noPortal, () =>
      Date.parse(`${dates.at(-1)}T12:00:00Z`),
    );
    fromArchive = await timeAsync(RUNS / 4, () =>
      marketPerformance(archiveDatasets, archived, { period: '1Y', index: 'KSE100' }, CTX),
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const figure = (id: string, label: string, values: number[], limit: number): Figure[] => [
    {
      id: `${id}.p50`,
      label: `${label} p50`,
      value: median(values),
      unit: 'ms',
      target: { op: '<=', limit },
    },
    { id: `${id}.p95`, label: `${label} p95`, value: quantile(values, 0.95), unit: 'ms' },
  ];
  return {
    id: 'analytics',
    title: 'Analytics (ms per computation)',
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine,
    figures: [
      ...figure('performance', 'performance table, 2,500 rows, uncached', table, 3),
      ...figure('indicators', '10 indicators, 2,500 rows', indicators, 5),
      ...figure('ranking', '100-member ranking from series in memory', ranking, 50),
      ...figure('ranking-archive', '100-member 1Y ranking from the archive (SQLite)', fromArchive, 50),
    ],
    tables: [],
    notes: [`indicators: ${INDICATORS}`, `${RUNS} runs each, in one process`],
  };
}
