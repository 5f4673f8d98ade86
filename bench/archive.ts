// The archive: grouped daily bars for ~500 symbols and a 100-symbol × 5-year close panel read from
// the store (not a memory cache), in SQLite and in PostgreSQL (when installed; started on
// loopback like the tests do); a backfill of 1,000 generated symbols against the fake portal with
// a 60-a-minute budget, whose fetches in any minute must stay within the archiver's share; and the
// SQLite store's size for 1,000 symbols × 10 years.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteArchive } from '../src/archive/sqlite-archive.ts';
import type { ArchiveStore } from '../src/archive/store.ts';
import { MarketArchive } from '../src/market/archive/archive.ts';
import { backfillFigures } from './archive-backfill.ts';
import { fillArchive, weekdays, withPostgresArchive } from './archive-data.ts';
import { archiveSizeMb } from './archive-size.ts';
import { describeMachine } from './machine.ts';
import type { Figure, Section } from './report.ts';
import { quantile, round } from './stats.ts';

const GROUPED_SYMBOLS = 500;
const PANEL_SYMBOLS = 100;
const FIVE_YEARS = 1250;
const RUNS = Number(process.env.BENCH_ARCHIVE_RUNS ?? 30);
const BACKFILL_LENGTH =
  process.env.BENCH_ARCHIVE_BACKFILL_SEC === 'full'
    ? 'full'
    : Number(process.env.BENCH_ARCHIVE_BACKFILL_SEC ?? 150);

async function timeIt(runs: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  await fn(0); // warm
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    ms.push(performance.now() - t0);
  }
  return round(quantile(ms, 0.5));
}

async function queryFigures(name: string, store: ArchiveStore): Promise<Figure[]> {
  const archive = new MarketArchive({ store });
  const symbols = await fillArchive(store, GROUPED_SYMBOLS, FIVE_YEARS);
  const dates = weekdays(FIVE_YEARS);
  const grouped = await timeIt(RUNS, (i) => archive.dailyBars(dates[(i * 37) % dates.length]!));
  const panel = await timeIt(RUNS, () =>
    archive.closePanel(symbols.slice(0, PANEL_SYMBOLS), dates[0], dates.at(-1)),
  );
  return [
    {
      id: `archive-grouped-daily-${name}`,
      label: `grouped daily, ${GROUPED_SYMBOLS} symbols, from the store (${name}) p50`,
      value: grouped,
      unit: 'ms',
      target: { op: '<=', limit: 20 },
    },
    {
      id: `archive-close-panel-${name}`,
      label: `close panel, ${PANEL_SYMBOLS} symbols × 5 years (${name}) p50`,
      value: panel,
      unit: 'ms',
      target: { op: '<=', limit: 150 },
    },
  ];
}

export async function runArchive(): Promise<Section> {
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const machine = describeMachine();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-bench-archive-'));
  try {
    const sqlite = new SqliteArchive(dir);
    figures.push(...(await queryFigures('SQLite', sqlite)));
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await withPostgresArchive(notes, async (store) => {
    figures.push(...(await queryFigures('PostgreSQL', store)));
  });
  if (process.env.BENCH_ARCHIVE_SKIP_BACKFILL !== '1') {
    const backfill = await backfillFigures(BACKFILL_LENGTH);
    figures.push(...backfill.figures);
    notes.push(...backfill.notes);
  }
  if (process.env.BENCH_ARCHIVE_SKIP_SIZE !== '1') {
    const size = await archiveSizeMb(1000, 2500);
    figures.push({
      id: 'archive-size-sqlite',
      label: 'SQLite archive, 1,000 symbols × 10 years of daily bars',
      value: size.mb,
      unit: 'MB',
      target: { op: '<=', limit: 300 },
    });
  }
  return {
    id: 'archive',
    title: 'Archive',
    startedAt,
    durationSec: (Date.now() - t0) / 1000,
    machine,
    figures,
    tables: [],
    notes,
  };
}
