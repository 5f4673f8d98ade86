// Two real replicas (separate processes) against one Redis and the fake portal behave as one
// service towards clients and towards the portal; losing Redis costs sharing, never availability.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, afterEach, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { spawnService, type ServiceProcess } from '../helpers/process.ts';
import { startSilentServer } from '../proxy/support/silent-server.ts';
import { redisUnavailableReason, startRedis, type TestRedis } from '../helpers/redis.ts';
import { http } from '../helpers/service.ts';

const skip = redisUnavailableReason();
let portal: FakePortal;
let redis: TestRedis;
const dirs: string[] = [];
const running: ServiceProcess[] = [];

async function replica(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-replica-'));
  dirs.push(dir);
  const proc = await spawnService({
    EXCHANGE_BASE_URL: portal.url,
    REDIS_URL: redis.url,
    CACHE_DIR: dir,
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
    EXCHANGE_RETRY_BASE_MS: '5',
    // The production budget is 50 ms; a shared 2-core test machine needs more headroom to be
    // deterministic. The slow-Redis test below uses the production value.
    REDIS_TIMEOUT_MS: '1000',
    ...env,
  });
  running.push(proc);
  return proc;
}

/**
 * A loopback relay to Redis that holds every new connection for `delayMs` before passing it on:
 * Redis as a replica sees it when it is slow to accept (a busy host, a restarting sidecar).
 */
async function slowToConnect(delayMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const relay = createServer((client) => {
    sockets.add(client);
    client.pause();
    timers.add(
      setTimeout(() => {
        const upstream = connect(redis.port, '127.0.0.1', () => {
          client.pipe(upstream).pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        upstream.on('close', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
      }, delayMs),
    );
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  const { port } = relay.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      relay.close();
      await once(relay, 'close');
    },
  };
}

async function flushRedis(): Promise<void> {
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.flushall();
  } finally {
    client.disconnect();
  }
}

describe('two replicas sharing one Redis', { skip }, () => {
  before(async () => {
    portal = await startFakePortal();
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const p of running.splice(0)) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    portal.clear();
    portal.resetCounts();
    await redis.start().catch(() => undefined);
    await flushRedis().catch(() => undefined);
  });
  after(async () => {
    await redis.stop();
    await portal.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('count one rate limit: the 61st request from one IP split across both is 429', async () => {
    const [a, b] = await Promise.all([
      replica({ RATE_LIMIT_PER_MINUTE: '60' }),
      replica({ RATE_LIMIT_PER_MINUTE: '60' }),
    ]);
    for (let i = 0; i < 60; i++) {
      const res = await http(i % 2 ? a.url : b.url, '/stocks');
      assert.equal(res.status, 200, `request ${i + 1}`);
    }
    const over = await http(a.url, '/stocks');
    assert.equal(over.status, 429);
    assert.equal(over.json.error.code, 'rate_limited');
    assert.equal((await http(b.url, '/stocks')).status, 429);
  });

  it('make one portal fetch for 500 concurrent cold requests split across both', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    portal.fail({ mode: 'slow', delayMs: 300, path: '/historical' });
    portal.resetCounts();
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) => http(i % 2 ? a.url : b.url, '/stocks/ENGRO/historical')),
    );
    for (const r of results) assert.equal(r.status, 200);
    assert.equal(portal.counts().historical.ENGRO, 1, 'one POST /historical for the whole cluster');
    const waits = await http(b.url, '/metrics');
    assert.match(waits.text, /psxmd_single_flight_waits_total\{scope="(local|cluster)"\} [1-9]/);
  });

  it('serve on B what A fetched, as a cache hit', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const first = await http(a.url, '/screener');
    assert.equal(first.headers['x-cache'], 'MISS');
    const second = await http(b.url, '/screener');
    assert.equal(second.status, 200);
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.equal(second.json.meta.cached, true);
    assert.deepEqual(second.json.data, first.json.data);
    assert.equal(portal.counts().requests['GET /screener'], 1);
  });

  it('keep answering from local tiers when Redis dies, and share again once it is back', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    assert.equal((await http(a.url, '/sectors')).status, 200);
    await redis.stop();
    // Data fetched before, and new data, still answered by both.
    for (const url of [a.url, b.url]) {
      assert.equal((await http(url, '/sectors')).status, 200);
      assert.equal((await http(url, '/stocks/HBL/historical')).status, 200);
      const ready = await http(url, '/health?ready=1');
      assert.equal(ready.status, 200, 'a lost Redis keeps the replica in rotation');
      assert.equal(ready.json.data.redis, 'degraded');
    }
    // Counted before the restart: once Redis is back, a call slower than REDIS_TIMEOUT_MS on a
    // loaded machine is a new (short) outage with its own warning, which this test is not about.
    const warnings = a.logs.filter((l) => l.includes('redis unavailable'));
    assert.equal(warnings.length, 1, 'one warning per outage');
    await redis.start();
    // ioredis backs off up to 2 s between reconnects; allow several on a loaded machine.
    for (let i = 0; i < 150; i++) {
      const states = await Promise.all([a.url, b.url].map((u) => http(u, '/health?ready=1')));
      if (states.every((s) => s.json.data.redis === 'ok')) break;
      await sleep(100);
    }
    for (const url of [a.url, b.url])
      assert.equal((await http(url, '/health?ready=1')).json.data.redis, 'ok');
    await http(a.url, '/indices');
    const shared = await http(b.url, '/indices');
    assert.equal(shared.headers['x-cache'], 'HIT', 'sharing resumed after reconnecting');
  });

  it('wait for a slow-to-connect Redis before listening, so the first answers are shared', async () => {
    const slow = await slowToConnect(1_500);
    try {
      const [a, b] = await Promise.all([
        replica({ REDIS_URL: slow.url, REDIS_TIMEOUT_MS: '5000' }),
        replica({ REDIS_URL: slow.url, REDIS_TIMEOUT_MS: '5000' }),
      ]);
      const health = await http(a.url, '/health?ready=1');
      assert.equal(health.json.data.redis, 'ok', 'linked to Redis from the first request');
      assert.equal((await http(a.url, '/indices')).headers['x-cache'], 'MISS');
      assert.equal((await http(b.url, '/indices')).headers['x-cache'], 'HIT');
      assert.equal(portal.counts().requests['GET /indices'], 1);
    } finally {
      await slow.close();
    }
  });

  it('start without Redis when it cannot be reached, after a bounded wait', async () => {
    const nobody = await startSilentServer(); // accepts, never answers
    try {
      const a = await replica({ REDIS_URL: `redis://127.0.0.1:${nobody.port}`, REDIS_START_WAIT_MS: '300' });
      assert.equal((await http(a.url, '/stocks')).status, 200);
      const ready = await http(a.url, '/health?ready=1');
      assert.equal(ready.status, 200);
      assert.equal(ready.json.data.redis, 'degraded');
      assert.ok(a.logs.some((l) => l.includes('redis not ready at start')));
    } finally {
      await nobody.close();
    }
  });

  it('treat a slow Redis (>50 ms) as absent instead of waiting for it', async () => {
    const a = await replica({ REDIS_TIMEOUT_MS: '50' });
    assert.equal((await http(a.url, '/stocks')).status, 200);
    const sleeper = new Redis(redis.url, { retryStrategy: () => null });
    sleeper.on('error', () => undefined);
    const blocked = sleeper.call('DEBUG', 'SLEEP', '5').catch(() => undefined);
    await sleep(100);
    const started = Date.now();
    const res = await http(a.url, '/stocks/OGDC/historical');
    assert.equal(res.status, 200);
    assert.ok(Date.now() - started < 4_000, 'answered before Redis woke up');
    await blocked;
    sleeper.disconnect();
  });
});

describe('graceful shutdown', () => {
  let portal: FakePortal;
  before(async () => {
    portal = await startFakePortal();
  });
  after(async () => {
    await portal.close();
  });

  /** A service process with its own store, whose sector page takes the portal 1.5 s. */
  async function serviceWithSlowSectors() {
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-term-'));
    dirs.push(dir);
    const proc = await spawnService({
      EXCHANGE_BASE_URL: portal.url,
      CACHE_DIR: dir,
      CACHE_FOLLOW_MARKET_CLOCK: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    portal.fail({ mode: 'slow', delayMs: 1500, path: '/sector-summary' });
    portal.resetCounts();
    return proc;
  }

  /**
   * Resolves once the service's slow portal fetch is under way: by then it has taken in the
   * requests sent with the one that caused it (a fixed sleep could signal before that on a
   * loaded machine, and the process would rightly refuse them).
   */
  async function slowFetchUnderWay(): Promise<void> {
    for (let i = 0; i < 300 && !portal.counts().requests['GET /sector-summary/sectorwise']; i++) {
      await sleep(20);
    }
    assert.equal(portal.counts().requests['GET /sector-summary/sectorwise'], 1, 'the portal was asked');
    await sleep(200);
  }

  it('SIGTERM during a slow request: the request completes and the process exits 0', async () => {
    const proc = await serviceWithSlowSectors();
    const pending = http(proc.url, '/sectors');
    await slowFetchUnderWay();
    proc.child.kill('SIGTERM');
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.json.data.length, portal.dataset.sectorPage.sectors.length);
    const { code } = await proc.exited;
    assert.equal(code, 0);
    portal.clear();
  });

  it('SIGTERM while a burst waits behind one slow request: every request completes, exit 0', async () => {
    const proc = await serviceWithSlowSectors();
    // All of them wait in the cache's single flight for the one slow portal fetch.
    const pending = Array.from({ length: 12 }, () => http(proc.url, '/sectors'));
    await slowFetchUnderWay();
    proc.child.kill('SIGTERM');
    const answers = await Promise.all(pending);
    for (const res of answers) {
      assert.equal(res.status, 200);
      assert.equal(res.json.data.length, portal.dataset.sectorPage.sectors.length);
    }
    const { code } = await proc.exited;
    assert.equal(code, 0);
    portal.clear();
  });
});
