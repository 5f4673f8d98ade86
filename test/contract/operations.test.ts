// Operations surface: Prometheus metrics with bounded labels, readiness, request ids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';

const harness = portalHarness();

describe('operations', () => {
  it('exposes Prometheus metrics labelled by route template, never by raw path', async () => {
    const svc = await harness.fresh();
    await http(svc.url, '/stocks/ENGRO/quote');
    await http(svc.url, '/stocks/ENGRO/quote');
    await http(svc.url, '/stocks/NOSUCH/quote');
    const res = await http(svc.url, '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /text\/plain/);
    assert.match(
      res.text,
      /psxmd_http_requests_total\{route="\/stocks\/:symbol\/quote",method="GET",status="200"\} 2/,
    );
    assert.match(
      res.text,
      /psxmd_http_requests_total\{route="\/stocks\/:symbol\/quote",method="GET",status="404"\} 1/,
    );
    assert.match(res.text, /psxmd_exchange_fetches_total\{page="screener",outcome="ok"\} 1/);
    assert.match(res.text, /psxmd_cache_reads_total\{state="HIT",tier="memory"\} \d+/);
    assert.match(res.text, /psxmd_exchange_token_refreshes_total\{outcome="ok"\} 1/);
    assert.ok(
      !res.text.includes('ENGRO') && !res.text.includes('NOSUCH'),
      'no raw paths or symbols in labels',
    );
  });

  it('is ready with its store, and says Redis is disabled when none is configured', async () => {
    const svc = await harness.fresh();
    const res = await http(svc.url, '/health?ready=1');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.data, { status: 'ok', store: 'ok', redis: 'disabled', archive: 'ok' });
  });

  it('takes ready= like every other flag: true/1 readiness, false/0 liveness, anything else 422', async () => {
    const svc = await harness.fresh();
    for (const flag of ['true', '1']) {
      const res = await http(svc.url, `/health?ready=${flag}`);
      assert.equal(res.status, 200, flag);
      assert.equal(res.json.data.store, 'ok', `ready=${flag} is readiness`);
    }
    for (const flag of ['false', '0']) {
      const res = await http(svc.url, `/health?ready=${flag}`);
      assert.equal(res.status, 200, flag);
      assert.deepEqual(res.json.data, { status: 'ok' }, `ready=${flag} is liveness`);
    }
    const bad = await http(svc.url, '/health?ready=yes');
    assert.equal(bad.status, 422);
    assert.equal(bad.json.error.code, 'bad_request');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const svc = await harness.fresh();
    const given = await http(svc.url, '/health', { headers: { 'x-request-id': 'trace-42.a' } });
    assert.equal(given.headers['x-request-id'], 'trace-42.a');
    const unsafe = await http(svc.url, '/health', { headers: { 'x-request-id': 'x'.repeat(300) } });
    const replaced = unsafe.headers['x-request-id']!;
    assert.match(replaced, /^[0-9a-f]{8}-[0-9a-z]+$/);
    const next = (await http(svc.url, '/health')).headers['x-request-id']!;
    assert.match(next, /^[0-9a-f]{8}-[0-9a-z]+$/);
    assert.notEqual(next, replaced, 'every request gets its own id');
  });
});
