// The archive: grouped daily bars for ~500 symbols and a 100-symbol × 5-year close panel read from
// the store (not a memory cache), in SQLite and in PostgreSQL (when installed; started on
// loopback like the tests do); a backfill of 1,000 generated symbols against the fake portal with
// a 60-a-minute budget, whose fetches in any minute must stay within the archiver's share; and the
// SQLite store's size for 1,000 symbols × 10 years.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakePortal } from '../dev/fake-portal/server.ts';
import { PostgresArchive } from '../src/archive/postgres-archive.ts';
import { SqliteArchive } from '../src/archive/sqlite-archive.ts';
import type { ArchiveStore } from '../src/archive/store.ts';
import { MarketArchive } from '../src/market/archive.ts';
import { postgresUnavailableReason, startPostgres } from '../test/helpers/postgres.ts';
import { startService } from '../test/helpers/service.ts';
import { fillArchive, weekdays } from './archive-data.ts';
import { archiveSizeMb } from './archive-size.ts';
import { describeMachine } from './machine.ts';
import type { Figure, Section } from './report.ts';
import { quantile, round, sleep } from './stats.ts';

const GROUPED_SYMBOLS = 500;
const PANEL_SYMBOLS = 100;
const FIVE_YEARS = 1250;
const RUNS = Number(process.env.BENCH_ARCHIVE_RUNS ?? 30);
const BACKFILL_SEC = Number(process.env.BENCH_ARCHIVE_BACKFILL_SEC ?? 150);
const BACKFILL_SYMBOLS = 1000;

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

/** The archiver's fetches per sliding minute while it backfills 1,000 symbols on a 60/min budget. */
async function backfillFigures(): Promise<{ figures: Figure[]; notes: string[] }> {
  const portal = await startFakePortal({ extraSymbols: BACKFILL_SYMBOLS - 64, historyRows: 250 });
  const svc = await startService(portal.url, {
    ARCHIVE: 'on',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '60',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    ARCHIVE_BUDGET_SHARE: '0.5',
  });
  const samples: Array<{ t: number; n: number }> = [];
  const t0 = performance.now();
  try {
    while (performance.now() - t0 < BACKFILL_SEC * 1000) {
      samples.push({ t: performance.now(), n: portal.counts().requests['POST /historical'] ?? 0 });
      await sleep(500);
    }
  } finally {
    await svc.close();
    await portal.close();
  }
  let maxMinute = 0;
  for (const s of samples) {
    const before = samples.find((x) => x.t >= s.t - 60_000)!;
    maxMinute = Math.max(maxMinute, s.n - before.n);
  }
  const total = samples.at(-1)?.n ?? 0;
  const refused = portal.counts().injected['status'] ?? 0;
  return {
    figures: [
      {
        id: 'archive-backfill-max-per-minute',
        label: 'backfill: most archiver fetches in any 60 s (share 30 of 60)',
        value: maxMinute,
        unit: 'fetches',
        target: { op: '<=', limit: 30 },
      },
      {
        id: 'archive-backfill-429',
        label: 'backfill: portal 429 answers',
        value: refused,
        unit: 'answers',
        target: { op: '==', limit: 0 },
      },
      {
        id: 'archive-backfill-done',
        label: `backfill: symbols fetched in ${BACKFILL_SEC} s`,
        value: total,
        unit: 'symbols',
      },
    ],
    notes: [
      `The backfill runs ${BACKFILL_SEC} s of the ${BACKFILL_SYMBOLS}-symbol market (all of it takes ${Math.ceil(BACKFILL_SYMBOLS / 30)} minutes at 30 a minute); resuming after kill -9 is tested in test/archive/resume.test.ts.`,
    ],
  };
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
  const pgSkip = postgresUnavailableReason();
  if (pgSkip) notes.push(pgSkip);
  else {
    const pg = await startPostgres();
    try {
      const store = new PostgresArchive(pg.url);
      figures.push(...(await queryFigures('PostgreSQL', store)));
      await store.close();
    } finally {
      await pg.destroy();
    }
  }
  if (process.env.BENCH_ARCHIVE_SKIP_BACKFILL !== '1') {
    const backfill = await backfillFigures();
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
