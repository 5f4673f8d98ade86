// `npx tsx bench/archive-size.ts [symbols] [days]`: the SQLite archive's size on disk for N symbols
// × D trading days of daily bars (default 1,000 × 2,500 ≈ 10 years). Recorded in bench/README.md.
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteArchive } from '../src/archive/sqlite-archive.ts';
import { fillArchive } from './archive-data.ts';

export async function archiveSizeMb(symbols: number, days: number): Promise<{ mb: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-archive-size-'));
  try {
    const store = new SqliteArchive(dir);
    const t0 = performance.now();
    await fillArchive(store, symbols, days);
    const seconds = (performance.now() - t0) / 1000;
    await store.close();
    let bytes = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      const p = join(dir, `archive.sqlite${suffix}`);
      if (existsSync(p)) bytes += statSync(p).size;
    }
    return { mb: Math.round((bytes / 1024 / 1024) * 10) / 10, seconds: Math.round(seconds * 10) / 10 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const symbols = Number(process.argv[2] ?? 1000);
  const days = Number(process.argv[3] ?? 2500);
  const { mb, seconds } = await archiveSizeMb(symbols, days);
  console.log(`${symbols} symbols × ${days} days: ${mb} MB (SQLite), written in ${seconds} s`);
}
