// One writer for error answers (src/http/pipeline/error-handler.ts `errorResponse`): a route's error,
// Fastify's own (its router, its validator), the front door's refusal and the raw socket's answer
// to a request Node could not parse carry the same envelope and the same headers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { http } from '../helpers/service.ts';
import { EXPOSED_HEADERS } from '../../src/http/pipeline/common-headers.ts';

const harness = portalHarness();

/** The headers every error answer carries, whichever part of the service wrote it. */
function assertErrorHeaders(headers: Record<string, string>, body: string, label: string): void {
  assert.equal(headers['content-type'], 'application/json; charset=utf-8', label);
  assert.equal(headers['cache-control'], 'no-store', label);
  assert.equal(headers['content-length'], String(Buffer.byteLength(body)), label);
  assert.equal(headers['access-control-allow-origin'], '*', label);
  assert.equal(headers['access-control-expose-headers'], EXPOSED_HEADERS, label);
  const parsed = JSON.parse(body) as { error: { status: number; code: string; message: string } };
  assert.deepEqual(Object.keys(parsed), ['error'], label);
  assert.deepEqual(Object.keys(parsed.error), ['status', 'code', 'message'], label);
}

describe('one writer for error answers', () => {
  it('gives a route error, Fastify’s, the front door’s and the raw socket’s the same headers', async () => {
    const svc = await harness.fresh({ RATE_LIMIT_PER_MINUTE: '4' });
    const route = await http(svc.url, '/stocks/NOSUCH/quote');
    assert.equal(route.status, 404);
    assertErrorHeaders(route.headers, route.text, 'route');
    const validator = await http(svc.url, '/stocks/ENGRO/historical?order=up');
    assert.equal(validator.status, 422);
    assertErrorHeaders(validator.headers, validator.text, 'validator');
    const router = await http(svc.url, '/stocks/%E0%A4%A/quote');
    assert.equal(router.status, 400);
    assertErrorHeaders(router.headers, router.text, 'router');
    await http(svc.url, '/sectors');
    const limited = await http(svc.url, '/sectors');
    assert.equal(limited.status, 429);
    assertErrorHeaders(limited.headers, limited.text, 'front door');
    assert.ok(Number(limited.headers['retry-after']) > 0, 'the refusal says when to retry');
    for (const answer of [route, validator, router, limited]) assert.ok(answer.headers['x-request-id']);
    const raw = await rawRequest(svc.url, 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(raw.status, 400);
    assertErrorHeaders(raw.headers, raw.body.toString(), 'raw socket');
    assert.equal(raw.headers.connection, 'close');
  });
});
