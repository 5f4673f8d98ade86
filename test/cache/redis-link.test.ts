// The Redis circuit breaker over a real Redis: after a failed call the service works from its local
// tiers until the circuit's time is up on the service's clock, not on the wall clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { redisUnavailableReason, startRedis, type TestRedis } from '../helpers/redis.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

const skip = redisUnavailableReason();

describe('the Redis circuit breaker', { skip }, () => {
  let portal: FakePortal;
  let redis: TestRedis;
  let svc: RunningService;
  let clock = Date.now();

  before(async () => {
    portal = await startFakePortal();
    redis = await startRedis();
    svc = await startService(
      portal.url,
      // A generous call budget, so only the blocked Redis below fails a call on a loaded machine.
      { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '500' },
      { overrides: { now: () => clock } },
    );
  });
  after(async () => {
    await svc?.close();
    await redis?.stop();
    await portal?.close();
  });

  const redisState = async (): Promise<string> => (await http(svc.url, '/health?ready=1')).json.data.redis;

  it('reopens after a failed call when the injected clock says the circuit time is up', async () => {
    assert.equal(await redisState(), 'ok');
    // Redis busy for 2.5 s: the service's next call to it times out (0.5 s) and opens the circuit.
    const sleeper = new Redis(redis.url, { retryStrategy: () => null });
    sleeper.on('error', () => undefined);
    await sleeper.ping();
    const blocked = sleeper.call('DEBUG', 'SLEEP', '2.5');
    assert.equal((await http(svc.url, '/stocks/HBL/quote')).status, 200, 'answered from local tiers');
    assert.equal(await redisState(), 'degraded');
    await blocked;
    sleeper.disconnect();
    // Redis answers again and more than the circuit's second has passed on the wall clock, but
    // not on the service's: the circuit stays open.
    assert.equal(await redisState(), 'degraded', 'the wall clock does not close the circuit');
    clock += 999;
    assert.equal(await redisState(), 'degraded');
    clock += 1;
    assert.equal(await redisState(), 'ok', 'the circuit time is up on the service clock');
  });
});
