import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteStore } from '../../src/cache/sqlite-store.ts';
import type { HistorySeries } from '../../src/cache/types.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'psxmd-store-'));
}

describe('SqliteStore', () => {
  it('keeps documents and per-row history across reopening, duplicates and order included', async () => {
    const dir = tempDir();
    try {
      const store = new SqliteStore(dir, Date.now);
      await store.write('screener', {
        value: [{ symbol: 'A', price: 1.5 }],
        fetchedAt: 1000,
        freshUntil: 2000,
      });
      const series: HistorySeries = {
        rows: [
          { date: '2026-11-20', open: 1, high: 2, low: 0.5, close: 1.5, volume: 100 },
          { date: '2026-11-19', open: 1, high: 2, low: 0.5, close: 1.4, volume: null },
          { date: '2026-11-19', open: 1, high: 2, low: 0.5, close: 1.3, volume: 7 },
        ],
        fullFetchedAt: 900,
      };
      await store.write('history:ENGRO', { value: series, fetchedAt: 1000, freshUntil: 3000 });
      store.close();

      const reopened = new SqliteStore(dir, Date.now);
      assert.deepEqual(await reopened.read('screener'), {
        value: [{ symbol: 'A', price: 1.5 }],
        fetchedAt: 1000,
        freshUntil: 2000,
      });
      assert.deepEqual(await reopened.read('history:ENGRO'), {
        value: series,
        fetchedAt: 1000,
        freshUntil: 3000,
      });
      assert.equal(await reopened.read('history:NOPE'), undefined);
      assert.equal(await reopened.read('nope'), undefined);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('moves a corrupt file aside and starts empty instead of crashing', async () => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir, 'market-data.sqlite'), 'this is not a database'.repeat(200));
      const store = new SqliteStore(dir, Date.now);
      assert.equal(await store.read('screener'), undefined);
      await store.write('screener', { value: [], fetchedAt: 1, freshUntil: 2 });
      assert.deepEqual(await store.read('screener'), { value: [], fetchedAt: 1, freshUntil: 2 });
      assert.ok(
        readdirSync(dir).some((f) => f.startsWith('market-data.sqlite.corrupt-')),
        'the bad file is kept aside',
      );
      assert.ok(existsSync(join(dir, 'market-data.sqlite')));
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
