// Experiment (not part of `npm run bench`), issue 39: SQLite parse + store of one closing file, the
// files' table keyed (day, symbol) against (day DESC, symbol), interleaved in one run, files newest
// first as the backfill asks for them; then a day's read and the database's size.
//   npx tsx bench/experiments/sqlite-file-store.ts          FILES=250
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqliteArchive } from '../../src/archive/sqlite-archive.ts';
import { parseDailyFileBody } from '../../src/exchange/parsers/daily-file.ts';
import { weekdays } from '../archive-data.ts';
import { realSizeFile } from '../archive-files.ts';
import { quantile, round } from '../stats.ts';

const FILES = Number(process.env.FILES ?? 250);
const KEYS: Record<string, string> = { asc: 'day, symbol', desc: 'day DESC, symbol' };
const dirs: string[] = [];
try {
  const stores: Array<{ name: string; dir: string; store: SqliteArchive }> = [];
  for (const [name, key] of Object.entries(KEYS)) {
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-sqlite-files-'));
    dirs.push(dir);
    // Made first, so the archive's CREATE TABLE IF NOT EXISTS keeps this layout.
    const db = new DatabaseSync(join(dir, 'archive.sqlite'));
    db.exec(`CREATE TABLE file_rows (
      day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
      marker TEXT, open REAL, high REAL, low REAL, close REAL, volume REAL, ldcp REAL,
      underlying TEXT, contract_month TEXT, cash_settled INTEGER, series TEXT,
      PRIMARY KEY (${key})) WITHOUT ROWID`);
    db.close();
    stores.push({ name, dir, store: new SqliteArchive(dir) });
  }
  const days = weekdays(FILES, '2015-12-31').reverse();
  const ms: Record<string, number[]> = {};
  const load = [loadavg()[0]!];
  for (let i = 0; i < days.length; i++) {
    const body = realSizeFile(days[i]!);
    for (let k = 0; k < stores.length; k++) {
      const v = stores[(i + k) % stores.length]!;
      const t0 = performance.now();
      await v.store.files.writeFile(days[i]!, parseDailyFileBody(body).rows, 0);
      (ms[v.name] ??= []).push(performance.now() - t0);
    }
  }
  load.push(loadavg()[0]!);
  console.log(
    `${new Date().toISOString()} load ${load.map((l) => l.toFixed(1)).join(' → ')}, ${FILES} files each`,
  );
  for (const v of stores) {
    const a = ms[v.name]!;
    const day: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await v.store.files.fileRows(days[(i * 7) % days.length]!);
      day.push(performance.now() - t);
    }
    await v.store.close();
    const bytes = statSync(join(v.dir, 'archive.sqlite')).size;
    console.log(
      `${v.name.padEnd(5)} parse+store p50 ${round(quantile(a, 0.5))} ms, p90 ${round(quantile(a, 0.9))}, min ${round(Math.min(...a))}, mean ${round(a.reduce((x, y) => x + y, 0) / a.length)}; day read p50 ${round(quantile(day, 0.5))} ms; ${round(bytes / 1048576)} MB`,
    );
  }
} finally {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
