// The portal's transport rules as the service must follow them (upstream.md §1), and every way the
// portal can fail, seen from a client: status, code, headers, body, and what reached the harness.portal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertError, assertListEnvelope } from '../helpers/shape.ts';

const harness = portalHarness();
const fresh = harness.fresh;

describe('request token', () => {
  it('fetches the token once and sends it with every data request', async () => {
    const svc = await fresh();
    harness.portal.resetCounts();
    for (const path of ['/stocks', '/screener', '/sectors'])
      assert.equal((await http(svc.url, path)).status, 200);
    const counts = harness.portal.counts();
    assert.equal(counts.requests['GET /'], 1);
    assert.equal(Object.keys(counts.rejected).length, 0);
  });

  it('survives a rotation mid-run: one refresh, one retry, no error', async () => {
    const svc = await fresh();
    assert.equal((await http(svc.url, '/stocks')).status, 200);
    harness.portal.rotateToken();
    harness.portal.resetCounts();
    const res = await http(svc.url, '/screener');
    assert.equal(res.status, 200);
    const counts = harness.portal.counts();
    assert.equal(counts.requests['GET /'], 1, 'one token refresh');
    assert.equal(counts.requests['GET /screener'], 2, 'the refused request and its retry');
    assert.equal(counts.rejected.token, 1);
  });

  it('makes one token fetch for many concurrent 403s', async () => {
    const svc = await fresh();
    assert.equal((await http(svc.url, '/stocks')).status, 200);
    harness.portal.rotateToken();
    harness.portal.resetCounts();
    const paths = [
      '/screener',
      '/sectors',
      '/indices',
      '/indices/KSE100',
      '/indices/KSE30',
      '/stocks/ENGRO/historical',
    ];
    const results = await Promise.all(paths.map((p) => http(svc.url, p)));
    for (const r of results) assert.equal(r.status, 200);
    assert.equal(harness.portal.counts().requests['GET /'], 1);
  });

  it('answers 503 when the portal keeps refusing after the refresh', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'refuse-token' });
    const res = await http(svc.url, '/screener');
    assert.equal(res.status, 503);
    assertError(res.json, 503, 'exchange_unavailable');
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal(
      harness.portal.counts().requests['GET /screener'],
      2,
      'one retry after one refresh, no more',
    );
  });
});

describe('portal failures without a cached copy', () => {
  it('portal down → 503 exchange_unavailable with Retry-After, after bounded retries', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'down', path: '/screener' });
    const res = await http(svc.url, '/screener');
    assert.equal(res.status, 503);
    assertError(res.json, 503, 'exchange_unavailable');
    assert.ok(Number(res.headers['retry-after']) > 0);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(harness.portal.counts().injected.down, 3, 'first try and two retries');
  });

  it('transient 502s are retried and the client never sees them', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'status', status: 502, path: '/sector-summary', times: 2 });
    const res = await http(svc.url, '/sectors');
    assert.equal(res.status, 200);
    assert.equal(harness.portal.counts().requests['GET /sector-summary/sectorwise'], 3);
  });

  it('a 4xx is not retried, and a 404 where a page should be is a page that cannot be read (502)', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'status', status: 404, path: '/market-watch' });
    const res = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(res.status, 502);
    assertError(res.json, 502, 'upstream_data_error', /answered 404 where the page should be/);
    assert.equal(harness.portal.counts().requests['GET /market-watch'], 1);
  });

  it('after a portal 429 the service pauses all portal fetches', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'status', status: 429, path: '/screener', times: 1 });
    const first = await http(svc.url, '/screener');
    assert.equal(first.status, 503);
    assertError(first.json, 503, 'exchange_unavailable');
    assert.ok(Number(first.headers['retry-after']) >= 55);
    const before = harness.portal.counts().total;
    const second = await http(svc.url, '/sectors');
    assert.equal(second.status, 503);
    assert.equal(harness.portal.counts().total, before, 'no fetch during the pause');
  });

  it('a page that no longer parses → 502 upstream_data_error, never an empty answer', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/screener' });
    const res = await http(svc.url, '/screener');
    assert.equal(res.status, 502);
    assertError(res.json, 502, 'upstream_data_error', /screener/);
  });

  it('a slow portal past the timeout → 503', async () => {
    const svc = await fresh({ EXCHANGE_TIMEOUT_MS: '200', EXCHANGE_MAX_RETRIES: '0' });
    harness.portal.fail({ mode: 'slow', delayMs: 1000, path: '/symbols' });
    const res = await http(svc.url, '/stocks');
    assert.equal(res.status, 503);
    assertError(res.json, 503, 'exchange_unavailable');
  });
});

describe('single flight', () => {
  it('1,000 concurrent cold requests for one history make one portal fetch (and one token fetch)', async () => {
    const svc = await fresh();
    harness.portal.resetCounts();
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => http(svc.url, '/stocks/LUCK/historical')),
    );
    for (const r of results) assert.equal(r.status, 200);
    assert.equal(harness.portal.counts().historical.LUCK, 1);
    assert.equal(harness.portal.counts().requests['POST /historical'], 1);
    assert.equal(harness.portal.counts().requests['GET /'], 1);
    assert.equal(assertListEnvelope(results[0]!.json).length, harness.portal.dataset.history('LUCK').length);
  });
});

describe('request rate limit', () => {
  it('allows 60 requests a minute per IP, then 429 with the envelope and headers', async () => {
    const svc = await fresh({ RATE_LIMIT_PER_MINUTE: '60' });
    for (let i = 1; i <= 60; i++) {
      const res = await http(svc.url, i % 2 ? '/stocks' : '/nope');
      assert.notEqual(res.status, 429, `request ${i}`);
      assert.equal(res.headers['ratelimit-limit'], '60');
      assert.equal(res.headers['ratelimit-remaining'], String(60 - i));
      assert.ok(res.headers['ratelimit-reset']);
    }
    const over = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(over.status, 429);
    assertError(over.json, 429, 'rate_limited', 'Rate limit exceeded');
    assert.ok(Number(over.headers['retry-after']) > 0);
    const health = await http(svc.url, '/health');
    assert.equal(health.status, 429, '/health is an API endpoint and counts like the others');
    for (const path of ['/metrics', '/openapi.json', '/docs', '/']) {
      const res = await http(svc.url, path);
      assert.ok(res.status < 400, `${path} is not counted: ${res.status}`);
      assert.equal(res.headers['ratelimit-limit'], undefined, `${path} carries no RateLimit headers`);
    }
  });

  it('counts /health, and not /metrics, /openapi.json, /docs or the dashboard', async () => {
    const svc = await fresh({ RATE_LIMIT_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i++) {
      for (const path of ['/metrics', '/openapi.json', '/docs', '/docs/json', '/']) {
        assert.ok((await http(svc.url, path)).status < 400, path);
      }
      const health = await http(svc.url, '/health');
      assert.equal(health.status, 200);
      assert.equal(health.headers['ratelimit-remaining'], String(2 - i));
    }
    assert.equal((await http(svc.url, '/health')).status, 429);
    assert.equal((await http(svc.url, '/sectors')).status, 429);
  });

  it('counts per client IP when TRUST_PROXY is on', async () => {
    const svc = await fresh({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' });
    const as = (ip: string) => http(svc.url, '/stocks', { headers: { 'x-forwarded-for': ip } });
    assert.equal((await as('198.51.100.1')).status, 200);
    assert.equal((await as('198.51.100.1')).status, 200);
    assert.equal((await as('198.51.100.1')).status, 429);
    assert.equal((await as('198.51.100.2')).status, 200);
  });
});
