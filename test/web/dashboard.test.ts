// How the service serves the dashboard's files (no browser needed).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { registerDashboard } from '../../src/http/dashboard.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

describe('dashboard files', () => {
  let base: string;
  let dir: string;
  let app: FastifyInstance;

  before(async () => {
    // base/secret.txt beside base/dist: the file a path-traversal attempt would be after.
    base = mkdtempSync(join(tmpdir(), 'psxmd-dist-'));
    writeFileSync(join(base, 'secret.txt'), 'TOP-SECRET');
    dir = join(base, 'dist');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><title>t</title><script src="/assets/app-abc.js"></script>',
    );
    writeFileSync(join(dir, 'assets/app-abc.js'), 'console.log(1)');
    app = Fastify();
    await registerDashboard(app, { distDir: dir });
    await app.ready();
  });

  after(async () => {
    await app?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('serves index.html at / for revalidation, and hashed assets for good', async () => {
    const index = await app.inject('/');
    assert.equal(index.statusCode, 200);
    assert.match(index.headers['content-type'] as string, /text\/html/);
    assert.equal(index.headers['cache-control'], 'no-cache');
    const asset = await app.inject('/assets/app-abc.js');
    assert.equal(asset.statusCode, 200);
    assert.match(asset.headers['content-type'] as string, /javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  });

  it('answers nothing outside the build', async () => {
    assert.equal((await app.inject('/assets/nosuch.js')).statusCode, 404);
    for (const path of [
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
    ]) {
      const res = await app.inject(path);
      assert.ok(!res.body.includes('TOP-SECRET'), `${path} answered ${res.statusCode}: ${res.body}`);
    }
  });

  it('tells how to build the dashboard when it has not been built', async () => {
    const bare = Fastify();
    await registerDashboard(bare, { distDir: join(dir, 'missing') });
    const res = await bare.inject('/');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /npm run build:web/);
    await bare.close();
  });
});

describe('dashboard in the service', () => {
  let portal: FakePortal;
  let service: RunningService;

  before(async () => {
    portal = await startFakePortal();
    // A tight request limit: the page itself must not count against it. (Built or not, / answers;
    // only browser.test.ts builds web/dist, so two test files never build it at once.)
    service = await startService(portal.url, { RATE_LIMIT_PER_MINUTE: '2' });
  });

  after(async () => {
    await service?.close();
    await portal?.close();
  });

  it('serves / without spending the request limit, read-only like every other path', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await http(service.url, '/')).status, 200);
    const post = await http(service.url, '/', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.json.error.code, 'method_not_allowed');
    // The POST was the first request counted; the limit of 2 still applies to the API.
    assert.equal((await http(service.url, '/sectors')).status, 200);
    assert.equal((await http(service.url, '/sectors')).status, 429);
  });
});
