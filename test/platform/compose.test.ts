// compose.yaml runs what docs/operations.md describes: two replicas sharing Redis and a PostgreSQL
// archive, the archiver on with the Redis lease so one replica fetches, each replica started only
// once its stores answer. Docker does not run here: the file is parsed and its structure checked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config.ts';

interface Service {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
}

const compose = parse(readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8'), {
  merge: true,
}) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const { services } = compose;
const replicas = ['api-1', 'api-2'];

describe('compose.yaml', () => {
  it('has PostgreSQL with a health check on a volume of its own', () => {
    const pg = services.postgres;
    assert.ok(pg?.image?.startsWith('postgres:'), 'a postgres image');
    assert.ok(pg);
    assert.equal(pg.healthcheck?.test[0], 'CMD');
    assert.ok(pg.healthcheck?.test.includes('pg_isready'));
    const volume = pg.volumes?.[0]?.split(':')[0];
    assert.ok(volume && volume in compose.volumes, 'the archive survives the container');
  });

  it('gives both replicas the same DATABASE_URL, Redis and ARCHIVE=on, valid for the service', () => {
    const urls = new Set<string>();
    for (const name of replicas) {
      const env = services[name]?.environment ?? {};
      assert.ok(env.DATABASE_URL, `${name}: DATABASE_URL`);
      assert.equal(new URL(env.DATABASE_URL).hostname, 'postgres', `${name}: the compose database`);
      assert.equal(new URL(env.REDIS_URL ?? '').hostname, 'redis', `${name}: the Redis lease`);
      urls.add(env.DATABASE_URL);
      let config;
      try {
        config = loadConfig({ ...env, CACHE_DIR: '/tmp' });
      } catch (err) {
        assert.fail(err instanceof ConfigError ? `${name}: ${err.message}` : String(err));
      }
      assert.equal(config.archive.enabled, true, `${name}: ARCHIVE on`);
      assert.equal(config.archive.databaseUrl, env.DATABASE_URL);
    }
    assert.equal(urls.size, 1, 'one shared archive');
  });

  it('starts each replica once Redis and PostgreSQL are healthy', () => {
    for (const name of replicas) {
      const deps = services[name]?.depends_on;
      assert.ok(deps && !Array.isArray(deps), `${name}: depends_on with conditions`);
      assert.equal(deps.redis?.condition, 'service_healthy');
      assert.equal(deps.postgres?.condition, 'service_healthy');
    }
    assert.ok(services.redis?.healthcheck, 'Redis has a health check');
  });
});
