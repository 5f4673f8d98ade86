// The client as another project gets it: `npm pack` of packages/client, installed from the tarball
// into an empty folder with the network off (`npm ci --offline`: its dependency openapi-fetch comes
// from the npm cache that this project's `npm ci` filled, pinned by a lockfile written from ours,
// since `npm ci` caches tarballs but not the registry's version lists), then used from plain Node
// (no tsx), type-checked by a consumer's own tsc, and bundled by Vite — each against the real
// running service.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { API_VERSION } from '../../src/http/app.ts';
import { startService, type RunningService } from '../helpers/service.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT_DIR = join(ROOT, 'packages/client');
// Asynchronous: the service answering the consumer runs in this process, whose event loop a
// synchronous child would block.
const run = promisify(execFile);

// A consumer's first lines: ESM import, a JSON call, a CSV call, an error.
const USE = `
import { ApiError, createClient, getCsv, unwrap } from 'psx-market-data-client';
const api = createClient({ baseUrl: process.argv[2] });
const { data } = await unwrap(api.GET('/indices'));
const csv = await getCsv(api, '/sectors');
let notFound;
try {
  await unwrap(api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'NOSUCH' } } }));
} catch (err) {
  notFound = err instanceof ApiError ? err.code : String(err);
}
console.log(JSON.stringify({ indices: data.map((level) => level.index), csvHeader: csv.split(/\\r?\\n/)[0], notFound }));
`;

function npm(args: string[], cwd: string): string {
  // npm_execpath is set when the suite runs under `npm test`; otherwise npm from PATH. The parent
  // npm's own variables (its project folder, its package) would make this npm act on our project.
  const npmCli = process.env.npm_execpath;
  const [command, prefix] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_(package_|lifecycle_|config_local_prefix$|command$)/i.test(key),
    ),
  );
  return execFileSync(command, [...prefix, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
}

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const CLIENT_LOCK_PATH = 'packages/client';
const CLIENT_CONSUMER_PATH = 'node_modules/psx-market-data-client';

/**
 * A consumer's lockfile: the tarball, and the client's dependencies exactly as this project locks
 * them, each found as Node finds it (the nearest node_modules up from the package that needs it),
 * so a dependency nested for a version conflict stays nested.
 */
function consumerLockfile(tarball: string, tarballBytes: Buffer): object {
  const rootLock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const client = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as LockEntry;
  const packages: Record<string, object> = {
    '': { name: 'consumer', dependencies: { 'psx-market-data-client': `file:${tarball}` } },
    [CLIENT_CONSUMER_PATH]: {
      version: client.version,
      resolved: `file:${tarball}`,
      integrity: `sha512-${createHash('sha512').update(tarballBytes).digest('base64')}`,
      dependencies: client.dependencies,
    },
  };
  const resolve = (from: string, name: string): string | undefined => {
    let base = from;
    for (;;) {
      const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
      if (rootLock.packages[candidate]) return candidate;
      if (base === '' || base === CLIENT_LOCK_PATH) {
        if (base === '') return undefined;
        base = '';
        continue;
      }
      const i = base.lastIndexOf('/node_modules/');
      base = i === -1 ? '' : base.slice(0, i);
    }
  };
  const needs = (entry: LockEntry): string[] => [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !entry.peerDependenciesMeta?.[n]?.optional),
  ];
  const queue: [string, string][] = needs(client).map((name) => [CLIENT_LOCK_PATH, name]);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const [from, name] = next;
    const path = resolve(from, name);
    const entry = path === undefined ? undefined : rootLock.packages[path];
    assert.ok(path !== undefined && entry, `${name} is in package-lock.json`);
    const at = path.startsWith(`${CLIENT_LOCK_PATH}/`)
      ? `${CLIENT_CONSUMER_PATH}/${path.slice(CLIENT_LOCK_PATH.length + 1)}`
      : path;
    if (packages[at]) continue;
    const file = `${name.split('/').pop()}-${entry.version}.tgz`;
    packages[at] = { ...entry, resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${file}` };
    for (const dep of needs(entry)) queue.push([path, dep]);
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}

describe('the client package, installed from its tarball', () => {
  let portal: FakePortal;
  let service: RunningService;
  let dir: string;

  before(async () => {
    portal = await startFakePortal();
    service = await startService(portal.url);
    dir = mkdtempSync(join(tmpdir(), 'psxmd-client-'));
    npm(['pack', '--pack-destination', dir], CLIENT_DIR);
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    renameSync(join(dir, tarball), join(consumer, tarball));
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: { 'psx-market-data-client': `file:${tarball}` },
      }),
    );
    const lock = consumerLockfile(tarball, readFileSync(join(consumer, tarball)));
    writeFileSync(join(consumer, 'package-lock.json'), JSON.stringify(lock, null, 2));
    npm(['ci', '--offline'], consumer);
  });

  after(async () => {
    await service?.close();
    await portal?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is versioned as the API it describes', () => {
    const pkg = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as { version: string };
    assert.equal(pkg.version, API_VERSION);
  });

  it('installs lean: openapi-fetch and its one dependency, not the MCP SDK (an optional peer of the bridge)', () => {
    const modules = join(dir, 'consumer/node_modules');
    const installed = readdirSync(modules)
      .filter((name) => !name.startsWith('.'))
      .flatMap((name) =>
        name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name],
      );
    assert.ok(installed.length <= 5, `installed: ${installed.join(', ')}`);
    assert.ok(!installed.includes('@modelcontextprotocol/sdk'));
  });

  it('holds compiled JavaScript and declarations, and nothing of the service', () => {
    const installed = join(dir, 'consumer/node_modules/psx-market-data-client');
    const files = readdirSync(join(installed, 'dist'));
    for (const name of ['index.js', 'index.d.ts', 'schema.d.ts']) assert.ok(files.includes(name), name);
    const js = readFileSync(join(installed, 'dist/index.js'), 'utf8');
    assert.doesNotMatch(js, /from ['"]\.\.\/\.\.\/|src\/server|fastify/);
  });

  it('works from plain node: ESM import, JSON, CSV as text, errors', async () => {
    const consumer = join(dir, 'consumer');
    writeFileSync(join(consumer, 'use.mjs'), USE);
    const { stdout } = await run(process.execPath, ['use.mjs', service.url], { cwd: consumer });
    const out = JSON.parse(stdout);
    assert.ok(out.indices.includes('KSE100'));
    assert.match(out.csvHeader, /^[a-z_]+(,[a-z_]+)+$/);
    assert.equal(out.notFound, 'not_found');
  });

  it('works from a CommonJS project: require(), booleans in the query', async () => {
    // require() of the ES module client: Node 20.19+, 22.12+ and 24 load it synchronously.
    const consumer = join(dir, 'consumer');
    writeFileSync(
      join(consumer, 'use.cjs'),
      `const { createClient, unwrap } = require('psx-market-data-client');
const api = createClient({ baseUrl: process.argv[2] });
unwrap(
  api.GET('/stocks/{symbol}/historical', {
    params: { path: { symbol: 'ENGRO' }, query: { adjusted: true, limit: 3 } },
  }),
).then((body) => console.log(JSON.stringify({ rows: body.data.length, adjustment: body.meta.adjustment?.status })));
`,
    );
    const { stdout } = await run(process.execPath, ['use.cjs', service.url], { cwd: consumer });
    const out = JSON.parse(stdout);
    assert.equal(out.rows, 3);
    // Only an adjusted answer carries meta.adjustment: `true` reached the service as adjusted=true.
    assert.match(out.adjustment, /^(full|partial|unavailable)$/);
  });

  it('type-checks in a TypeScript consumer: a wrong field is a compile error', () => {
    const consumer = join(dir, 'consumer');
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['typed.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const good = `import { createClient, unwrap } from 'psx-market-data-client';
export async function price(): Promise<number | null> {
  const api = createClient({ baseUrl: 'http://127.0.0.1:8000' });
  const { data } = await unwrap(api.GET('/stocks/{symbol}/quote', { params: { path: { symbol: 'ENGRO' } } }));
  return data.price;
}
export async function adjusted(): Promise<number> {
  const api = createClient({ baseUrl: 'http://127.0.0.1:8000' });
  const { data } = await unwrap(
    api.GET('/stocks/{symbol}/historical', {
      params: { path: { symbol: 'ENGRO' }, query: { adjusted: true, dividends: false } },
    }),
  );
  return data.length;
}
`;
    writeFileSync(join(consumer, 'typed.ts'), good);
    execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: consumer, encoding: 'utf8' });
    writeFileSync(join(consumer, 'typed.ts'), good.replace('data.price', 'data.prcie'));
    assert.throws(
      () =>
        execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: consumer, encoding: 'utf8', stdio: 'pipe' }),
      (err: { stdout?: string }) => /prcie/.test(err.stdout ?? ''),
    );
    // A flag takes true/false (or the two strings), nothing else.
    writeFileSync(join(consumer, 'typed.ts'), good.replace('adjusted: true', "adjusted: 'yes'"));
    assert.throws(
      () =>
        execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: consumer, encoding: 'utf8', stdio: 'pipe' }),
      // tsc names the literal ("yes") or its widened type (string), depending on inference.
      (err: { stdout?: string }) =>
        /error TS\d+/.test(err.stdout ?? '') && /"yes"|'string'/.test(err.stdout ?? ''),
    );
  });

  it('works bundled by Vite into one file run by node', async () => {
    const consumer = join(dir, 'consumer');
    writeFileSync(join(consumer, 'use.mjs'), USE);
    const { build } = await import('vite');
    await build({
      root: consumer,
      configFile: false,
      logLevel: 'silent',
      ssr: { noExternal: true },
      build: { ssr: join(consumer, 'use.mjs'), outDir: join(consumer, 'bundle'), emptyOutDir: true },
    });
    const bundle = readdirSync(join(consumer, 'bundle')).find((name) => name.endsWith('.js'));
    assert.ok(bundle);
    const code = readFileSync(join(consumer, 'bundle', bundle), 'utf8');
    assert.doesNotMatch(
      code,
      /from ['"]psx-market-data-client|from ['"]openapi-fetch/,
      'the client is inlined',
    );
    // Run from elsewhere: nothing may be resolved from the consumer's node_modules at run time.
    const out = JSON.parse(
      (await run(process.execPath, [join(consumer, 'bundle', bundle), service.url], { cwd: tmpdir() }))
        .stdout,
    );
    assert.ok(out.indices.includes('KSE100'));
    assert.equal(out.notFound, 'not_found');
  });
});
