// Start-up: time from spawning the service's process to its "Server listening" log line, and its
// RSS once it has sat idle, for the ways it can be started: the compiled dist/ with plain node
// (`npm start`) and the TypeScript sources through tsx (how `npm start` ran before the build step).
// The portal is never contacted at start (a dummy loopback address); each start gets an empty store.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { npmStartNodeArgs } from '../scripts/npm-start.ts';
import { describeMachine } from './machine.ts';
import type { Figure, Section } from './report.ts';
import { median, sleep } from './stats.ts';

const RUNS = 3;
/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SEC = 100;
/** Idle time before RSS is read: the start-up garbage has been collected, timers have settled. */
const IDLE_MS = 3000;

interface Variant {
  id: string;
  label: string;
  args: string[];
  env?: Record<string, string>;
  targets: boolean;
}

function npmStartArgs(): string[] {
  return [...npmStartNodeArgs(), 'dist/main.js'];
}

const VARIANTS: Variant[] = [
  { id: 'compiled', label: 'compiled (npm start)', args: npmStartArgs(), targets: true },
  {
    id: 'compiled-no-warm-up',
    label: 'compiled, PARSER_WARM_UP=false',
    args: npmStartArgs(),
    env: { PARSER_WARM_UP: 'false' },
    targets: false,
  },
  { id: 'tsx', label: 'tsx (before)', args: ['--import', 'tsx', 'src/main.ts'], targets: false },
];

interface Start {
  /** From spawn() in the runner to reading the log line (includes the runner's own delays). */
  spawnToListeningMs: number;
  /** The process's own: from its creation (kernel start time) to the time in its listening line. */
  listeningMs: number;
  /** CPU time (user + system) the process had used when the runner read the line. */
  cpuMs: number;
  idleRssMb: number;
}

/** Milliseconds since boot, to 10 ms (/proc/uptime; /proc/stat's btime is whole seconds only). */
const uptimeMs = (): number => Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;

/** Fields of /proc/PID/stat after the command name: [0] is field 3 (state). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The process's age now (ms), from the kernel's record of its start. */
function processAgeMs(pid: number): number {
  return uptimeMs() - (Number(statFields(pid)[19]) / TICKS_PER_SEC) * 1000;
}

function cpuMs(pid: number): number {
  const f = statFields(pid);
  return ((Number(f[11]) + Number(f[12])) / TICKS_PER_SEC) * 1000;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function startOnce(variant: Variant): Promise<Start> {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-bench-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      CACHE_DIR: dir,
      EXCHANGE_BASE_URL: 'http://127.0.0.1:9',
      MALLOC_MMAP_THRESHOLD_: '131072',
      ...variant.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const pid = child.pid!;
    const seen = await new Promise<{ spawnToListeningMs: number; listeningMs: number; cpuMs: number }>(
      (resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`${variant.label}: exited with ${code} before listening`)),
        );
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (!line.includes('Server listening at')) return;
          const loggedAt = (JSON.parse(line) as { time: number }).time;
          resolve({
            spawnToListeningMs: performance.now() - started,
            // Its age now, less the time since it stamped the line.
            listeningMs: processAgeMs(pid) - (Date.now() - loggedAt),
            cpuMs: cpuMs(pid),
          });
        });
      },
    );
    await sleep(IDLE_MS);
    return {
      spawnToListeningMs: seen.spawnToListeningMs,
      listeningMs: seen.listeningMs,
      cpuMs: seen.cpuMs,
      idleRssMb: rssMb(pid),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runStartup(): Promise<Section> {
  const startedAt = new Date();
  if (!existsSync('dist/main.js')) throw new Error('dist/main.js is missing: run `npm run build` first');
  const figures: Figure[] = [];
  const rows: (string | number)[][] = [];
  for (const variant of VARIANTS) {
    const starts: Start[] = [];
    for (let i = 0; i < RUNS; i++) starts.push(await startOnce(variant));
    const listening = median(starts.map((s) => s.listeningMs)) / 1000;
    const rss = median(starts.map((s) => s.idleRssMb));
    figures.push(
      {
        id: `startup.${variant.id}.listening`,
        label: `${variant.label}: start → listening (the process's own)`,
        value: listening,
        unit: 's',
        ...(variant.targets ? { target: { op: '<=' as const, limit: 1.0 } } : {}),
      },
      {
        id: `startup.${variant.id}.cpu`,
        label: `${variant.label}: CPU time to listening`,
        value: median(starts.map((s) => s.cpuMs)) / 1000,
        unit: 's',
      },
      {
        id: `startup.${variant.id}.spawn_to_listening`,
        label: `${variant.label}: spawn() → line read by the runner`,
        value: median(starts.map((s) => s.spawnToListeningMs)) / 1000,
        unit: 's',
      },
      {
        id: `startup.${variant.id}.idle_rss`,
        label: `${variant.label}: idle RSS`,
        value: rss,
        unit: 'MB',
        ...(variant.targets ? { target: { op: '<=' as const, limit: 110 } } : {}),
      },
    );
    rows.push([
      variant.label,
      starts.map((s) => Math.round(s.listeningMs)).join(' / '),
      starts.map((s) => Math.round(s.cpuMs)).join(' / '),
      starts.map((s) => Math.round(s.idleRssMb)).join(' / '),
    ]);
  }
  return {
    id: 'startup',
    title: `Start-up: process start → listening, idle RSS (median of ${RUNS})`,
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine: describeMachine(),
    figures,
    tables: [
      {
        title: 'Every start',
        columns: [
          'how',
          'listening (ms)',
          'CPU to listening (ms)',
          `RSS after ${IDLE_MS / 1000} s idle (MB)`,
        ],
        rows,
      },
    ],
    notes: [
      `Node ${process.version}; MALLOC_MMAP_THRESHOLD_=131072 as npm start sets it; an empty store per start; the portal is never contacted.`,
      'Listening (judged): the process\'s own, from its creation (/proc/PID/stat start time, 10 ms ticks) to the time stamped in its "Server listening at" log line; the runner\'s delay in reading the line is not in it. CPU time: user + system of the process when the runner read the line (the parser warm-up starts right after listening and may be partly in it). On a loaded machine the wall times include waiting for a core; the CPU time does not.',
    ],
  };
}
