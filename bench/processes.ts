// Child processes for the measured servers: each benchmark's server runs alone in its process
// (the load generator stays in the runner), started with tsx and talked to over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { FakePortalOptions } from '../dev/fake-portal/server.ts';
import { npmStartNodeArgs } from '../scripts/npm-start.ts';
import type { FromChild, MemoryReport, Route, ToChild } from './children/messages.ts';

export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  memory(): Promise<MemoryReport>;
  stop(): Promise<void>;
}

const CHILDREN = fileURLToPath(new URL('./children/', import.meta.url));
export const PROFILE_DIR = fileURLToPath(new URL('./results/tmp/profiles/', import.meta.url));

/**
 * `BENCH_CPU_PROF=1` runs every child with `--cpu-prof`; the profiles land in
 * bench/results/tmp/profiles/<label>-<time>/ (one file per thread: tsx's module-loader thread writes
 * its own, small one; the largest is the main thread). Open them in Chrome DevTools or speedscope,
 * or summarise with `tsx bench/profile.ts FILE`.
 */
function profileArgs(label: string): string[] {
  if (process.env.BENCH_CPU_PROF !== '1') return [];
  const dir = join(PROFILE_DIR, `${label}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', '--cpu-prof-dir', dir];
}

function nextMessage<T extends FromChild['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`child ${child.pid}: no "${type}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (msg: FromChild): void => {
      if (msg.type === type) done(null, msg as Extract<FromChild, { type: T }>);
      else if (msg.type === 'error') done(new Error(msg.message));
    };
    const onExit = (code: number | null): void =>
      done(new Error(`child ${child.pid} exited (${code}) before "${type}"`));
    function done(err: Error | null, msg?: Extract<FromChild, { type: T }>): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(msg as Extract<FromChild, { type: T }>);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function post(child: ChildProcess, msg: ToChild): void {
  child.send(msg);
}

// Levels at which a service writes only what is worth reading (not one line per request).
const QUIET_LEVELS = new Set(['warn', 'error', 'fatal', 'silent']);

async function start(
  entry: string,
  label: string,
  env: Record<string, string>,
  first?: ToChild,
): Promise<ChildServer> {
  // A service logging every request (the default, LOG_LEVEL=info) writes its log to /dev/null:
  // the process pays for every line (serialising, buffering, writing) as deployed, and the runner
  // does not spend the shared cores reading tens of MB; at a quiet level its warnings show in the
  // runner's output.
  const quiet = env.LOG_LEVEL === undefined || QUIET_LEVELS.has(env.LOG_LEVEL);
  const child = fork(join(CHILDREN, entry), [], {
    // npm start's node flags (the young generation's floor among them) on every server, the
    // ceilings included, so that all of them run on the heap the service is deployed with.
    execArgv: ['--import', 'tsx', '--expose-gc', ...npmStartNodeArgs(), ...profileArgs(label)],
    // Measured as deployed: production does not freeze cached datasets (src/cache/immutable.ts).
    env: { CACHE_FREEZE_DATASETS: 'false', ...process.env, ...env },
    stdio: ['ignore', quiet ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (first) post(child, first);
  const { url } = await nextMessage(child, 'ready', 60_000);
  return {
    url,
    pid: child.pid as number,
    async memory() {
      post(child, { type: 'memory' });
      return (await nextMessage(child, 'memory', 60_000)).report;
    },
    async stop() {
      if (child.exitCode !== null) return;
      post(child, { type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The settings every benchmark runs the service with: no request limit, no portal budget, plain
 * TTLs, and the default log level (`info`, an access line per request), as `npm start` runs it.
 */
export function serviceEnv(
  exchangeBaseUrl: string,
  cacheDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    EXCHANGE_BASE_URL: exchangeBaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
    LOG_LEVEL: 'info',
    CACHE_DIR: cacheDir,
    // As `npm start` and the Dockerfile run the service (README, "Memory").
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
    ...extra,
  };
}

export interface ServiceProcess extends ChildServer {
  readonly cacheDir: string;
}

/** The real service in a child process, with a private (then deleted) cache directory. */
export async function startService(
  label: string,
  exchangeBaseUrl: string,
  extra: Record<string, string> = {},
): Promise<ServiceProcess> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'psxmd-bench-'));
  try {
    const child = await start('service.ts', label, serviceEnv(exchangeBaseUrl, cacheDir, extra));
    return {
      ...child,
      cacheDir,
      async stop() {
        await child.stop();
        rmSync(cacheDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(cacheDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The bare node:http server replaying `routes`; `oneWrite`: each body as a one-byte string, sent
 * with its header block in one write (bench/children/bare.ts).
 */
export function startBare(label: string, routes: Route[], oneWrite = false): Promise<ChildServer> {
  const env: Record<string, string> = oneWrite ? { BENCH_BARE_ONE_WRITE: '1' } : {};
  return start('bare.ts', label, env, { type: 'routes', routes });
}

/** A plugin-less Fastify app replaying `routes`: the framework's own ceiling. */
export function startFastifyReplay(label: string, routes: Route[]): Promise<ChildServer> {
  return start('fastify-replay.ts', label, {}, { type: 'routes', routes });
}

/** The fake portal in a child process, counted through its control API. */
export interface PortalProcess extends ChildServer {
  counts(): Promise<{ requests: Record<string, number> }>;
  resetCounts(): Promise<void>;
}

export async function startPortal(label: string, options: FakePortalOptions): Promise<PortalProcess> {
  const child = await start('portal.ts', label, { BENCH_PORTAL_OPTIONS: JSON.stringify(options) });
  return {
    ...child,
    async counts() {
      const res = await request(`${child.url}/__fake/counts`);
      return (await res.body.json()) as { requests: Record<string, number> };
    },
    async resetCounts() {
      const res = await request(`${child.url}/__fake/reset`, { method: 'POST' });
      await res.body.dump();
    },
  };
}
