// Repeats of fresh cached answers are answered below the router (src/server/hit-replay.ts). A
// client must not be able to tell: same status, headers and body as the routes give, the same
// limits, and never an answer the routes would no longer give.
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

/** A service logging at info into `lines`, where a replayed request says `"replayed":true`. */
async function serviceWithLog(
  env: Record<string, string> = {},
): Promise<{ url: string; replayed: () => string[] }> {
  const lines: string[] = [];
  const svc = await startService(portal.url, { LOG_LEVEL: 'info', ...env }, { logLines: lines });
  services.push(svc);
  const replayed = (): string[] =>
    lines
      .map((l) => JSON.parse(l) as { replayed?: boolean; reqId: string })
      .filter((l) => l.replayed)
      .map((l) => l.reqId);
  return { url: svc.url, replayed };
}

// Headers whose values legitimately differ between two responses of the same answer.
const PER_RESPONSE = new Set(['date', 'x-request-id', 'age', 'last-modified', 'cache-control', 'keep-alive']);

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
    meta: { timestamp?: string };
  };
  delete parsed.meta.timestamp;
  return parsed;
}

describe('hit replay', () => {
  it('answers a repeat exactly as the routes do: status, headers and body, gzip or not', async () => {
    const replaying = await serviceWithLog();
    const routed = await startService(portal.url, { HIT_REPLAY: 'false' });
    services.push(routed);
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
        await raw(replaying.url, path, encoding);
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
        assert.equal(a.headers['x-cache'], 'HIT');
        assert.match(a.headers['x-request-id']!, /^[0-9a-f]{8}-[0-9a-z]+$/);
        assert.match(a.headers['cache-control']!, /^public, max-age=\d+$/);
        assert.deepEqual(withoutTimestamp(a), withoutTimestamp(b), `${path} body`);
      }
    }
  });

  it('stops once the answer is no longer fresh: the routes answer, never the old copy as a HIT', async () => {
    const svc = await serviceWithLog({ CACHE_INTRADAY_TTL: '1' });
    await http(svc.url, '/stocks/ENGRO/quote');
    const hit = await http(svc.url, '/stocks/ENGRO/quote');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(svc.replayed().length, 1);
    const portalRequests = portal.counts().total;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await http(svc.url, '/stocks/ENGRO/quote');
    assert.notEqual(later.headers['x-cache'], 'HIT', 'past its freshness the answer is not a HIT');
    assert.equal(svc.replayed().length, 1, 'not replayed once stale');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the background refresh lands
    assert.ok(portal.counts().total > portalRequests, 'the routes went back to the portal');
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
