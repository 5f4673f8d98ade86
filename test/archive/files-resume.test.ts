// The daily files' backfill survives kill -9: the service is killed while it stores the files,
// restarted on the same archive, and finishes; the fake portal's counts show no day fetched twice
// (but for the one in flight at the kill, whose rows were never committed).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { spawnService } from '../helpers/process.ts';
import { http } from '../helpers/service.ts';

let portal: FakePortal;
let dir: string;

before(async () => {
  portal = await startFakePortal({ historyRows: 20 });
  dir = mkdtempSync(join(tmpdir(), 'psxmd-files-resume-'));
});
after(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

const fileCounts = (): Array<[string, number]> =>
  Object.entries(portal.counts().requests).filter(([k]) => k.includes('/download/mkt_summary/'));

test('kill -9 while the files are stored, restart: no stored day is fetched again', async () => {
  const env = {
    EXCHANGE_BASE_URL: portal.url,
    CACHE_DIR: dir,
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '12000',
    ARCHIVE: 'on',
    ARCHIVE_BACKOFF_MS: '200',
    ARCHIVE_FILES_FROM: '2025-06-02',
    PARSER_WARM_UP: 'false',
  };
  const first = await spawnService(env);
  let done = 0;
  for (let i = 0; i < 1200 && done < 120; i++) {
    done = (await http(first.url, '/archive/status')).json.data.files_done;
    await sleep(50);
  }
  assert.ok(done >= 120, `half-way through (${done})`);
  first.child.kill('SIGKILL');
  await first.exited;
  const before = fileCounts().length;

  const second = await spawnService(env);
  try {
    let status;
    for (let i = 0; i < 1800; i++) {
      status = (await http(second.url, '/archive/status')).json.data;
      if (
        status.archiver === 'idle' &&
        status.files_total !== null &&
        status.files_done === status.files_total
      )
        break;
      await sleep(100);
    }
    assert.equal(status.files_done, status.files_total, JSON.stringify(status));
    assert.ok(before < status.files_total, 'killed before the end');
    const twice = fileCounts().filter(([, n]) => n > 1);
    assert.ok(twice.length <= 1, `fetched twice: ${JSON.stringify(twice)}`);
    assert.equal(fileCounts().length, status.files_total);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});
