// The portal budget rations portal fetches per client and in total, on a clock the test moves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExchangeUnavailableError, RateLimitedError } from '../../src/errors.ts';
import { PortalBudget } from '../../src/limits/portal-budget.ts';
import { MemoryWindowCounter } from '../../src/limits/window-counter.ts';

function budget(limits: Partial<ConstructorParameters<typeof PortalBudget>[1]> = {}) {
  let clock = 1_000_000;
  const rejected: string[] = [];
  const b = new PortalBudget(
    new MemoryWindowCounter(() => clock),
    { perIp: 0, global: 0, proxyPerIp: 0, proxyMaxInFlight: 4, ...limits },
    (scope) => rejected.push(scope),
  );
  return { b, rejected, advance: (ms: number) => (clock += ms) };
}

const direct = (ip: string) => ({ clientIp: ip });

describe('MemoryWindowCounter', () => {
  it('counts within a window and starts again when it resets', async () => {
    let clock = 0;
    const c = new MemoryWindowCounter(() => clock);
    assert.deepEqual(await c.hit('k', 60_000), { count: 1, resetMs: 60_000 });
    clock = 59_000;
    assert.deepEqual(await c.hit('k', 60_000), { count: 2, resetMs: 1_000 });
    assert.equal((await c.hit('other', 60_000)).count, 1, 'keys count apart');
    clock = 60_000;
    assert.deepEqual(await c.hit('k', 60_000), { count: 1, resetMs: 60_000 });
  });
});

describe('PortalBudget', () => {
  it('allows perIp fetches a minute per client, then 429 with the seconds until the window resets', async () => {
    const { b, rejected, advance } = budget({ perIp: 2 });
    await b.admit(direct('a'));
    advance(20_000);
    await b.admit(direct('a'));
    await assert.rejects(b.admit(direct('a')), (err: RateLimitedError) => {
      assert.ok(err instanceof RateLimitedError);
      assert.equal(err.retryAfter, 40);
      return true;
    });
    assert.deepEqual(rejected, ['ip']);
    await b.admit(direct('b')); // another client has its own budget
    advance(40_000);
    await b.admit(direct('a')); // a new window
  });

  it('counts a client’s fetches for one page once a minute, each of them globally', async () => {
    const { b, rejected, advance } = budget({ perIp: 2, global: 7 });
    const page = { ...direct('a'), page: 'stock:HBL' };
    await Promise.all([b.admit(page), b.admit(page), b.admit(page)]);
    await b.admit(page); // a later request of the same page
    await b.admit(direct('a')); // the page was one of two
    const next = { ...direct('a'), page: 'stock:OGDC' };
    const refused = await Promise.allSettled([b.admit(next), b.admit(next)]);
    assert.deepEqual(
      refused.map((r) => r.status === 'rejected' && r.reason instanceof RateLimitedError),
      [true, true],
    );
    // A page paid for is refused too once the client is over.
    await assert.rejects(b.admit(page), RateLimitedError);
    assert.deepEqual(rejected, ['ip', 'ip', 'ip']);
    // Globally the page was four fetches: with client a's other one, two are left in all.
    await b.admit(direct('b'));
    await b.admit(direct('c'));
    await assert.rejects(b.admit(direct('d')), ExchangeUnavailableError);
    advance(60_000);
    await b.admit(page); // a new minute: the page is paid for again
  });

  it('fetches spare parts only while less than half the global budget is spent, saying until when', async () => {
    const { b, rejected, advance } = budget({ global: 4 });
    const spare = { ...direct('a'), spare: true };
    await b.admit(spare);
    await b.admit(direct('b'));
    advance(15_000);
    await assert.rejects(b.admit(spare), (err: ExchangeUnavailableError) => {
      assert.ok(err instanceof ExchangeUnavailableError);
      assert.equal(err.retryAfter, 45);
      return true;
    });
    // A refused spare fetch spends nothing: the first parts of pages still get both fetches left.
    await b.admit(direct('c'));
    await b.admit(direct('d'));
    await assert.rejects(b.admit(direct('e')), ExchangeUnavailableError);
    assert.deepEqual(rejected, ['spare', 'global']);
    advance(45_000);
    await b.admit(spare);
  });

  it('refuses every client with 503 once the global budget is spent', async () => {
    const { b, rejected } = budget({ global: 2 });
    await b.admit(direct('a'));
    await b.admit(direct('b'));
    await assert.rejects(b.admit(direct('c')), ExchangeUnavailableError);
    assert.deepEqual(rejected, ['global']);
  });

  it('bounds proxied fetches in flight until they are released', async () => {
    const { b, rejected } = budget({ proxyMaxInFlight: 1 });
    const proxied = { clientIp: 'a', proxy: {} };
    const release = await b.admit(proxied);
    await assert.rejects(b.admit(proxied), RateLimitedError);
    assert.deepEqual(rejected, ['proxy-in-flight']);
    release();
    release(); // twice changes nothing
    const again = await b.admit(proxied);
    await assert.rejects(b.admit(proxied), RateLimitedError);
    again();
  });

  it('keeps a reserve of the global budget for interactive pages that bulk pages cannot spend', async () => {
    const { b, rejected } = budget({ global: 4, interactiveReserve: 1 });
    for (let i = 0; i < 3; i++) await b.admit(direct(`bulk${i}`), 'history');
    // Refused bulk fetches do not eat into the reserve, however many there are.
    for (let i = 0; i < 5; i++) {
      await assert.rejects(b.admit(direct('bulk'), 'eod'), (err: ExchangeUnavailableError) => {
        assert.ok(err instanceof ExchangeUnavailableError);
        assert.match(err.message, /3 of 4; the rest is kept for quotes and company pages/);
        return true;
      });
    }
    await b.admit(direct('person'), 'market-watch');
    await assert.rejects(b.admit(direct('person'), 'company'), ExchangeUnavailableError);
    assert.deepEqual(rejected, [...Array<string>(5).fill('global-bulk'), 'global']);
  });

  it('lets interactive pages use the whole global budget', async () => {
    const { b } = budget({ global: 3, interactiveReserve: 1 });
    for (const page of ['market-watch', 'screener', 'company'] as const) await b.admit(direct('a'), page);
    await assert.rejects(b.admit(direct('a'), 'market-watch'), ExchangeUnavailableError);
  });

  it('with limits of 0 admits everything', async () => {
    const { b, rejected } = budget();
    for (let i = 0; i < 100; i++) await b.admit(direct('a'));
    assert.deepEqual(rejected, []);
  });
});
