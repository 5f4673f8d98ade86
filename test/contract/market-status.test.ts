// GET /market/status over HTTP, with the market clock followed and switched off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { marketStatus } from '../../src/market/quotes/market-status.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

describe('GET /market/status', () => {
  let portal: FakePortal;
  let plain: RunningService;
  let clocked: RunningService;

  before(async () => {
    portal = await startFakePortal();
    plain = await startService(portal.url);
    clocked = await startService(portal.url, { CACHE_FOLLOW_MARKET_CLOCK: 'true' });
  });

  after(async () => {
    await plain?.close();
    await clocked?.close();
    await portal?.close();
  });

  it('says the market counts as open when the service does not follow the clock', async () => {
    const res = await http(plain.url, '/market/status');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.json.data.state, 'open');
    assert.equal(res.json.data.clock_followed, false);
    assert.match(res.json.data.now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:00$/);
    assert.equal(res.json.meta.cached, false);
    assert.equal(portal.counts().total, 0, 'the portal is never asked');
  });

  it('follows the Karachi clock when configured', async () => {
    const before = Date.now();
    const res = await http(clocked.url, '/market/status');
    const after = Date.now();
    assert.equal(res.json.data.clock_followed, true);
    // The state of either end of the request window (a transition may fall inside it).
    const states = [before, after].map((t) => marketStatus(t, { followMarketClock: true }).state);
    assert.ok(states.includes(res.json.data.state), `${res.json.data.state} not in ${states.join(', ')}`);
    assert.ok(Date.parse(res.json.data.next_open) > before);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await http(plain.url, '/openapi.json')).json;
    assert.ok(doc.paths['/market/status']?.get);
    assert.deepEqual(doc.components.schemas.MarketStatus.required.sort(), [
      'clock_followed',
      'next_close',
      'next_open',
      'now',
      'session',
      'state',
    ]);
  });
});
