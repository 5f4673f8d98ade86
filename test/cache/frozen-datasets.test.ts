// Cached datasets are shared by every answer memoised on them, so none may change: outside
// production the cache deep-freezes each one, and code that mutates it throws where it is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatasetCache, type DatasetSpec } from '../../src/cache/dataset-cache.ts';
import type { CacheEntry } from '../../src/cache/types.ts';
import { memoByDataset } from '../../src/cache/memo.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';

interface Page {
  rows: { symbol: string; listedIn: string[] }[];
}

const page = (): Page => ({
  rows: [{ symbol: 'ENGRO', listedIn: ['KSE100'] }],
});

function cacheOf(freezeDatasets: boolean): DatasetCache {
  return new DatasetCache({ memoryBytes: 1 << 20, staleWhileRevalidateMs: 0, now: () => 0, freezeDatasets });
}

const spec: DatasetSpec<Page> = { key: 'page', load: async () => page(), freshUntil: () => 60_000 };

describe('frozen datasets', () => {
  it('a dataset cached with freezing on is frozen all the way down, and writing to it throws', async () => {
    const cached = await cacheOf(true).get(spec);
    const value = cached.value as unknown as Page;
    assert.ok(Object.isFrozen(value));
    assert.ok(Object.isFrozen(value.rows));
    assert.ok(Object.isFrozen(value.rows[0]));
    assert.ok(Object.isFrozen(value.rows[0]!.listedIn));
    assert.throws(() => value.rows.push({ symbol: 'LUCK', listedIn: [] }), TypeError);
    assert.throws(() => (value.rows[0]!.symbol = 'LUCK'), TypeError);
    assert.throws(() => value.rows[0]!.listedIn.push('KMI30'), TypeError);
    assert.equal(value.rows[0]!.symbol, 'ENGRO');
  });

  it('a copy read back from a slower tier is frozen too', async () => {
    const held = new Map<string, unknown>();
    const tier = {
      read: async (key: string) => held.get(key) as CacheEntry<unknown> | undefined,
      write: async (key: string, entry: unknown) => void held.set(key, JSON.parse(JSON.stringify(entry))),
    };
    const make = () =>
      new DatasetCache({
        memoryBytes: 1 << 20,
        staleWhileRevalidateMs: 0,
        now: () => 0,
        freezeDatasets: true,
        tier,
      });
    await make().get({ ...spec, load: async () => page() });
    const restored = await make().get(spec);
    assert.equal((restored.value as unknown as Page).rows[0]!.symbol, 'ENGRO');
    assert.ok(Object.isFrozen((restored.value as unknown as Page).rows[0]));
  });

  it('with freezing off (production) the dataset is left as loaded', async () => {
    const cached = await cacheOf(false).get(spec);
    assert.equal(Object.isFrozen(cached.value), false);
  });

  describe('in the service the tests start', () => {
    const h = portalHarness();

    it('the market watch a quote was built from cannot be changed', async () => {
      const svc = await h.fresh();
      const res = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(res.status, 200);
      const board = await svc.service.datasets.marketWatch({ clientIp: '127.0.0.1' });
      const rows = board.value as unknown as { symbol: string; close: number | null }[];
      assert.ok(rows.length > 0);
      assert.throws(() => {
        rows[0]!.close = 0;
      }, TypeError);
      assert.throws(() => rows.reverse(), TypeError);
      const again = await http(svc.url, '/stocks/ENGRO/quote');
      assert.deepEqual(again.json.data, res.json.data);
    });
  });
});

describe('memoByDataset', () => {
  it('derives once per dataset identity, again for a new version', () => {
    let runs = 0;
    const total = memoByDataset((rows: readonly number[]) => {
      runs++;
      return rows.reduce((a, b) => a + b, 0);
    });
    const v1 = [1, 2, 3];
    assert.equal(total(v1), 6);
    assert.equal(total(v1), 6);
    assert.equal(runs, 1);
    assert.equal(total([1, 2]), 3);
    assert.equal(runs, 2);
  });

  it('keys on every argument: datasets by identity, switches by value, null included', () => {
    let runs = 0;
    const joined = memoByDataset((a: readonly string[], b: readonly string[] | null, upper: boolean) => {
      runs++;
      const s = [...a, ...(b ?? [])].join(',');
      return upper ? s.toUpperCase() : s;
    });
    const a = ['x'];
    const b = ['y'];
    assert.equal(joined(a, b, false), 'x,y');
    assert.equal(joined(a, b, true), 'X,Y');
    assert.equal(joined(a, null, false), 'x');
    assert.equal(joined(a, b, false), 'x,y');
    assert.equal(joined(a, null, false), 'x');
    assert.equal(runs, 3);
    assert.equal(joined(a, ['y'], false), 'x,y');
    assert.equal(runs, 4);
  });
});
