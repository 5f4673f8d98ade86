// `npm start` runs the compiled service (dist/, built by `npm ci` through the prepare script) with
// plain node, and serves what the README promises: the API and the built dashboard at /.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';

describe('the compiled service (npm start)', () => {
  let portal: FakePortal;
  let service: ServiceProcess;
  let dir: string;

  before(async () => {
    assert.ok(existsSync('dist/main.js'), 'dist/main.js is missing: `npm ci` or `npm run build` makes it');
    portal = await startFakePortal();
    dir = mkdtempSync(join(tmpdir(), 'psxmd-compiled-'));
    service = await spawnService(
      { EXCHANGE_BASE_URL: portal.url, CACHE_DIR: dir, RATE_LIMIT_PER_MINUTE: '0', PARSER_WARM_UP: 'false' },
      60_000,
      { compiled: true },
    );
  });

  after(async () => {
    service?.child.kill('SIGTERM');
    await service?.exited;
    await portal?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs JavaScript from dist/ without tsx, with the node flags of npm start', () => {
    assert.deepEqual(service.child.spawnargs.slice(1), [
      '--enable-source-maps',
      '--min-semi-space-size=16',
      'dist/main.js',
    ]);
  });

  it('idles with its young generation at the 16 MB floor once settled', async () => {
    // The settle-time collection shrinks the young generation to its floor; at V8's default floor
    // (1 MB) it would stay near it under load, and every answer would pay for extra scavenges.
    const MB = 1024 * 1024;
    let newSpace = Number.NaN;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const text = await (await request(`${service.url}/metrics`)).body.text();
      newSpace = Number(/^psxmd_nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(text)?.[1]);
      if (newSpace <= 16 * MB) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(newSpace, 16 * MB, `new space ${newSpace / MB} MB`);
  });

  it('answers the API', async () => {
    const res = await request(`${service.url}/indices`);
    assert.equal(res.statusCode, 200);
    const body = (await res.body.json()) as { data: { index: string }[] };
    assert.ok(body.data.some((level) => level.index === 'KSE100'));
  });

  it('serves the built dashboard at /, not the "not built" page', async () => {
    const res = await request(`${service.url}/`);
    assert.equal(res.statusCode, 200);
    const html = await res.body.text();
    assert.match(html, /<script type="module"[^>]+src="\/assets\/index-[\w-]+\.js"/);
    assert.doesNotMatch(html, /has not been built/);
  });
});
