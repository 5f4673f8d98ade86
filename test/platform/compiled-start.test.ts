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

  it('runs JavaScript from dist/ without tsx', () => {
    assert.deepEqual(service.child.spawnargs.slice(1), ['--enable-source-maps', 'dist/main.js']);
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
