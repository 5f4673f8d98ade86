// /archive/status over real HTTP while the archiver backfills a fake market: once every history is
// in, the corporate actions still to fetch (two pages a symbol) are counted and in the time left,
// which reaches 0 only when the archiver is idle; and the status's as_of is the moment it was asked.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { karachiTime } from '../../src/time/karachi.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { waitForBackfill } from '../helpers/archive.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day.
const START = Date.parse('2026-11-20T12:00:00Z');
const PER_MINUTE = 600;

let portal: FakePortal;
let svc: RunningService;
let clock = START;

before(async () => {
  portal = await startFakePortal({ historyRows: 20 });
  svc = await startService(
    portal.url,
    { ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: String(PER_MINUTE) },
    { overrides: { now: () => clock } },
  );
});
after(async () => {
  await svc?.close();
  await portal?.close();
});

interface Status {
  archiver: string;
  symbols_done: number;
  symbols_total: number | null;
  eta_seconds: number | null;
  actions_left: number | null;
}

test('the time left counts the corporate actions after the histories, and as_of is when it was asked', async () => {
  let seen: Status | undefined;
  for (let i = 0; i < 1200 && seen === undefined; i++) {
    const s = (await http(svc.url, '/archive/status')).json.data as Status;
    if (s.symbols_total !== null && s.symbols_done === s.symbols_total && (s.actions_left ?? 0) > 2) seen = s;
    else await sleep(50);
  }
  assert.ok(seen, 'every history in, corporate actions still to fetch');
  assert.equal(seen.archiver, 'backfill');
  // Two fetches a symbol, never faster than the archiver's pace.
  const fastest = Math.floor(((seen.actions_left! * 2) / PER_MINUTE) * 60);
  assert.ok(
    seen.eta_seconds !== null && seen.eta_seconds >= fastest && seen.eta_seconds > 0,
    `time left ${seen.eta_seconds} s for ${seen.actions_left} symbols' corporate actions`,
  );

  const first = await http(svc.url, '/archive/status');
  clock += 5 * 60_000;
  const later = await http(svc.url, '/archive/status');
  assert.equal(first.json.meta.as_of, karachiTime(START));
  assert.equal(later.json.meta.as_of, karachiTime(clock), 'the status is as of when it was asked');

  const done = (await waitForBackfill(svc.url)) as unknown as Status;
  for (let i = 0; i < 600; i++) {
    const s = (await http(svc.url, '/archive/status')).json.data as Status;
    if (s.archiver === 'idle') {
      assert.equal(s.actions_left, 0);
      assert.equal(s.eta_seconds, 0);
      return;
    }
    await sleep(50);
  }
  assert.fail(`the archiver did not become idle: ${JSON.stringify(done)}`);
});
