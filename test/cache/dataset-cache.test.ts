// The dataset cache on a clock the test moves: HIT while fresh, the copy plus one background
// refresh just past it, one shared load for concurrent misses, the old copy when a load fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatasetCache, type DatasetSpec } from '../../src/cache/dataset-cache.ts';
import { ExchangeUnavailableError } from '../../src/errors.ts';

const TTL = 60_000;
const SWR = 30_000;

function setup() {
  let clock = 1_000_000;
  const cache = new DatasetCache({ memoryBytes: 1 << 20, staleWhileRevalidateMs: SWR, now: () => clock });
  let loads = 0;
  let failing = false;
  let gate: Promise<void> = Promise.resolve();
  const spec: DatasetSpec<string> = {
    key: 'k',
    load: async () => {
      loads++;
      await gate;
      if (failing) throw new ExchangeUnavailableError('portal down', 5);
      return `v${loads}`;
    },
    freshUntil: (_v, fetchedAt) => fetchedAt + TTL,
  };
  return {
    cache,
    spec,
    loads: () => loads,
    advance: (ms: number) => (clock += ms),
    fail: (on: boolean) => (failing = on),
    hold: () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return open;
    },
  };
}

describe('DatasetCache', () => {
  it('MISS, then HIT while fresh, without loading again', async () => {
    const t = setup();
    const first = await t.cache.get(t.spec);
    assert.equal(first.state, 'MISS');
    assert.equal(first.value, 'v1');
    t.advance(TTL - 1);
    const again = await t.cache.get(t.spec);
    assert.equal(again.state, 'HIT');
    assert.equal(again.value, 'v1');
    assert.equal(t.loads(), 1);
  });

  it('just past freshness: the copy at once (STALE) and one background refresh', async () => {
    const t = setup();
    await t.cache.get(t.spec);
    t.advance(TTL + 1);
    const open = t.hold();
    const [a, b] = await Promise.all([t.cache.get(t.spec), t.cache.get(t.spec)]);
    assert.equal(a.state, 'STALE');
    assert.equal(b.value, 'v1');
    open();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(t.loads(), 2, 'one refresh for both reads');
    const after = await t.cache.get(t.spec);
    assert.equal(after.state, 'HIT');
    assert.equal(after.value, 'v2');
  });

  it('concurrent misses share one load', async () => {
    const t = setup();
    const open = t.hold();
    const reads = Promise.all(Array.from({ length: 20 }, () => t.cache.get(t.spec)));
    open();
    const answers = await reads;
    assert.equal(t.loads(), 1);
    for (const a of answers) assert.equal(a.value, 'v1');
  });

  it('a failed load serves the old copy past the revalidation window, and never replaces it', async () => {
    const t = setup();
    await t.cache.get(t.spec);
    t.advance(TTL + SWR + 1);
    t.fail(true);
    const stale = await t.cache.get(t.spec);
    assert.equal(stale.state, 'STALE');
    assert.equal(stale.value, 'v1');
    t.fail(false);
    const next = await t.cache.get(t.spec);
    assert.equal(next.state, 'MISS');
    assert.equal(next.value, 'v3');
  });

  it('a failed load without a copy is the error', async () => {
    const t = setup();
    t.fail(true);
    await assert.rejects(t.cache.get(t.spec), ExchangeUnavailableError);
  });
});
