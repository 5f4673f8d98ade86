// The archiver's backfill of a 1,000-symbol fake market on a 60-a-minute portal budget, with the
// default share (0.5). The fake portal itself refuses more than 60 data requests in any 60 s
// (`requestsPerMinute`), so "no 429" means the service kept within the portal's limit, not that the
// fake portal never refuses. The service runs as a child process (`src/main.ts`, as the resume test
// runs it) so that a full run can kill it with SIGKILL half-way and restart it on the same archive.
//
// Two lengths: a window of `seconds` (the default section run, a few minutes), or `full`: the whole
// backfill (about 34 minutes at 30 a minute), killed with SIGKILL when half the symbols are done,
// restarted, and run to the end; it reports how many symbols were fetched twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakePortal, type FakePortal } from '../dev/fake-portal/server.ts';
import { spawnService, type ServiceProcess } from '../test/helpers/process.ts';
import type { Figure } from './report.ts';
import { sleep } from './stats.ts';

export const BACKFILL_SYMBOLS = 1000;
const PORTAL_LIMIT = 60;
const SHARE = 0.5;
const SAMPLE_MS = 500;
const STATUS_EVERY_MS = 5000;
const FULL_RUN_LIMIT_MS = 90 * 60_000;

interface Sample {
  t: number;
  historical: number;
  data: number;
}

interface Status {
  symbols_done: number;
  symbols_total: number | null;
  archiver: string;
  rate_per_minute: number | null;
  eta_seconds: number | null;
}

function env(portalUrl: string, dir: string): Record<string, string> {
  return {
    EXCHANGE_BASE_URL: portalUrl,
    CACHE_DIR: dir,
    // The fake portal's market is a fixed day; the cache must not expire it by the real clock.
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    EXCHANGE_FETCH_LIMIT_GLOBAL: String(PORTAL_LIMIT),
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    ARCHIVE: 'on',
    ARCHIVE_BUDGET_SHARE: String(SHARE),
  };
}

async function status(url: string): Promise<Status | null> {
  try {
    const res = await fetch(`${url}/archive/status`);
    if (!res.ok) return null;
    return ((await res.json()) as { data: Status }).data;
  } catch {
    return null;
  }
}

/** Data requests the portal received (all but the token page) and `POST /historical` among them. */
function sampleOf(portal: FakePortal): Sample {
  const c = portal.counts();
  return {
    t: performance.now(),
    historical: c.requests['POST /historical'] ?? 0,
    data: c.total - (c.requests['GET /'] ?? 0),
  };
}

/** The most of `key` in any 60 s of the samples (a window ending at each sample). */
function maxPerMinute(samples: readonly Sample[], key: 'historical' | 'data'): number {
  let max = 0;
  let start = 0;
  for (const s of samples) {
    while (samples[start]!.t < s.t - 60_000) start += 1;
    max = Math.max(max, s[key] - samples[start]![key]);
  }
  return max;
}

/**
 * Runs the service until `stop` says so, sampling the portal's counts every SAMPLE_MS and the
 * service's status every STATUS_EVERY_MS.
 */
async function runUntil(
  svc: ServiceProcess,
  portal: FakePortal,
  samples: Sample[],
  statuses: Array<{ t: number; s: Status }>,
  stop: (s: Status | null, elapsedMs: number) => boolean,
): Promise<void> {
  const t0 = performance.now();
  let nextStatus = 0;
  let last: Status | null = null;
  for (;;) {
    samples.push(sampleOf(portal));
    const elapsed = performance.now() - t0;
    if (elapsed >= nextStatus) {
      last = await status(svc.url);
      if (last) statuses.push({ t: performance.now(), s: last });
      nextStatus = elapsed + STATUS_EVERY_MS;
    }
    if (stop(last, elapsed)) return;
    await sleep(SAMPLE_MS);
  }
}

const progressLines = (svc: ServiceProcess): number =>
  svc.logs.filter((l) => l.includes('archive backfill progress')).length;

export async function backfillFigures(
  length: number | 'full',
): Promise<{ figures: Figure[]; notes: string[] }> {
  const portal = await startFakePortal({
    extraSymbols: BACKFILL_SYMBOLS - 64,
    historyRows: 250,
    requestsPerMinute: PORTAL_LIMIT,
  });
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-bench-backfill-'));
  const samples: Sample[] = [];
  const statuses: Array<{ t: number; s: Status }> = [];
  const figures: Figure[] = [];
  const notes: string[] = [];
  const t0 = performance.now();
  let lines = 0;
  try {
    const first = await spawnService(env(portal.url, dir));
    if (length === 'full') {
      try {
        await runUntil(first, portal, samples, statuses, (s, ms) => {
          if (ms > FULL_RUN_LIMIT_MS) throw new Error('the first half of the backfill took too long');
          return s !== null && s.symbols_total !== null && s.symbols_done >= s.symbols_total / 2;
        });
      } finally {
        first.child.kill('SIGKILL');
        await first.exited;
      }
      lines += progressLines(first);
      const killedAt = Object.keys(portal.counts().historical).length;
      const second = await spawnService(env(portal.url, dir));
      let final: Status | null = null;
      try {
        await runUntil(second, portal, samples, statuses, (s, ms) => {
          if (ms > FULL_RUN_LIMIT_MS) throw new Error('the second half of the backfill took too long');
          final = s;
          return (
            s !== null &&
            s.archiver === 'idle' &&
            s.symbols_total !== null &&
            s.symbols_done === s.symbols_total
          );
        });
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
      lines += progressLines(second);
      const counts = portal.counts().historical;
      const twice = Object.values(counts).filter((n) => n > 1).length;
      const minutes = (performance.now() - t0) / 60_000;
      figures.push(
        {
          id: 'archive-backfill-fetched-twice',
          label: 'full backfill, SIGKILL half-way: symbols fetched twice (at most the one in flight)',
          value: twice,
          unit: 'symbols',
          target: { op: '<=', limit: 1 },
        },
        {
          id: 'archive-backfill-whole-minutes',
          label: `full backfill of ${Object.keys(counts).length} symbols, restart included`,
          value: Math.round(minutes * 10) / 10,
          unit: 'min',
        },
      );
      const done = final as Status | null;
      notes.push(
        `Full run: killed with SIGKILL at ${killedAt} symbols fetched, restarted on the same archive; finished with ${done?.symbols_done ?? '?'} of ${done?.symbols_total ?? '?'} symbols in ${minutes.toFixed(1)} min.`,
      );
    } else {
      try {
        await runUntil(first, portal, samples, statuses, (_s, ms) => ms >= length * 1000);
      } finally {
        first.child.kill('SIGTERM');
        await first.exited;
      }
      lines += progressLines(first);
      notes.push(
        `The backfill runs ${length} s of the ${BACKFILL_SYMBOLS}-symbol market (all of it takes about ${Math.ceil(BACKFILL_SYMBOLS / (PORTAL_LIMIT * SHARE))} minutes); BENCH_ARCHIVE_BACKFILL_SEC=full runs all of it with a SIGKILL half-way.`,
      );
    }
  } finally {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const c = portal.counts();
  const etas = statuses.filter((x) => x.s.eta_seconds !== null).length;
  figures.unshift(
    {
      id: 'archive-backfill-max-per-minute',
      label: `backfill: most archiver fetches in any 60 s (share ${PORTAL_LIMIT * SHARE} of ${PORTAL_LIMIT})`,
      value: maxPerMinute(samples, 'historical'),
      unit: 'fetches',
      target: { op: '<=', limit: PORTAL_LIMIT * SHARE },
    },
    {
      id: 'archive-backfill-portal-per-minute',
      label: `backfill: most portal data requests in any 60 s (the portal's limit ${PORTAL_LIMIT})`,
      value: maxPerMinute(samples, 'data'),
      unit: 'requests',
      target: { op: '<=', limit: PORTAL_LIMIT },
    },
    {
      id: 'archive-backfill-429',
      label: 'backfill: portal 429 answers',
      value: c.limited,
      unit: 'answers',
      target: { op: '==', limit: 0 },
    },
    {
      id: 'archive-backfill-done',
      label: 'backfill: symbols fetched',
      value: Object.keys(c.historical).length,
      unit: 'symbols',
    },
    {
      id: 'archive-backfill-progress-lines',
      label: 'backfill: progress lines in the log',
      value: lines,
      unit: 'lines',
    },
  );
  notes.push(
    `/archive/status was read ${statuses.length} times; ${etas} answers carried an estimated time left.`,
  );
  return { figures, notes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = process.argv[2] ?? 'full';
  const result = await backfillFigures(arg === 'full' ? 'full' : Number(arg));
  for (const f of result.figures) {
    const target = f.target ? ` (target ${f.target.op} ${f.target.limit})` : '';
    console.log(`${f.label}: ${f.value} ${f.unit}${target}`);
  }
  for (const n of result.notes) console.log(n);
}
