// The daily closing file as a page kind of the drift alarm, over real HTTP: the service (ARCHIVE=on)
// fetches the files, GET /health/portal reports `daily-file` ok; the portal's no-session page leaves
// it so; a file whose layout drifted is `changed` with the field named, is not stored (the kept
// days are untouched, the day is not an empty one) and is asked again; restored, it is kept and ok.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

interface PortalPageJson {
  page: string;
  state: string;
  last_fetch: string | null;
  last_ok: string | null;
  missing_fields: string[];
  detail: string | null;
}

const MINUTE = 60_000;
// Friday 2026-11-20, 17:00 Karachi: after the close, so the day's file is due.
const SERVICE_START = Date.parse('2026-11-20T12:00:00Z');
// The portal's clock: 15:40 Karachi, before the fake exchange publishes the day's file (16:00).
const BEFORE_PUBLISHED = Date.parse('2026-11-20T10:40:00Z');
const PUBLISHED = Date.parse('2026-11-20T11:30:00Z');
const TODAY_FILE = 'GET /download/mkt_summary/2026-11-20.Z';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('GET /health/portal: the daily closing file (ARCHIVE=on)', () => {
  let portal: FakePortal;
  let svc: RunningService;
  let portalClock = BEFORE_PUBLISHED;
  let clock = SERVICE_START;
  const logs: string[] = [];

  before(async () => {
    portal = await startFakePortal({ historyRows: 30, now: () => portalClock });
    svc = await startService(
      portal.url,
      {
        ARCHIVE: 'on',
        ARCHIVE_FILES_FROM: '2026-11-16',
        ARCHIVE_IDLE_MS: '200',
        ARCHIVE_BACKOFF_MS: '200',
        EXCHANGE_FETCH_LIMIT_GLOBAL: '60000',
        LOG_LEVEL: 'warn',
      },
      { overrides: { now: () => clock }, logLines: logs },
    );
  });
  after(async () => {
    await svc?.close();
    await portal?.close();
  });

  async function dailyFile(): Promise<PortalPageJson> {
    const res = await http(svc.url, '/health/portal');
    assert.equal(res.status, 200, res.text);
    const page = (res.json.data as PortalPageJson[]).find((p) => p.page === 'daily-file');
    assert.ok(page, 'daily-file is one of the page kinds');
    return page;
  }

  const asked = (): number => portal.counts().requests[TODAY_FILE] ?? 0;
  const status = async () => (await http(svc.url, '/archive/status')).json.data;
  const day = async (date: string) => (await http(svc.url, `/market/daily?date=${date}`)).json;
  const driftWarnings = () =>
    logs.map((l) => JSON.parse(l)).filter((l) => l.page === 'daily-file' && l.state !== undefined);

  it('reports the kind, ok after the archiver read the week’s files; the no-session page leaves it ok', async () => {
    const s = await until('the files of 2026-11-16 … 19', async () => {
      const st = await status();
      return st?.files_kept === 4 && st.files_no_session === 1 ? st : undefined;
    });
    assert.equal(s.files_last_date, '2026-11-19');
    const ok = await dailyFile();
    assert.equal(ok.state, 'ok');
    assert.deepEqual(ok.missing_fields, []);
    assert.equal(ok.detail, null);
    assert.ok(ok.last_ok !== null && ok.last_ok === ok.last_fetch, JSON.stringify(ok));

    // Today's file is asked again every 15 minutes after the close; not published yet, the portal
    // answers its 404 page: a day without a file, which says nothing about the file's layout.
    const before = asked();
    clock += 16 * MINUTE;
    await until('today’s file asked again', async () => (asked() > before ? true : undefined));
    const still = await dailyFile();
    assert.equal(still.state, 'ok');
    assert.equal(still.last_fetch, ok.last_fetch, 'a no-session answer is not a fetch of the file');
    assert.deepEqual(driftWarnings(), [], 'nothing logged');
  });

  it('a drifted file is changed with the field named, not stored, the kept days untouched; restored, ok', async () => {
    const kept = await day('2026-11-19');
    assert.equal(kept.data.length > 60, true, 'the 19th is kept');

    // The exchange publishes the day's file, with SECTOR dropped from every line.
    portal.drift({ path: '/download/mkt_summary/', dropColumn: 'SECTOR' });
    portalClock = PUBLISHED;
    const before = asked();
    clock += 16 * MINUTE;
    const changed = await until('daily-file changed', async () => {
      const p = await dailyFile();
      return p.state === 'changed' ? p : undefined;
    });
    assert.ok(asked() > before);
    assert.deepEqual(changed.missing_fields, ['sector']);
    assert.match(changed.detail ?? '', /no line reads \(line 1: not a sector code/);
    assert.notEqual(changed.last_ok, null, 'last_ok stays the last good fetch');

    const metrics = (await http(svc.url, '/metrics')).text.split('\n');
    assert.ok(metrics.includes('psxmd_exchange_page_state{page="daily-file",state="changed"} 1'));
    assert.ok(metrics.includes('psxmd_exchange_page_missing_field{page="daily-file",field="sector"} 1'));

    const s = await status();
    assert.equal(s.files_kept, 4, 'the drifted file is not kept');
    assert.equal(s.files_last_date, '2026-11-19');
    assert.match(s.last_error, /daily file 2026-11-20: .*no line reads/);
    assert.deepEqual((await day('2026-11-19')).data, kept.data, 'a kept day is untouched');
    const warnings = driftWarnings();
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0].state, 'changed');
    assert.deepEqual(warnings[0].missing_fields, ['sector']);

    // It is asked again each round (it is not settled as an empty day); still changed, no new warning.
    const again = asked();
    await until('the drifted file asked again', async () => (asked() > again ? true : undefined));
    assert.equal((await dailyFile()).state, 'changed');
    assert.equal(driftWarnings().length, 1, 'one warning per change of state');

    portal.restore();
    const ok = await until('daily-file ok again', async () => {
      const p = await dailyFile();
      return p.state === 'ok' ? p : undefined;
    });
    assert.deepEqual(ok.missing_fields, []);
    const after = await until('the 20th kept', async () => {
      const st = await status();
      return st?.files_kept === 5 ? st : undefined;
    });
    assert.equal(after.files_last_date, '2026-11-20');
    assert.deepEqual((await day('2026-11-19')).data, kept.data);
    assert.equal(driftWarnings().length, 2, 'the recovery is logged once');
  });
});
