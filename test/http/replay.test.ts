// Repeats of fresh cached answers get the responder's prepared bytes before validation and the
// handler (the replay hook in src/http/app.ts). A client must not be able to tell: same status,
// headers and body as the handler gives, the same limits, and never an answer the handler would no
// longer give.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, afterEach, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { assertError } from '../helpers/shape.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

let portal: FakePortal;
const services: RunningService[] = [];

before(async () => {
  portal = await startFakePortal();
});
afterEach(async () => {
  while (services.length) await services.pop()!.close();
  portal.clear();
  portal.resetCounts();
});
after(async () => {
  await portal.close();
});

/** A service logging at debug into `lines`, where a replayed request logs `replayed a fresh answer`. */
async function serviceWithLog(
  env: Record<string, string> = {},
  now?: () => number,
): Promise<{ url: string; replayed: () => string[] }> {
  const lines: string[] = [];
  const svc = await startService(
    portal.url,
    { LOG_LEVEL: 'debug', ...env },
    { logLines: lines, overrides: { now } },
  );
  services.push(svc);
  const replayed = () =>
    lines
      .map((l) => JSON.parse(l) as { msg?: string; reqId: string })
      .filter((l) => l.msg === 'replayed a fresh answer')
      .map((l) => l.reqId);
  return { url: svc.url, replayed };
}

// Headers whose values legitimately differ between two responses of the same answer.
// The ETag too: a quote's data carries its fetch time (as_of), which differs between two services.
const PER_RESPONSE = new Set([
  'date',
  'x-request-id',
  'age',
  'last-modified',
  'cache-control',
  'keep-alive',
  'etag',
]);

async function raw(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await request(`${base}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body };
}

function stable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !PER_RESPONSE.has(k)));
}

function withoutTimestamp(res: { headers: Record<string, string>; body: Buffer }): unknown {
  const gzip = res.headers['content-encoding'] === 'gzip';
  const parsed = JSON.parse((gzip ? gunzipSync(res.body) : res.body).toString()) as {
    data: { as_of?: string };
    meta: { timestamp?: string; as_of?: string };
  };
  // Each service's own fetch time.
  delete parsed.meta.timestamp;
  delete parsed.meta.as_of;
  delete parsed.data.as_of;
  return parsed;
}

describe('hit replay', () => {
  it('answers a repeat exactly as the routes do: status, headers and body, gzip or not', async () => {
    const replaying = await serviceWithLog();
    const routed = await startService(portal.url, { HIT_REPLAY: 'false' });
    services.push(routed);
    // A quote's extras come from the company page (src/market/quotes/quote-extras.ts): both services hold
    // it first, so both answer the same quote.
    for (const svc of [replaying, routed]) await http(svc.url, '/stocks/ENGRO/profile');
    const paths = [
      '/stocks/ENGRO/quote',
      '/screener',
      '/stocks/ENGRO/historical?start=2025-01-01&order=desc',
      '/sectors',
    ];
    for (const path of paths) {
      const encodings: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, br' }];
      for (const encoding of encodings) {
        const gzip = 'accept-encoding' in encoding;
        // First request: a miss through the routes (and the gzip made once), then repeats.
        const first = await raw(replaying.url, path, encoding);
        await raw(routed.url, path, encoding);
        await raw(replaying.url, path, encoding);
        const before = replaying.replayed().length;
        const a = await raw(replaying.url, path, encoding);
        const b = await raw(routed.url, path, encoding);
        assert.equal(replaying.replayed().length, before + 1, `${path} ${gzip ? 'gzip' : ''} was replayed`);
        assert.equal(
          a.headers['x-request-id'],
          replaying.replayed().at(-1),
          'the log line names the request',
        );
        assert.equal(a.status, 200);
        assert.equal(a.status, b.status);
        assert.deepEqual(stable(a.headers), stable(b.headers), `${path} headers`);
        assert.equal(a.headers.etag, first.headers.etag, `${path} ETag as the routes gave it`);
        assert.equal(a.headers['x-cache'], 'HIT');
        assert.match(a.headers['x-request-id']!, /^[0-9a-f]{8}-[0-9a-z]+$/);
        assert.match(a.headers['cache-control']!, /^public, max-age=\d+$/);
        assert.deepEqual(withoutTimestamp(a), withoutTimestamp(b), `${path} body`);
      }
    }
  });

  it('stops once the answer is no longer fresh: the handler answers, never the old copy as a HIT', async () => {
    // The service's clock is the test's: the answer ages by a minute without anyone waiting.
    let clock = Date.now();
    const svc = await serviceWithLog({ CACHE_INTRADAY_TTL: '30' }, () => clock);
    await http(svc.url, '/stocks/ENGRO/quote');
    const hit = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(svc.replayed().length, 1);
    const portalRequests = portal.counts().total;
    clock += 31_000;
    const later = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(later.headers['x-cache'], 'STALE', 'past its freshness the answer is not a HIT');
    assert.equal(svc.replayed().length, 1, 'not replayed once past its freshness');
    // The stale copy was served at once while one background refresh went to the portal.
    for (let i = 0; i < 200 && portal.counts().total === portalRequests; i++) await sleep(25);
    assert.ok(portal.counts().total > portalRequests, 'the handler went back to the portal');
  });

  it('leaves conditional, CSV, proxied, HEAD and brotli-only requests to the routes', async () => {
    const svc = await serviceWithLog();
    const path = '/stocks/ENGRO/historical';
    const first = await http(svc.url, path);
    await http(svc.url, path);
    assert.equal(svc.replayed().length, 1);

    const notModified = await http(svc.url, path, { headers: { 'if-none-match': first.headers.etag! } });
    assert.equal(notModified.status, 304);
    const csv = await http(svc.url, path, { headers: { accept: 'text/csv' } });
    assert.match(csv.headers['content-type']!, /text\/csv/);
    const proxied = await http(svc.url, path, { headers: { 'x-exchange-proxy': 'http://127.0.0.1:9' } });
    assertError(proxied.json, 400, 'bad_request');
    const head = await http(svc.url, path, { method: 'HEAD' });
    assert.equal(head.status, 200);
    const br = await raw(svc.url, path, { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(svc.replayed().length, 1, 'none of these was replayed');
  });

  it('counts replayed requests against the rate limit, with the same headers, and refuses past it', async () => {
    const svc = await serviceWithLog({ RATE_LIMIT_PER_MINUTE: '3' });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      assert.ok(Number(res.headers['ratelimit-reset']) > 0);
      remaining.push(res.headers['ratelimit-remaining']!);
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    assert.equal(svc.replayed().length, 2);
    const over = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(over.status, 429);
    assertError(over.json, 429, 'rate_limited');
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal(svc.replayed().length, 2);
  });

  it('counts replayed requests in the metrics under their route template', async () => {
    const svc = await serviceWithLog();
    for (let i = 0; i < 4; i++) await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(svc.replayed().length, 3);
    const metrics = await http(svc.url, '/metrics');
    assert.match(
      metrics.text,
      /psxmd_http_requests_total\{route="\/stocks\/:symbol\/quote",method="GET",status="200"\} 4/,
    );
    assert.match(
      metrics.text,
      /psxmd_http_request_duration_seconds_count\{route="\/stocks\/:symbol\/quote",method="GET"\} 4/,
    );
    assert.match(
      metrics.text,
      /psxmd_http_request_duration_seconds_bucket\{route="\/stocks\/:symbol\/quote",method="GET",le="\+Inf"\} 4/,
    );
  });

  it('is off with HIT_REPLAY=false', async () => {
    const svc = await serviceWithLog({ HIT_REPLAY: 'false' });
    for (let i = 0; i < 3; i++) assert.equal((await http(svc.url, '/stocks/ENGRO/quote')).status, 200);
    assert.equal(svc.replayed().length, 0);
  });
});

// A cold burst: every request goes through the routes and waits in the cache's single flight for
// the one portal fetch. The portal is slowed so that every request of the burst arrives while the
// first is still waiting for its page, whatever the machine's speed.
describe('a cold burst', () => {
  const BURST = 24;
  const SLOW_PORTAL_MS = 2_000;

  /** `count` concurrent requests, each on its own connection. */
  function burst(base: string, path: string, count: number, headers: Record<string, string> = {}) {
    return Promise.all(Array.from({ length: count }, () => raw(base, path, headers)));
  }

  it('costs one portal fetch; every request gets the same answer as a MISS', async () => {
    const svc = await serviceWithLog();
    // Symbols and the portal token first: the burst then costs the history page alone.
    await http(svc.url, '/stocks/OGDC/quote');
    portal.fail({ mode: 'slow', delayMs: SLOW_PORTAL_MS, path: '/historical' });
    for (const [symbol, headers] of [
      ['ENGRO', { 'accept-encoding': 'gzip' }],
      ['LUCK', {}],
    ] as const) {
      portal.resetCounts();
      const path = `/stocks/${symbol}/historical`;
      const answers = await burst(svc.url, path, BURST, headers);
      assert.equal(portal.counts().historical[symbol], 1, 'one portal fetch');
      for (const a of answers) {
        assert.equal(a.status, 200);
        assert.equal(a.headers['x-cache'], 'MISS', 'every request waited for the portal');
        assert.equal(a.headers.age, undefined);
        assert.deepEqual(stable(a.headers), stable(answers[0]!.headers));
        assert.deepEqual(withoutTimestamp(a), withoutTimestamp(answers[0]!));
      }
    }
    const metrics = await http(svc.url, '/metrics');
    const waits = /psxmd_single_flight_waits_total\{scope="local"\} (\d+)/.exec(metrics.text);
    assert.ok(Number(waits?.[1]) >= 2 * (BURST - 1), 'the single flight counted its waiters');
  });

  it('shares the portal’s failure without a second portal fetch', async () => {
    const svc = await serviceWithLog({ EXCHANGE_MAX_RETRIES: '0' });
    await http(svc.url, '/stocks/OGDC/quote');
    portal.fail({ mode: 'slow', delayMs: SLOW_PORTAL_MS, path: '/historical' });
    portal.fail({ mode: 'status', status: 500, path: '/historical' });
    portal.resetCounts();
    const answers = await burst(svc.url, '/stocks/ENGRO/historical', BURST);
    assert.equal(portal.counts().historical.ENGRO, 1, 'the burst cost one portal fetch');
    for (const a of answers) {
      assertError(JSON.parse(a.body.toString()), 503, 'exchange_unavailable');
      assert.equal(a.headers['cache-control'], 'no-store');
      assert.ok(Number(a.headers['retry-after']) > 0);
      assert.deepEqual(stable(a.headers), stable(answers[0]!.headers));
      assert.deepEqual(a.body, answers[0]!.body);
    }
    // The failure is not remembered past the burst: the next request asks the portal again.
    portal.clear();
    assert.equal((await http(svc.url, '/stocks/ENGRO/historical')).status, 200);
  });

  it('in CSV costs one portal fetch too', async () => {
    const svc = await serviceWithLog();
    await http(svc.url, '/stocks/OGDC/quote');
    portal.fail({ mode: 'slow', delayMs: SLOW_PORTAL_MS, path: '/historical' });
    portal.resetCounts();
    const answers = await burst(svc.url, '/stocks/ENGRO/historical?format=csv', BURST);
    assert.equal(portal.counts().historical.ENGRO, 1);
    for (const a of answers) {
      assert.equal(a.status, 200);
      assert.match(a.headers['content-type']!, /^text\/csv/);
      assert.deepEqual(a.body, answers[0]!.body);
    }
  });

  it('is counted against its client’s rate limit', async () => {
    const svc = await serviceWithLog({ RATE_LIMIT_PER_MINUTE: '5' });
    portal.fail({ mode: 'slow', delayMs: SLOW_PORTAL_MS, path: '/historical' });
    const answers = await burst(svc.url, '/stocks/ENGRO/historical', 8);
    const statuses = answers.map((a) => a.status).sort((a, b) => a - b);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers['ratelimit-remaining']))
      .sort((a, b) => a - b);
    assert.deepEqual(remaining, [0, 1, 2, 3, 4]);
    for (const a of answers.filter((x) => x.status === 429)) {
      assertError(JSON.parse(a.body.toString()), 429, 'rate_limited');
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
