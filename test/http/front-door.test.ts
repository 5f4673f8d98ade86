// The front door (src/http/pipeline/front-door.ts) is the one place every request passes: its id and CORS,
// the request limit, the replay of fresh answers, the access log and the metrics. What a client or
// an operator sees of it is the same whichever part of the service answers: a replay, a route, a
// 404, a refusal by the limit, a stream.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { request } from 'undici';
import { portalHarness } from '../helpers/harness.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { openStream } from '../helpers/sse.ts';

const harness = portalHarness();
const services: RunningService[] = [];
afterEach(async () => {
  while (services.length) await services.pop()!.close();
});

interface AccessLine {
  level: number;
  msg: string;
  reqId: string;
  req: { method: string; url: string; remoteAddress: string };
  res: { statusCode: number };
  responseTime: number;
  aborted?: boolean;
}

/** A service whose log lines are kept; `access()` returns its access log so far. */
async function logged(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const svc = await startService(harness.portal.url, { LOG_LEVEL: 'info', ...env }, { logLines: lines });
  services.push(svc);
  const access = () =>
    lines
      .map((l) => JSON.parse(l) as AccessLine)
      .filter((l) => l.msg === 'request completed' || l.msg === 'request aborted');
  return { svc, access };
}

describe('front door', () => {
  it('gives every answer its request id and CORS headers: replay, route, 404, 405, 429 and stream', async () => {
    const svc = await harness.fresh({ RATE_LIMIT_PER_MINUTE: '5', STREAM_POLL_SECONDS: '3600' });
    const answers = [
      await http(svc.url, '/stocks/ENGRO/quote', { headers: { 'x-request-id': 'routed-1' } }),
      await http(svc.url, '/stocks/ENGRO/quote', { headers: { 'x-request-id': 'replayed-1' } }),
      await http(svc.url, '/nope', { headers: { 'x-request-id': 'missing-1' } }),
      await http(svc.url, '/stocks', { method: 'DELETE', headers: { 'x-request-id': 'method-1' } }),
    ];
    const stream = await openStream(`${svc.url}/stream/quotes?symbols=HBL`, { 'x-request-id': 'stream-1' });
    stream.close();
    answers.push({ ...answers[0]!, headers: stream.headers, status: stream.status });
    answers.push(await http(svc.url, '/sectors', { headers: { 'x-request-id': 'limited-1' } }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 404, 405, 200, 429],
    );
    assert.equal(answers[1]!.headers['x-cache'], 'HIT');
    // Each once (a header written twice would read `a, a`).
    assert.deepEqual(
      answers.map((a) => a.headers['x-request-id']),
      ['routed-1', 'replayed-1', 'missing-1', 'method-1', 'stream-1', 'limited-1'],
    );
    for (const a of answers) {
      assert.equal(a.headers['access-control-allow-origin'], '*');
      assert.match(a.headers['access-control-expose-headers']!, /x-request-id/);
      assert.equal(a.headers['ratelimit-limit'], '5', 'every API answer is counted');
    }
  });

  it('writes one access log line per request, replayed or routed, with the client address', async () => {
    const { svc, access } = await logged({ TRUST_PROXY: 'true' });
    const as = { 'x-forwarded-for': '198.51.100.7, 10.0.0.1' };
    await http(svc.url, '/stocks/ENGRO/quote', { headers: { ...as, 'x-request-id': 'first' } });
    const replayed = await http(svc.url, '/stocks/ENGRO/quote', {
      headers: { ...as, 'x-request-id': 'second' },
    });
    assert.equal(replayed.headers['x-cache'], 'HIT');
    await http(svc.url, '/nope?x=1', { headers: { 'x-request-id': 'third' } });
    const lines = access();
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.req.method, l.req.url, l.res.statusCode, l.level]),
      [
        ['first', 'GET', '/stocks/ENGRO/quote', 200, 30],
        ['second', 'GET', '/stocks/ENGRO/quote', 200, 30],
        ['third', 'GET', '/nope?x=1', 404, 30],
      ],
    );
    assert.deepEqual(
      lines.map((l) => l.req.remoteAddress),
      ['198.51.100.7', '198.51.100.7', '127.0.0.1'],
      'the first X-Forwarded-For address when TRUST_PROXY is on, else the peer',
    );
    for (const l of lines) assert.ok(l.responseTime >= 0 && l.responseTime < 60_000);
  });

  it('logs a request its client gave up on as aborted, and does not count it as answered', async () => {
    const { svc, access } = await logged();
    harness.portal.fail({ mode: 'slow', delayMs: 1_500, path: '/sector-summary' });
    const controller = new AbortController();
    const pending = request(`${svc.url}/sectors`, {
      headers: { 'x-request-id': 'gave-up' },
      signal: controller.signal,
    }).catch(() => undefined);
    for (let i = 0; i < 250 && !harness.portal.counts().requests['GET /sector-summary/sectorwise']; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort();
    await pending;
    for (let i = 0; i < 250 && access().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const [line] = access();
    assert.equal(line?.reqId, 'gave-up');
    assert.equal(line?.msg, 'request aborted');
    assert.equal(line?.aborted, true);
    const metrics = await http(svc.url, '/metrics');
    assert.doesNotMatch(metrics.text, /psxmd_http_requests_total\{route="\/sectors"/);
  });

  it('labels metrics by route template; 404s as unmatched, refusals before routing as unrouted', async () => {
    const svc = await harness.fresh({ RATE_LIMIT_PER_MINUTE: '3' });
    await http(svc.url, '/stocks/ENGRO/quote');
    await http(svc.url, '/stocks/ENGRO/quote');
    await http(svc.url, '/no/such/path');
    assert.equal((await http(svc.url, '/stocks/HBL/quote')).status, 429);
    const metrics = (await http(svc.url, '/metrics')).text;
    assert.match(
      metrics,
      /psxmd_http_requests_total\{route="\/stocks\/:symbol\/quote",method="GET",status="200"\} 2/,
    );
    assert.match(metrics, /psxmd_http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
    assert.match(metrics, /psxmd_http_requests_total\{route="unrouted",method="GET",status="429"\} 1/);
    assert.match(metrics, /psxmd_limit_rejections_total\{limit="request_rate"\} 1/);
    assert.doesNotMatch(metrics, /route="\/no\/such\/path"/, 'never a raw path as a label');
  });
});
