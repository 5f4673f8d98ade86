// A request the client marks less urgent than the default (RFC 9218 `Priority: u=5`…`u=7`, as the
// dashboard's sections below the fold do): its exchange fetches are spare, made only while less
// than half the minute's global budget is spent, else a 503 with Retry-After; what the service
// holds is served to it all the same, and a request at the default urgency still fetches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

const harness = portalHarness();
const LOW = { priority: 'u=6' };

describe('Priority: u=5 … u=7', () => {
  it('waits for room in the global budget when fetching, and is served what the service holds', async () => {
    // 10 fetches a minute in all: spare ones only while fewer than 5 are spent.
    const svc = await harness.fresh({ EXCHANGE_FETCH_LIMIT_GLOBAL: '10' });
    const before = harness.portal.counts().total;
    const quote = await http(svc.url, '/stocks/HBL/quote');
    assert.equal(quote.status, 200);
    const overview = await http(svc.url, '/stocks/OGDC/overview');
    assert.equal(overview.status, 200);
    assert.ok(harness.portal.counts().total - before >= 5, 'half the budget is spent');

    const low = await http(svc.url, '/stocks/LUCK/performance', { headers: LOW });
    assertError(low.json, 503, 'exchange_unavailable');
    assert.match(low.json.error.message, /kept for the first parts of readers' pages/);
    const wait = Number(low.headers['retry-after']);
    assert.ok(wait >= 1 && wait <= 60, low.headers['retry-after']);

    // Held answers cost nothing, whatever the urgency.
    assert.equal((await http(svc.url, '/stocks/HBL/quote', { headers: LOW })).status, 200);
    // Urgency 3 (the default) and unparseable values are not low.
    for (const priority of ['u=3', 'u=4, i', 'x=6']) {
      const res = await http(svc.url, '/stocks/LUCK/quote', { headers: { priority } });
      assert.notEqual(res.json?.error?.message?.includes('kept for the first parts'), true, priority);
    }
  });
});
