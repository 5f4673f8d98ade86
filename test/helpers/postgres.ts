// A real PostgreSQL (Debian's postgresql package) in a temp directory on a loopback port, owned by
// the test (so it can be stopped and started again). Without the binaries the caller skips, saying
// why; .ci/run installs them from the OS packages. PostgreSQL refuses to run as root: when the test
// runs as root, initdb and postgres run as the `postgres` user (runuser).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe } from 'node:test';

export interface TestPostgres {
  /** postgres://… on 127.0.0.1, trust authentication, database `postgres`. */
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Removes the data directory (after stop). */
  destroy(): Promise<void>;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

function runAs(): { user: string | undefined; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { user: undefined };
  const probe = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (probe.status !== 0) return { user: undefined };
  return { user: 'postgres', uid: Number(probe.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export function postgresUnavailableReason(): string | undefined {
  if (!binDir()) return 'postgresql is not installed (apt-get install postgresql); PostgreSQL tests skipped';
  if (process.getuid?.() === 0 && runAs().user === undefined)
    return 'running as root without a postgres user to run the server as; PostgreSQL tests skipped';
  return undefined;
}

function command(bin: string, args: string[]): [string, string[]] {
  const { user } = runAs();
  return user ? ['runuser', ['-u', user, '--', bin, ...args]] : [bin, args];
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * `durable`: the server's defaults (fsync, full-page writes), as a real deployment runs, for a
 * benchmark of a write path; tests leave it off.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  const bin = binDir();
  if (!bin) throw new Error('postgresql is not installed');
  const owner = runAs();
  const root = mkdtempSync(join(tmpdir(), 'psxmd-pg-'));
  const data = join(root, 'data');
  if (owner.uid !== undefined) {
    chownSync(root, owner.uid, owner.gid!);
    chmodSync(root, 0o700);
  }
  const [initCmd, initArgs] = command(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    const [cmd, args] = command(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      root,
      // No fsync: a stop here kills the server, never the machine, so the OS keeps every write;
      // commits still wait for the WAL (a stopped server loses nothing committed).
      ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off']),
    ]);
    child = spawn(cmd, args, { stdio: 'ignore' });
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error('postgres exited at start');
      // Accepting connections comes before accepting queries (recovery after a crash): pg_isready
      // answers 0 only for the latter.
      const ready = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
      if (ready.status === 0) return;
      await sleep(50);
    }
    throw new Error('postgres did not start');
  };
  const stop = async () => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    // Immediate shutdown, as a crash looks to the client (pg_ctl signals the server itself, which
    // runs under runuser as another user).
    const exited = once(child, 'exit');
    const [cmd, args] = command(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate']);
    spawnSync(cmd, args, { stdio: 'ignore' });
    await exited;
    for (let i = 0; i < 100 && (await accepting(port)); i++) await sleep(50);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a suite against each archive store: SQLite (the default, no settings), then a PostgreSQL
 * started for it (skipped, saying why, where none can run here); `env` gives the service's settings.
 */
export function forEachStore(suite: (name: string, env: () => Record<string, string>) => void): void {
  suite('SQLite', () => ({}));
  let pg: TestPostgres | undefined;
  describe('PostgreSQL archive', { skip: postgresUnavailableReason() }, () => {
    before(async () => {
      pg = await startPostgres();
    });
    after(async () => {
      await pg?.destroy();
    });
    suite('PostgreSQL', () => ({ DATABASE_URL: pg!.url }));
  });
}
