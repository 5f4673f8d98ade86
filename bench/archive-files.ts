// The exchange's daily closing files: parse its real file of 2026-09-15 (1,068 lines: 492 equities, 532
// stock futures, 9 index futures, 35 debt) from its ZIP; parse and store one generated file of that size
// (SQLite, PostgreSQL); /market/daily's answer for a 2015 date from each store with a year of files
// kept; a 100-symbol × 13-year close panel from PostgreSQL; the SQLite archive's size per year of
// files; and the full backfill's duration at the default budget, by arithmetic from these rates.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipOne } from '../dev/fake-portal/daily-files.ts';
import { SqliteArchive } from '../src/archive/sqlite-archive.ts';
import type { ArchiveStore } from '../src/archive/store.ts';
import { parseDailyFileBody } from '../src/exchange/parsers/daily-file.ts';
import { marketDaily } from '../src/market/whole-market/answers.ts';
import { MarketArchive } from '../src/market/archive/archive.ts';
import type { Datasets } from '../src/market/datasets.ts';
import { fillArchive, weekdays, withPostgresArchive } from './archive-data.ts';
import { describeMachine } from './machine.ts';
import type { Figure, Section } from './report.ts';
import { quantile, round } from './stats.ts';

const REAL_FILE = new URL('../test/fixtures/real/closing-file/closing11-2026-09-15.lis', import.meta.url);

const RUNS = Number(process.env.BENCH_ARCHIVE_RUNS ?? 30);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** The default budget: 60 a minute globally, half for the archiver, capped by the per-IP 20. */
const DEFAULT_PER_MINUTE = Math.min(Math.floor(60 * 0.5), 20);

function fileDate(date: string): string {
  return `${date.slice(8, 10)}${MONTHS[Number(date.slice(5, 7)) - 1]}${date.slice(0, 4)}`;
}

/** A real-size closing file of `date`: 490 equities, 530 futures, 5 index futures, 35 debt. */
export function realSizeFile(date: string): Buffer {
  const d = fileDate(date);
  const mon = MONTHS[Number(date.slice(5, 7)) - 1];
  const lines: string[] = [];
  const row = (sym: string, sector: string, name: string, px: number, vol: number) => {
    const o = (px * 0.99).toFixed(1);
    lines.push(
      `${d}|${sym}|${sector}|${name}|${o}|${round(px * 1.02)}|${round(px * 0.98)}|${px}|${vol}|${round(px * 0.995)}|||`,
    );
  };
  for (let i = 0; i < 490; i++)
    row(
      `EQ${i}`,
      String(801 + (i % 37)).padStart(4, '0'),
      `Equity ${i} Ltd${i % 50 === 0 ? 'XD' : ''}`,
      10 + (i % 300) + 0.25,
      1000 + i * 37,
    );
  for (let i = 0; i < 177; i++) {
    row(`EQ${i}-${mon}`, '40', `Equity ${i}`, 10 + i + 0.3, 500);
    row(`EQ${i}-C${mon}`, '40', `Equity ${i}`, 10 + i + 0.35, 0);
    row(`EQ${i}-${mon}B`, '40', `Equity ${i}`, 10 + i + 0.4, 20);
  }
  for (let i = 0; i < 5; i++) row(`IX${i}-${mon}`, '41', `Index ${i} Fut`, 20000 + i, 100);
  for (let i = 0; i < 35; i++) row(`P05FRR${i}`, '36', `PIB ${i}`, 100.5, 4_000_005_000);
  return zipOne('closing11.lis', Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'latin1'));
}

function p50(ms: number[]): number {
  return round(quantile(ms, 0.5));
}

async function storeFigures(name: string, store: ArchiveStore): Promise<Figure[]> {
  const archive = new MarketArchive({ store });
  // Newest first, as the backfill asks for them.
  const days = weekdays(250, '2015-12-31').reverse();
  const writes: number[] = [];
  for (const date of days) {
    const body = realSizeFile(date);
    const t0 = performance.now();
    const file = parseDailyFileBody(body);
    await archive.recordDailyFile(date, file.rows, 0);
    writes.push(performance.now() - t0);
  }
  const datasets = undefined as unknown as Datasets;
  const now = Date.parse('2026-11-20T12:00:00Z');
  const reads: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const date = days[(i * 37) % days.length]!;
    const t0 = performance.now();
    await marketDaily(archive, datasets, { date }, { clientIp: 'bench' }, now);
    reads.push(performance.now() - t0);
  }
  const figures: Figure[] = [
    {
      id: `daily-file-store-${name}`,
      label: `parse + store one closing file (1,070 rows, ${name}) p50`,
      value: p50(writes),
      unit: 'ms',
      target: { op: '<=', limit: 10 },
    },
    {
      id: `daily-file-market-daily-${name}`,
      label: `/market/daily for a 2015 date, a year of files kept (${name}) p50`,
      value: p50(reads),
      unit: 'ms',
      target: { op: '<=', limit: 20 },
    },
  ];
  return figures;
}

export async function runArchiveFiles(): Promise<Section> {
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const machine = describeMachine();
  const figures: Figure[] = [];
  const notes: string[] = [];
  // The exchange's own file of 2026-09-15 (test/fixtures/real/README.md), in the ZIP it comes in.
  const body = zipOne('closing11.lis', readFileSync(REAL_FILE));
  const lines = parseDailyFileBody(body).rows.length;
  const parse: number[] = [];
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    parseDailyFileBody(body);
    parse.push(performance.now() - s);
  }
  figures.push({
    id: 'daily-file-parse',
    label: `decode (ZIP) + parse the exchange's closing file of 2026-09-15 (${lines} lines) p50`,
    value: p50(parse),
    unit: 'ms',
    target: { op: '<=', limit: 2 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-bench-files-'));
  let storeP50 = 0;
  try {
    const sqlite = new SqliteArchive(dir);
    const f = await storeFigures('SQLite', sqlite);
    storeP50 = f[0]!.value;
    figures.push(...f);
    // Closed first: the last connection's close checkpoints the WAL into the file.
    await sqlite.close();
    const bytes = ['archive.sqlite', 'archive.sqlite-wal'].reduce((n, f) => {
      try {
        return n + statSync(join(dir, f)).size;
      } catch {
        return n;
      }
    }, 0);
    figures.push({
      id: 'daily-file-size-per-year-sqlite',
      label: 'SQLite archive size per year of closing files (250 files × 1,070 rows)',
      value: round(bytes / 1024 / 1024),
      unit: 'MB',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A real server's durability (fsync on): the store's commit is part of what a file costs.
  await withPostgresArchive(
    notes,
    async (store) => {
      figures.push(...(await storeFigures('PostgreSQL', store)));
      const symbols = await fillArchive(store, 100, 3250);
      const archive = new MarketArchive({ store });
      const panel: number[] = [];
      for (let i = 0; i < 10; i++) {
        const s = performance.now();
        await archive.closePanel(symbols, '2013-11-04', '2026-11-20');
        panel.push(performance.now() - s);
      }
      figures.push({
        id: 'daily-file-panel-13y-postgres',
        label: 'close panel, 100 symbols × 13 years (PostgreSQL) p50',
        value: p50(panel),
        unit: 'ms',
        target: { op: '<=', limit: 300 },
      });
    },
    { durable: true },
  );
  const files = weekdays(20_000, '2026-11-20').filter((d) => d >= '2013-11-04').length;
  const minutes = files / DEFAULT_PER_MINUTE + (files * storeP50) / 60_000;
  figures.push({
    id: 'daily-file-backfill-hours',
    label: `full backfill: ${files} weekdays since 2013-11-04 at ${DEFAULT_PER_MINUTE} fetches a minute (default budget) + measured store time`,
    value: round(minutes / 60),
    unit: 'h',
  });
  notes.push(
    'The backfill is bound by the portal budget: each file costs one fetch (weekends are never asked; a holiday costs its 404) and storing it takes the measured parse + store time.',
  );
  return {
    id: 'archive-files',
    title: 'Archive: daily closing files',
    startedAt,
    durationSec: (Date.now() - t0) / 1000,
    machine,
    figures,
    tables: [],
    notes,
  };
}
