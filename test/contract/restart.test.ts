// The store survives the process: a real server, killed with SIGKILL, restarted on the same store
// directory, answers what it had fetched with zero portal fetches.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { spawnService } from '../helpers/process.ts';
import { http } from '../helpers/service.ts';

let portal: FakePortal;
let dir: string;

before(async () => {
  portal = await startFakePortal();
  dir = mkdtempSync(join(tmpdir(), 'psxmd-restart-'));
});
after(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

function envFor(cacheDir: string): Record<string, string> {
  return {
    EXCHANGE_BASE_URL: portal.url,
    CACHE_DIR: cacheDir,
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
    EXCHANGE_RETRY_BASE_MS: '5',
  };
}

const PATHS = [
  '/stocks',
  '/screener',
  '/stocks/ENGRO/quote',
  '/stocks/ENGRO/historical',
  '/sectors',
  '/indices/KSE100',
  // The adjusted series and the payouts page are stored too.
  '/stocks/ENGRO/historical?adjusted=true&dividends=true',
  '/stocks/ENGRO/corporate-actions',
];

describe('restart after SIGKILL', () => {
  it('serves everything fetched before from disk, without a portal fetch', async () => {
    const first = await spawnService(envFor(dir));
    const before: Record<string, unknown> = {};
    for (const path of PATHS) {
      const res = await http(first.url, path);
      assert.equal(res.status, 200, path);
      before[path] = res.json.data;
    }
    first.child.kill('SIGKILL');
    await first.exited;

    portal.resetCounts();
    const second = await spawnService(envFor(dir));
    try {
      for (const path of PATHS) {
        const res = await http(second.url, path);
        assert.equal(res.status, 200, path);
        assert.equal(res.json.meta.cached, true, path);
        assert.equal(res.headers['x-cache'], 'HIT', path);
        assert.deepEqual(res.json.data, before[path], path);
      }
      assert.equal(portal.counts().total, 0, 'no portal fetch after the restart');
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  });

  it('loses nothing that was answered when killed in the middle of writes', async () => {
    const crashDir = mkdtempSync(join(tmpdir(), 'psxmd-crash-'));
    try {
      const svc = await spawnService(envFor(crashDir));
      const symbols = portal.dataset.screener.slice(0, 40).map((r) => r.symbol);
      const answered: string[] = [];
      let killed = false;
      await Promise.allSettled(
        symbols.map(async (symbol) => {
          const res = await http(svc.url, `/stocks/${encodeURIComponent(symbol)}/historical`);
          if (res.status === 200 && !killed) answered.push(symbol);
          if (answered.length >= 15 && !killed) {
            killed = true;
            svc.child.kill('SIGKILL');
          }
        }),
      );
      await svc.exited;
      assert.ok(answered.length >= 15, `answered ${answered.length} before the kill`);

      portal.fail({ mode: 'down' });
      const restarted = await spawnService(envFor(crashDir));
      try {
        for (const symbol of answered) {
          const res = await http(restarted.url, `/stocks/${encodeURIComponent(symbol)}/historical`);
          assert.equal(res.status, 200, `${symbol} survived the crash`);
          assert.equal(res.json.meta.cached, true);
        }
      } finally {
        restarted.child.kill('SIGKILL');
        await restarted.exited;
        portal.clear();
      }
    } finally {
      rmSync(crashDir, { recursive: true, force: true });
    }
  });
});
