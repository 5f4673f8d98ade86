// Synthetic archive contents for the archive benchmarks: N symbols × D weekdays of random-walk
// daily bars ending 2026-11-20, written through the archive's own interface (a history each).
import { PostgresArchive } from '../src/archive/postgres-archive.ts';
import type { ArchiveStore, DailyBar } from '../src/archive/store.ts';
import { mulberry32 } from '../dev/fake-portal/dataset.ts';
import { postgresUnavailableReason, startPostgres } from '../test/helpers/postgres.ts';

/**
 * `use` with a PostgreSQL archive on a server started on loopback like the tests' (`durable`: with
 * fsync, as a real server runs); without the binaries the reason goes to `notes` and nothing runs.
 */
export async function withPostgresArchive(
  notes: string[],
  use: (store: PostgresArchive) => Promise<void>,
  options: { durable?: boolean } = {},
): Promise<void> {
  const skip = postgresUnavailableReason();
  if (skip) {
    notes.push(skip);
    return;
  }
  const pg = await startPostgres(options);
  try {
    const store = new PostgresArchive(pg.url);
    try {
      await use(store);
    } finally {
      await store.close();
    }
  } finally {
    await pg.destroy();
  }
}

export function weekdays(count: number, last = '2026-11-20'): string[] {
  const out: string[] = [];
  let t = Date.parse(`${last}T00:00:00Z`);
  while (out.length < count) {
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) out.push(new Date(t).toISOString().slice(0, 10));
    t -= 86_400_000;
  }
  return out.reverse();
}

export function symbolName(i: number): string {
  let s = '';
  for (let n = i, k = 0; k < 4; k++, n = Math.floor(n / 26)) s = String.fromCharCode(65 + (n % 26)) + s;
  return `Z${s}`;
}

export async function fillArchive(store: ArchiveStore, symbols: number, days: number): Promise<string[]> {
  const dates = weekdays(days);
  const names: string[] = [];
  for (let i = 0; i < symbols; i++) {
    const symbol = symbolName(i);
    names.push(symbol);
    const rand = mulberry32(i + 1);
    let close = 20 + rand() * 500;
    const bars: DailyBar[] = dates.map((date) => {
      const open = Math.round(close * (1 + (rand() - 0.5) * 0.02) * 100) / 100;
      close = Math.max(1, Math.round(close * (1 + (rand() - 0.5) * 0.06) * 100) / 100);
      const high = Math.round(Math.max(open, close) * (1 + rand() * 0.02) * 100) / 100;
      const low = Math.round(Math.min(open, close) * (1 - rand() * 0.02) * 100) / 100;
      return { symbol, date, open, high, low, close, volume: Math.floor(rand() * 2e6), anomaly_reasons: [] };
    });
    await store.writeHistory(symbol, bars, 0);
  }
  return names;
}
