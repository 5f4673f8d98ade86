// The OpenAPI document promises what the service does: every operation named, its CSV form beside
// its JSON, every status it sends with the headers that come with it, and the error codes of the
// one error table. (`npm run check` lints the same document with Redocly CLI and Spectral.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

let portal: FakePortal;
let svc: RunningService;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
});
after(async () => {
  await svc.close();
  await portal.close();
});

describe('the OpenAPI document', () => {
  it('names every operation and declares every status and header the service sends', async () => {
    const doc = (await http(svc.url, '/openapi.json')).json;
    assert.deepEqual(doc.security, []);
    assert.ok(doc.servers.length > 0 && doc.info.contact);
    assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
    for (const tag of doc.tags) assert.ok(tag.description, tag.name);
    assert.deepEqual(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum, ERROR_CODES);
    const ids = new Set<string>();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is inspected freely
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      const op = item.get;
      assert.ok(op.operationId && !ids.has(op.operationId), path);
      ids.add(op.operationId);
      for (const status of ['200', '400', '431', '503']) assert.ok(op.responses[status], `${path} ${status}`);
      // Every API endpoint is rate limited, /health and /market/status included.
      assert.ok(op.responses['429'].headers['Retry-After'], path);
      // Answers about the service itself (liveness, the market clock) and the event stream: their
      // 503 (not_ready) comes without Retry-After, and they have no ETag, 304 or CSV form.
      if (['/health', '/health/portal', '/market/status', '/stream/quotes'].includes(path)) {
        // Neither asks the exchange, so their 503 examples are the service's own state.
        if (path !== '/stream/quotes') {
          const examples = Object.values<{ value: { error: { code: string } } }>(
            op.responses['503'].content['application/json'].examples,
          );
          assert.ok(examples.length > 0, `${path} 503 examples`);
          for (const e of examples) assert.equal(e.value.error.code, 'not_ready', path);
        }
        continue;
      }
      assert.ok(op.responses['503'].headers['Retry-After'], path);
      assert.ok(op.responses['304'], `${path} 304`);
      const ok = op.responses['200'];
      for (const h of ['ETag', 'Last-Modified', 'Age', 'X-Cache', 'RateLimit-Limit'])
        assert.ok(ok.headers[h], `${path} ${h}`);
      assert.ok(ok.content['application/json'], path);
      assert.equal(typeof ok.content['text/csv'].example, 'string', `${path} CSV example`);
    }
  });

  it('gives each CSV example the form the service answers', async () => {
    const doc = (await http(svc.url, '/openapi.json')).json;
    const example = doc.paths['/sectors'].get.responses['200'].content['text/csv'].example as string;
    const live = await http(svc.url, '/sectors?format=csv');
    assert.equal(example.split('\r\n')[0], live.text.split('\r\n')[0], 'same header row');
  });
});
