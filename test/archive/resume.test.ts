// A backfill survives kill -9: the service is killed half-way through, restarted on the same
// archive, and finishes; the fake portal's counts show no symbol fetched twice (but for the one
// whose page was in flight at the kill, whose rows were never committed).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { spawnService } from '../helpers/process.ts';
import { http } from '../helpers/service.ts';
import { waitForBackfill } from '../helpers/archive.ts';

let portal: FakePortal;
let dir: string;

before(async () => {
  portal = await startFakePortal({ extraSymbols: 60, historyRows: 20 });
  dir = mkdtempSync(join(tmpdir(), 'psxmd-resume-'));
});
after(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

test('kill -9 during a backfill, restart: it resumes and fetches no finished symbol again', async () => {
  const env = {
    EXCHANGE_BASE_URL: portal.url,
    CACHE_DIR: dir,
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    // 600 a minute for the archiver: one fetch every 100 ms.
    EXCHANGE_FETCH_LIMIT_GLOBAL: '1200',
    ARCHIVE: 'on',
    ARCHIVE_BACKOFF_MS: '200',
    PARSER_WARM_UP: 'false',
  };
  const first = await spawnService(env);
  let done = 0;
  for (let i = 0; i < 600 && done < 30; i++) {
    done = (await http(first.url, '/archive/status')).json.data.symbols_done;
    await sleep(50);
  }
  assert.ok(done >= 30, 'half-way through');
  first.child.kill('SIGKILL');
  await first.exited;
  const fetchedBefore = Object.keys(portal.counts().historical).length;
  assert.ok(fetchedBefore < 120, 'killed before the end');

  const second = await spawnService(env);
  try {
    const status = await waitForBackfill(second.url);
    const counts = portal.counts().historical;
    const listed = Object.keys(counts).length;
    assert.equal(status.symbols_done, listed);
    const twice = Object.entries(counts).filter(([, n]) => n > 1);
    assert.ok(
      twice.length <= 1 && twice.every(([, n]) => n === 2),
      `fetched twice: ${JSON.stringify(twice)}`,
    );
    assert.ok(second.logs.some((l) => l.includes('archive backfill progress')));
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
