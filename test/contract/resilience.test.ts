// Issue 3's promises, end to end: stale-if-error for every portal failure, stale-while-revalidate,
// the portal budget, HTTP caching headers, compression.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { request } from 'undici';
import type { FailureRule } from '../../dev/fake-portal/server.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertError, assertListEnvelope } from '../helpers/shape.ts';

const harness = portalHarness();
const fresh = harness.fresh;

/** Intraday data that goes stale after one second and is not revalidated in the background. */
const SHORT_TTL = {
  CACHE_INTRADAY_TTL: '1',
  CACHE_HISTORY_TTL: '1',
  CACHE_SWR: '0',
  EXCHANGE_TIMEOUT_MS: '500',
};

describe('stale-if-error', () => {
  const failures: Array<[string, FailureRule]> = [
    ['down', { mode: 'down' }],
    ['answering 503', { mode: 'status', status: 503 }],
    ['answering 429', { mode: 'status', status: 429 }],
    ['refusing the token', { mode: 'refuse-token' }],
    ['serving a page that no longer parses', { mode: 'garbage' }],
    ['slower than the timeout', { mode: 'slow', delayMs: 2000 }],
  ];
  for (const [name, rule] of failures) {
    it(`serves the old copy, marked stale, when the portal is ${name}`, async () => {
      const svc = await fresh(SHORT_TTL);
      const good = await http(svc.url, '/screener');
      assert.equal(good.status, 200);
      await sleep(1100);
      harness.portal.fail({ ...rule, path: rule.mode === 'refuse-token' ? undefined : '/screener' });
      const res = await http(svc.url, '/screener');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-cache'], 'STALE');
      assert.equal(res.json.meta.cached, true);
      assert.ok(Number(res.headers.age) >= 1, 'Age says how old the copy is');
      assert.equal(res.headers['cache-control'], 'public, max-age=0');
      assert.deepEqual(res.json.data, good.json.data, 'the good copy, not the failure');
      // …and its body says when its data is from: the first fetch, not now.
      assert.equal(res.json.meta.as_of, good.json.meta.as_of);
      assert.ok(Date.parse(res.json.meta.timestamp) - Date.parse(res.json.meta.as_of) >= 1000);
    });
  }

  it('a page that no longer parses never replaces the good copy', async () => {
    const svc = await fresh(SHORT_TTL);
    const good = await http(svc.url, '/stocks/ENGRO/historical');
    await sleep(1100);
    harness.portal.fail({ mode: 'garbage', path: '/historical' });
    assert.equal((await http(svc.url, '/stocks/ENGRO/historical')).headers['x-cache'], 'STALE');
    harness.portal.clear();
    harness.portal.fail({ mode: 'down', path: '/historical' });
    const later = await http(svc.url, '/stocks/ENGRO/historical');
    assert.equal(later.status, 200);
    assert.equal(assertListEnvelope(later.json).length, good.json.data.length);
  });

  it('without any copy answers 503 with Retry-After', async () => {
    const svc = await fresh(SHORT_TTL);
    harness.portal.fail({ mode: 'down' });
    const res = await http(svc.url, '/sectors');
    assert.equal(res.status, 503);
    assertError(res.json, 503, 'exchange_unavailable');
    assert.ok(Number(res.headers['retry-after']) > 0);
  });
});

describe('stale-while-revalidate', () => {
  it('answers at once from the old copy while one background refresh runs', async () => {
    const svc = await fresh({ CACHE_INTRADAY_TTL: '1', CACHE_SWR: '600' });
    await http(svc.url, '/sectors');
    await sleep(1100);
    harness.portal.resetCounts();
    // The page takes 2 s, so answers in well under that came from the old copy (a margin that a
    // loaded CI machine cannot eat).
    harness.portal.fail({ mode: 'slow', delayMs: 2_000, path: '/sector-summary' });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, () => http(svc.url, '/sectors')));
    assert.ok(Date.now() - started < 1_500, 'nobody waited for the slow portal');
    for (const r of results) assert.equal(r.headers['x-cache'], 'STALE');
    let after = await http(svc.url, '/sectors');
    for (let i = 0; i < 100 && after.headers['x-cache'] !== 'HIT'; i++) {
      await sleep(100);
      after = await http(svc.url, '/sectors');
    }
    assert.equal(after.headers['x-cache'], 'HIT', 'the refreshed copy replaces the old one');
    assert.equal(
      harness.portal.counts().requests['GET /sector-summary/sectorwise'],
      1,
      'one background refresh',
    );
  });
});

describe('portal budget', () => {
  it('per client IP: 429 rate_limited with Retry-After once the fetches are spent; cache hits still served', async () => {
    const svc = await fresh({ EXCHANGE_FETCH_LIMIT_PER_IP: '3', TRUST_PROXY: 'true' });
    const as = (ip: string, path: string) => http(svc.url, path, { headers: { 'x-forwarded-for': ip } });
    // The first history request costs the symbol check nothing: history is one fetch (plus the token).
    for (const sym of ['ENGRO', 'HBL', 'LUCK'])
      assert.equal((await as('198.51.100.7', `/stocks/${sym}/historical`)).status, 200);
    const over = await as('198.51.100.7', '/stocks/OGDC/historical');
    assert.equal(over.status, 429);
    assertError(over.json, 429, 'rate_limited');
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal(
      (await as('198.51.100.7', '/stocks/ENGRO/historical')).status,
      200,
      'cached data does not count',
    );
    assert.equal(
      (await as('198.51.100.8', '/stocks/OGDC/historical')).status,
      200,
      'another client has its own budget',
    );
    assert.equal(harness.portal.counts().historical.OGDC, 1);
  });

  it('in total: 503 exchange_unavailable with Retry-After from many IPs', async () => {
    const svc = await fresh({ EXCHANGE_FETCH_LIMIT_GLOBAL: '2', TRUST_PROXY: 'true' });
    const as = (ip: string, path: string) => http(svc.url, path, { headers: { 'x-forwarded-for': ip } });
    assert.equal((await as('198.51.100.1', '/stocks/ENGRO/historical')).status, 200);
    assert.equal((await as('198.51.100.2', '/stocks/HBL/historical')).status, 200);
    const over = await as('198.51.100.3', '/stocks/LUCK/historical');
    assert.equal(over.status, 503);
    assertError(over.json, 503, 'exchange_unavailable');
    assert.ok(Number(over.headers['retry-after']) > 0);
  });

  it('a burst of cold requests from one IP costs one fetch per key', async () => {
    const svc = await fresh({ EXCHANGE_FETCH_LIMIT_PER_IP: '2' });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => http(svc.url, '/stocks/MCB/historical')),
    );
    for (const r of results) assert.equal(r.status, 200);
    assert.equal(harness.portal.counts().historical.MCB, 1);
  });
});

describe('HTTP caching', () => {
  it('sends ETag, Last-Modified, Cache-Control and Age, and 304 on If-None-Match', async () => {
    const svc = await fresh({ CACHE_INTRADAY_TTL: '900' });
    const first = await http(svc.url, '/screener');
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.match(first.headers.etag!, /^"[A-Za-z0-9_-]+"$/);
    assert.ok(Date.parse(first.headers['last-modified']!) > Date.now() - 60_000);
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers['cache-control']!)![1]);
    assert.ok(maxAge > 800 && maxAge <= 900, `max-age ${maxAge}`);
    const second = await http(svc.url, '/screener');
    assert.equal(second.headers.etag, first.headers.etag, 'same data, same ETag');
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.ok(second.headers.age !== undefined);
    const notModified = await http(svc.url, '/screener', {
      headers: { 'if-none-match': first.headers.etag! },
    });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.text, '');
    const health = await http(svc.url, '/health');
    assert.equal(health.headers['cache-control'], 'no-store');
  });

  it('compresses large answers with gzip or brotli as asked', async () => {
    const svc = await fresh();
    const plain = await http(svc.url, '/stocks/ENGRO/historical');
    for (const [encoding, decode] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const res = await request(`${svc.url}/stocks/ENGRO/historical`, {
        headers: { 'accept-encoding': encoding },
      });
      assert.equal(res.headers['content-encoding'], encoding);
      const body = JSON.parse(decode(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
      assert.deepEqual(body.data, plain.json.data);
    }
  });
});
