// The exchange's daily closing files over real HTTP, against SQLite and PostgreSQL: the archiver
// keeps every file (gzip and ZIP) and the portal's no-session days, and the service answers
// /market/daily (every market), /market/universe, /market/trading-days, a delisted symbol's
// history, panels with delisted symbols, and /archive/status with the file/history disagreement.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { disagreementDay, FILE_QUIRKS } from '../../dev/fake-portal/daily-files.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

const ARCHIVE_ENV = {
  ARCHIVE: 'on',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '60000',
  EXCHANGE_FETCH_LIMIT_PER_IP: '0',
  ARCHIVE_BACKOFF_MS: '200',
};

async function waitForFiles(url: string, timeoutMs = 90_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await http(url, '/archive/status');
    const s = res.json?.data;
    if (s && s.archiver === 'idle' && s.files_total !== null && s.files_done === s.files_total) return s;
    if (Date.now() > until) throw new Error(`the files backfill did not finish: ${res.text}`);
    await sleep(100);
  }
}

// The 2016 era: the service's clock on Friday 2016-07-01 17:00 Karachi, files from 2016-03-14.
const CLOCK_2016 = Date.parse('2016-07-01T12:00:00Z');
// The fake market's day: Friday 2026-11-20 17:00 Karachi.
const CLOCK_2026 = Date.parse('2026-11-20T12:00:00Z');

function suite(name: string, env: () => Record<string, string>) {
  describe(`daily closing files: ${name}, 2016 (gzip)`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    before(async () => {
      portal = await startFakePortal({ historyRows: 30 });
      svc = await startService(
        portal.url,
        { ...ARCHIVE_ENV, ARCHIVE_FILES_FROM: '2016-03-14', ...env() },
        { overrides: { now: () => CLOCK_2016 } },
      );
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test('every weekday file is fetched once, newest first; a holiday is kept as no session', async () => {
      const status = await waitForFiles(svc.url);
      assert.equal(status.files_total, 16 * 5, 'weekdays 2016-03-14 … 2016-07-01');
      assert.equal(status.files_no_session, 1, '2016-03-23 has no file');
      assert.equal(status.files_kept, 79);
      assert.equal(status.files_first_date, '2016-03-14');
      assert.equal(status.files_last_date, '2016-07-01');
      const asked = Object.keys(portal.counts().requests).filter((k) => k.includes('/download/mkt_summary/'));
      assert.equal(asked.length, 80);
      assert.ok(
        Object.entries(portal.counts().requests).every(([k, n]) => !k.includes('/download/') || n === 1),
      );
      assert.equal(portal.counts().rejected.referer ?? 0, 0, 'the Referer is sent');
    });

    test('/market/daily of a 2016 day: the delisted DLTX from the file, source and marker', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/market/daily?date=2016-05-10');
      assert.equal(res.status, 200, res.text);
      const dltx = res.json.data.find((r: { symbol: string }) => r.symbol === 'DLTX');
      assert.ok(dltx, 'a symbol delisted since is in its day');
      assert.equal(dltx.source, 'file');
      assert.equal(dltx.marker, null);
      assert.ok(
        !res.json.data.some((r: { symbol: string }) => r.symbol.includes('-')),
        'futures are not equities',
      );
      const fut = await http(svc.url, '/market/daily?date=2016-05-10&market=index_futures');
      assert.deepEqual(
        fut.json.data.map((r: { symbol: string; underlying: string; contract_month: string }) => [
          r.symbol,
          r.underlying,
          r.contract_month,
        ]),
        [['KSE30-MAY', 'KSE30', '2016-05']],
      );
      const hol = await http(svc.url, '/market/daily?date=2016-03-23');
      assert.equal(hol.status, 404);
      assert.match(hol.json.error.message, /previous trading day is 2016-03-22, the next 2016-03-24/);
    });

    test('/market/trading-days: a weekday without a file is a holiday', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/market/trading-days?from=2016-03-21&to=2016-03-25');
      assert.deepEqual(
        res.json.data.map((d: { date: string }) => d.date),
        ['2016-03-21', '2016-03-22', '2016-03-24', '2016-03-25'],
      );
    });

    test('/market/universe lists the day’s equities with listed_today', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/market/universe?date=2016-06-30');
      assert.equal(res.status, 200, res.text);
      const dltx = res.json.data.find((r: { symbol: string }) => r.symbol === 'DLTX');
      assert.deepEqual(dltx, {
        symbol: 'DLTX',
        name: 'Delta Textile Mills',
        sector_code: '0830',
        marker: null,
        listed_today: false,
      });
      const after = await http(svc.url, '/market/universe?date=2016-07-01');
      assert.ok(
        !after.json.data.some((r: { symbol: string }) => r.symbol === 'DLTX'),
        'gone after its last day',
      );
      assert.equal((await http(svc.url, '/market/universe?date=2016-03-23')).status, 404);
    });

    test('a past ranking of a sector includes the equities of its start day delisted since', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/market/performance?sector=0807&period=1M&end=2016-06-30');
      assert.equal(res.status, 200, res.text);
      const oldbk = res.json.data.find((r: { symbol: string }) => r.symbol === 'OLDBK');
      assert.ok(oldbk, 'OLDBK, delisted in 2019, is ranked');
      assert.equal(oldbk.delisted, true);
      assert.equal(oldbk.end_date, '2016-06-30');
      const bars = (await http(svc.url, '/stocks/OLDBK/historical?start=2016-05-01&end=2016-06-30')).json
        .data as {
        date: string;
        close: number;
      }[];
      const start = bars.filter((b) => b.date <= '2016-05-30').at(-1)!;
      assert.equal(oldbk.start_date, start.date);
      assert.equal(oldbk.start_close, start.close);
      assert.equal(oldbk.adjusted, false, 'raw closes: no adjusted series for a delisted symbol');
      assert.ok(res.json.meta.coverage.raw.some((r: { symbol: string }) => r.symbol === 'OLDBK'));
      assert.equal(oldbk.end_close, bars.at(-1)!.close);
      assert.ok(
        res.json.data
          .filter((r: { delisted?: boolean }) => r.delisted)
          .every((r: { symbol: string }) => r.symbol === 'OLDBK'),
      );
      const now = await http(svc.url, '/market/performance?sector=0807&period=1M');
      assert.ok(!now.json.data.some((r: { symbol: string }) => r.symbol === 'OLDBK'), 'not without end');
    });

    test('a past all-share ranking includes every equity of its start day, delisted ones marked', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/market/performance?index=ALLSHR&period=1M&end=2016-07-01');
      assert.equal(res.status, 200, res.text);
      const dltx = res.json.data.find((r: { symbol: string }) => r.symbol === 'DLTX');
      assert.ok(dltx, 'DLTX, delisted after 2016-06-30, traded on the start day 2016-06-01');
      assert.equal(dltx.delisted, true);
      assert.equal(dltx.adjusted, false);
      const bars = (await http(svc.url, '/stocks/DLTX/historical?start=2016-05-20')).json.data as {
        date: string;
        close: number;
      }[];
      const start = bars.filter((b) => b.date <= '2016-06-01').at(-1)!;
      assert.equal(dltx.start_date, start.date, 'from the period’s start day, not a month before its last');
      assert.equal(dltx.end_date, '2016-06-30', 'to its last day of trading');
      const raw = (bars.at(-1)!.close / start.close - 1) * 100;
      assert.ok(Math.abs(dltx.return_pct - raw) < 1e-9, `${dltx.return_pct} ≈ ${raw}`);
      assert.equal(typeof dltx.rank, 'number');
      assert.ok(
        res.json.data.some((r: { symbol: string; delisted?: boolean }) => r.symbol === 'OLDBK' && r.delisted),
      );
      const m = res.json.meta.coverage.membership;
      assert.equal(m.delisted_included, true);
      assert.equal(m.start_day, '2016-06-01');
      assert.equal(m.delisted, res.json.data.filter((r: { delisted?: boolean }) => r.delisted).length);
      const now = await http(svc.url, '/market/performance?index=ALLSHR&period=1M');
      assert.ok(!now.json.data.some((r: { delisted?: boolean }) => r.delisted), 'not without end');
      assert.equal(now.json.meta.coverage.membership, undefined);
    });

    test('a past KSE100 ranking (the default) says its membership is today’s', async () => {
      await waitForFiles(svc.url);
      for (const path of [
        '/market/performance?period=1M&end=2016-06-30',
        '/market/performance?index=kse-100&period=1M&end=2016-06-30',
      ]) {
        const res = await http(svc.url, path);
        assert.equal(res.status, 200, res.text);
        const m = res.json.meta.coverage.membership;
        assert.equal(m.delisted_included, false, path);
        assert.equal(m.start_day, null);
        assert.match(m.note, /KSE100’s members are today’s/);
        assert.match(m.note, /not included/);
        assert.ok(!res.json.data.some((r: { delisted?: boolean }) => r.delisted));
      }
      const sector = await http(svc.url, '/market/performance?sector=0807&period=1M&end=2016-06-30');
      assert.equal(sector.json.meta.coverage.membership.delisted_included, true);
    });

    test('sector rows count the members that traded at the start, delisted ones included', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/sectors/performance?period=1M&end=2016-07-01');
      assert.equal(res.status, 200, res.text);
      const banks = res.json.data.find((r: { sector_code: string }) => r.sector_code === '0807');
      assert.equal(banks.delisted_members, 1, 'OLDBK is counted');
      const m = res.json.meta.coverage.membership;
      assert.equal(m.delisted_included, true);
      assert.equal(m.start_day, '2016-06-01');
      assert.deepEqual(m.unplaced, [{ symbol: 'DLTX', sector_code: '0830' }], 'its sector is gone');
      assert.match(m.note, /no longer on the sector page \(0830\)/);
      // The same members and returns as the sector's own ranking, OLDBK in it.
      const ranking = await http(svc.url, '/market/performance?sector=0807&period=1M&end=2016-07-01');
      const returns = (ranking.json.data as { return_pct: number | null }[])
        .map((r) => r.return_pct)
        .filter((r): r is number => r !== null);
      assert.ok(returns.length > 0);
      assert.equal(banks.members_at_start, returns.length);
      assert.equal(banks.members_counted, 0, 'the listed banks have no 2016 close here; OLDBK has no cap');
      assert.equal(banks.return_pct, null);
      const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
      assert.ok(
        Math.abs(banks.equal_weight_return_pct - mean) < 1e-9,
        `${banks.equal_weight_return_pct} ≈ ${mean}`,
      );
      // Without end the period ends on the members' last day (2026 here), which the files do not reach.
      const now = await http(svc.url, '/sectors/performance?period=1M');
      assert.equal(now.status, 200, now.text);
      assert.equal(now.json.meta.coverage.membership.delisted_included, false);
      assert.match(now.json.meta.coverage.membership.note, /do not reach back/);
      assert.ok(now.json.data.every((r: { delisted_members: number | null }) => r.delisted_members === null));
    });

    test('a delisted symbol’s history comes from the files; adjusted is unavailable; unknown is 404', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/stocks/DLTX/historical?start=2016-06-27');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.json.data.map((r: { date: string }) => r.date),
        ['2016-06-27', '2016-06-28', '2016-06-29', '2016-06-30'],
      );
      assert.equal(res.json.meta.delisted, true);
      assert.equal(res.json.meta.last_traded, '2016-06-30');
      const adj = await http(svc.url, '/stocks/DLTX/historical?start=2016-06-27&adjusted=true');
      assert.equal(adj.json.meta.adjustment.status, 'unavailable');
      assert.equal(adj.json.data[0].adjustment_factor, null);
      assert.equal((await http(svc.url, '/stocks/NOSUCH/historical')).status, 404);
      const panel = await http(svc.url, '/historical?symbols=DLTX,NOSUCH&start=2016-06-29&layout=wide');
      assert.equal(panel.status, 200, panel.text);
      assert.deepEqual(panel.json.meta.not_found, ['NOSUCH']);
      assert.deepEqual(panel.json.meta.sources.files, ['DLTX']);
      assert.deepEqual(
        panel.json.data.map((r: { date: string }) => r.date),
        ['2016-06-29', '2016-06-30'],
      );
    });
  });

  describe(`daily closing files: ${name}, 2026 (ZIP)`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    let clock = CLOCK_2026;
    before(async () => {
      portal = await startFakePortal({ historyRows: 30 });
      svc = await startService(
        portal.url,
        { ...ARCHIVE_ENV, ARCHIVE_FILES_FROM: '2026-10-12', ...env() },
        { overrides: { now: () => clock } },
      );
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test('futures, debt and markers by market=; the disagreement with the history is in the status', async () => {
      const status = await waitForFiles(svc.url);
      const d = disagreementDay(portal.dataset);
      const listed = (status.file_disagreements as Array<Record<string, unknown>>).filter(
        (x) => x.symbol === d.symbol && x.date === d.date,
      );
      assert.equal(listed.length, 1, JSON.stringify(status.file_disagreements));
      const page = portal.dataset.history(d.symbol).find((r) => r.date === d.date)!;
      assert.equal(listed[0]!.field, 'close');
      assert.equal(listed[0]!.history, page.close);
      assert.equal(Math.round(((listed[0]!.file as number) - page.close!) * 100) / 100, d.delta);
      // The answer serves the history's bar.
      const day = await http(svc.url, `/market/daily?date=${d.date}&symbols=${d.symbol}`);
      assert.equal(day.json.data[0].close, page.close);
      assert.equal(day.json.data[0].source, 'history');

      const today = await http(svc.url, '/market/daily?date=2026-11-20&symbols=HBL,UBL,MCB');
      assert.deepEqual(
        today.json.data.map((r: { symbol: string; marker: string | null }) => [r.symbol, r.marker]),
        [
          ['HBL', 'XD'],
          ['MCB', null],
          ['UBL', 'XB'],
        ],
      );
      const fut = await http(svc.url, '/market/daily?date=2026-11-20&market=futures&symbols=HBL');
      assert.deepEqual(
        fut.json.data.map((r: Record<string, unknown>) => [
          r.symbol,
          r.contract_month,
          r.cash_settled,
          r.series,
        ]),
        [
          ['HBL-CNOV', '2026-11', true, null],
          ['HBL-NOV', '2026-11', false, null],
          ['HBL-NOVB', '2026-11', false, 'B'],
        ],
      );
      const luck = await http(
        svc.url,
        `/market/daily?date=2026-11-20&market=futures&symbols=${FILE_QUIRKS.untradedContract}NOV`,
      );
      assert.deepEqual([luck.json.data[0].open, luck.json.data[0].volume], [null, 0]);
      const debt = await http(svc.url, '/market/daily?date=2026-11-20&market=debt');
      assert.equal(debt.json.data[0].volume, 4_000_005_000);
      const csv = await http(svc.url, '/market/daily?date=2026-11-20&market=futures&format=csv');
      assert.match(csv.text.split('\n')[0]!, /contract_month/);
      const bad = await http(svc.url, '/market/daily?date=2026-11-20&market=futures&adjusted=true');
      assert.equal(bad.status, 400);
    });

    test('/sectors/performance without end: members at the start, their equal-weighted and median returns', async () => {
      await waitForFiles(svc.url);
      const res = await http(svc.url, '/sectors/performance?period=1M');
      assert.equal(res.status, 200, res.text);
      const m = res.json.meta.coverage.membership;
      assert.equal(m.delisted_included, true);
      assert.equal(m.start_day, '2026-10-20', 'the last file on or before 2026-11-20 − 1 month');
      assert.equal(m.delisted, 0, 'nothing traded then has been delisted since');
      const banks = res.json.data.find((r: { sector_code: string }) => r.sector_code === '0807');
      assert.equal(banks.delisted_members, 0);
      const ranking = await http(svc.url, '/market/performance?sector=0807&period=1M');
      const returns = (ranking.json.data as { return_pct: number | null }[])
        .map((r) => r.return_pct)
        .filter((r): r is number => r !== null)
        .sort((a, b) => a - b);
      assert.ok(returns.length > 1);
      assert.equal(banks.members_at_start, returns.length);
      const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
      assert.ok(
        Math.abs(banks.equal_weight_return_pct - mean) < 1e-9,
        `${banks.equal_weight_return_pct} ≈ ${mean}`,
      );
      const mid = returns.length >> 1;
      const median = returns.length % 2 ? returns[mid]! : (returns[mid - 1]! + returns[mid]!) / 2;
      assert.ok(Math.abs(banks.median_return_pct - median) < 1e-9);
      assert.ok(banks.return_pct !== null, 'the cap-weighted figure stays');
    });

    test('a restart on the same archive fetches no stored day again', async () => {
      await waitForFiles(svc.url);
      const before = portal.counts().requests;
      // The next Monday after its close: only that day's file is new.
      clock = Date.parse('2026-11-23T12:00:00Z');
      await svc.service.archiver?.stop();
      svc.service.archiver?.start();
      const status = await waitForFiles(svc.url);
      assert.equal(status.files_done, status.files_total);
      const asked = Object.entries(portal.counts().requests).filter(
        ([k, n]) => k.includes('/download/') && n !== (before[k] ?? 0),
      );
      // 2026-11-23 is past the fake market's day: the 404 page, kept as no session.
      assert.deepEqual(
        asked.map(([k]) => k),
        ['GET /download/mkt_summary/2026-11-23.Z'],
      );
    });
  });
}

suite('SQLite', () => ({}));

const pgSkip = postgresUnavailableReason();
let pg: TestPostgres | undefined;
if (!pgSkip) {
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await pg?.stop();
  });
  suite('PostgreSQL', () => ({ DATABASE_URL: pg!.url }));
}
