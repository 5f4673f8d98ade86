// Soak: mixed traffic (20 connections over 14 paths, histories and indicators over many symbols, some
// answers gzip, some CSV) while the fake portal cycles ok → slow → 500 → garbage → down → 429, then
// the RSS of the service's process 30 s after the load stops. The service is the compiled `dist/`
// started as `npm start` starts it (its node flags and MALLOC_MMAP_THRESHOLD_), read from outside
// through /proc, as an operator's graph reads it: no forced collection.
// BENCH_SOAK_SECONDS (default 60 in `npm run bench`; the issue's soak is 180) sets the load's length.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon, { type Request } from 'autocannon';
import { request } from 'undici';
import { npmStartNodeArgs } from '../scripts/npm-start.ts';
import { describeMachine } from './machine.ts';
import { REAL_SIZE } from './pages.ts';
import { serviceEnv, startPortal } from './processes.ts';
import type { Figure, Section } from './report.ts';
import { sleep } from './stats.ts';

const CONNECTIONS = 20;
/** Symbols the per-symbol paths rotate through: more histories than the memory tier holds. */
const SYMBOLS = 400;
const PHASE_MS = 5_000;
const AFTER_MS = 30_000;
const TARGET_MB = 200;

/** The portal's states, in order, each for PHASE_MS, repeated for the whole load. */
const PHASES: { name: string; rule?: Record<string, unknown> }[] = [
  { name: 'ok' },
  { name: 'slow', rule: { mode: 'slow', delayMs: 1500 } },
  { name: '500', rule: { mode: 'status', status: 500 } },
  { name: 'garbage', rule: { mode: 'garbage' } },
  { name: 'down', rule: { mode: 'down' } },
  { name: '429', rule: { mode: 'status', status: 429 } },
];

/** The process's own view of its memory, from its Prometheus metrics (MB). */
async function heapFigures(url: string): Promise<Record<string, number>> {
  const text = await (await request(`${url}/metrics`)).body.text();
  const read = (name: string): number => {
    const m = new RegExp(`^psxmd_${name} (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) / 2 ** 20 : Number.NaN;
  };
  return {
    heapUsed: read('nodejs_heap_size_used_bytes'),
    heapTotal: read('nodejs_heap_size_total_bytes'),
    external: read('nodejs_external_memory_bytes'),
  };
}

function anonMb(pid: number): number {
  const match = /RssAnon:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function control(portal: string, path: string, body?: unknown): Promise<void> {
  const res = await request(`${portal}/__fake/${path}`, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  await res.body.dump();
}

/** The 14 paths; `{s}` is replaced by the next symbol of the rotation. */
const PATHS: { path: string; gzip?: boolean }[] = [
  { path: '/stocks/{s}/historical', gzip: true },
  { path: '/stocks/{s}/historical' },
  { path: '/stocks/{s}/historical?format=csv' },
  { path: '/stocks/{s}/indicators?i=sma:20,rsi:14' },
  { path: '/stocks/{s}/performance' },
  { path: '/stocks/{s}/quote' },
  { path: '/screener', gzip: true },
  { path: '/stocks' },
  { path: '/indices' },
  { path: '/indices/KSE100' },
  { path: '/sectors' },
  { path: '/market/summary' },
  { path: '/market/movers' },
  { path: '/quotes?symbols=ENGRO,HBL,LUCK' },
];

export async function runSoak(): Promise<Section> {
  const startedAt = new Date();
  const loadMs = Number(process.env.BENCH_SOAK_SECONDS ?? 60) * 1000;
  const portal = await startPortal('soak-portal', {
    extraSymbols: SYMBOLS,
    historyRows: REAL_SIZE.historyRows,
  });
  const cacheDir = mkdtempSync(join(tmpdir(), 'psxmd-bench-soak-'));
  const child = spawn(process.execPath, [...npmStartNodeArgs(), 'dist/main.js'], {
    env: { ...process.env, ...serviceEnv(portal.url, cacheDir) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const samples: { at: number; phase: string; rss: number }[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`soak service exited with ${code}`)));
      // The access log is read and dropped (LOG_LEVEL=info, as npm start logs).
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (m) resolve(m[1] as string);
      });
    });
    const pid = child.pid as number;
    const rotation = ((await (await request(`${url}/stocks`)).body.json()) as { data: string[] }).data;
    await sleep(3000);
    const idle = rssMb(pid);

    let next = 0;
    const requests: Request[] = PATHS.map((p) => ({
      method: 'GET',
      path: p.path,
      headers: p.gzip ? { 'accept-encoding': 'gzip' } : {},
      setupRequest: (req: Request) => ({
        ...req,
        path: p.path.replace('{s}', encodeURIComponent(rotation[next++ % rotation.length] as string)),
      }),
    }));
    let phase = 0;
    let phaseName = 'ok';
    const cycling = setInterval(() => {
      phase = (phase + 1) % PHASES.length;
      const p = PHASES[phase]!;
      phaseName = p.name;
      void control(portal.url, 'clear').then(() =>
        p.rule ? control(portal.url, 'fail', p.rule) : undefined,
      );
    }, PHASE_MS);
    const loadStart = Date.now();
    const sampling = setInterval(
      () => samples.push({ at: Date.now() - loadStart, phase: phaseName, rss: rssMb(pid) }),
      1000,
    );
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: loadMs / 1000,
      requests,
      timeout: 30,
    });
    clearInterval(cycling);
    await control(portal.url, 'clear');
    const ended = rssMb(pid);
    await sleep(AFTER_MS);
    clearInterval(sampling);
    const after = rssMb(pid);
    const afterAnon = anonMb(pid);
    const heap = await heapFigures(url);
    const peak = Math.max(...samples.map((s) => s.rss));
    const figures: Figure[] = [
      { id: 'soak.idle_rss', label: 'idle RSS before the load', value: idle, unit: 'MB' },
      { id: 'soak.peak_rss', label: 'peak RSS during the load', value: peak, unit: 'MB' },
      { id: 'soak.end_rss', label: 'RSS when the load stops', value: ended, unit: 'MB' },
      {
        id: 'soak.after_rss',
        label: `RSS ${AFTER_MS / 1000} s after the load stops`,
        value: after,
        unit: 'MB',
        target: { op: '<=', limit: TARGET_MB },
      },
      { id: 'soak.after_anon', label: '… of which anonymous (heap, malloc)', value: afterAnon, unit: 'MB' },
      { id: 'soak.after_heap_used', label: '… V8 heap used then', value: heap.heapUsed!, unit: 'MB' },
      { id: 'soak.after_heap_total', label: '… V8 heap reserved then', value: heap.heapTotal!, unit: 'MB' },
      { id: 'soak.after_external', label: '… external (Buffers) then', value: heap.external!, unit: 'MB' },
      { id: 'soak.requests', label: 'answers during the load', value: result.requests.total, unit: '' },
    ];
    const byTen = samples.filter((_, i) => i % 10 === 9);
    return {
      id: 'soak',
      title: `Soak: ${loadMs / 1000} s of mixed traffic while the portal fails in turn, RSS after`,
      startedAt: startedAt.toISOString(),
      durationSec: (Date.now() - startedAt.getTime()) / 1000,
      machine: describeMachine(),
      figures,
      tables: [
        {
          title: 'RSS every 10 s (MB)',
          columns: ['s', 'portal', 'RSS'],
          rows: byTen.map((s) => [Math.round(s.at / 1000), s.phase, Math.round(s.rss)]),
        },
      ],
      notes: [
        `${CONNECTIONS} connections (autocannon) over ${PATHS.length} paths, per-symbol ones rotating over ${rotation.length} symbols (histories of ${REAL_SIZE.historyRows} rows); the portal changes state every ${PHASE_MS / 1000} s: ${PHASES.map((p) => p.name).join(' → ')}.`,
        `Answers by status: ${JSON.stringify(result.statusCodeStats ?? {})}; errors ${result.errors}, timeouts ${result.timeouts}.`,
        `The compiled service with npm start's node flags and environment${process.env.MALLOC_ARENA_MAX ? ` and MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : ''}; RSS read from /proc, no forced collection.`,
      ],
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    rmSync(cacheDir, { recursive: true, force: true });
    await portal.stop();
  }
}
