// The archive's endpoints over real HTTP: a service with ARCHIVE=on backfills a small generated
// market from the fake portal, records the closed day, then answers grouped daily bars, panels,
// trading days and its status. Run against SQLite, and PostgreSQL when it is installed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day, after the close settled.
const NOW = Date.parse('2026-11-20T12:00:00Z');

const ARCHIVE_ENV = {
  ARCHIVE: 'on',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '6000',
  EXCHANGE_FETCH_LIMIT_PER_IP: '0',
  ARCHIVE_BUDGET_SHARE: '0.5',
  ARCHIVE_BACKOFF_MS: '200',
  ARCHIVE_PROGRESS_EVERY: '10',
};

function suite(name: string, env: () => Record<string, string>, extra?: (svc: () => RunningService) => void) {
  describe(`archive endpoints: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    let clock = NOW;
    before(async () => {
      portal = await startFakePortal({ historyRows: 30 });
      svc = await startService(portal.url, { ...ARCHIVE_ENV, ...env() }, { overrides: { now: () => clock } });
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test('the backfill fetches every listed symbol once and reports its progress', async () => {
      const status = await waitForBackfill(svc.url);
      const counts = portal.counts().historical;
      assert.ok(Object.keys(counts).length >= 60);
      assert.deepEqual(
        Object.entries(counts).filter(([, n]) => n !== 1),
        [],
        'no symbol fetched twice',
      );
      assert.equal(status.symbols_done, Object.keys(counts).length);
      assert.equal(status.last_recorded_day, '2026-11-20');
      assert.ok((status.rows as number) > 60 * 20);
      const metrics = await http(svc.url, '/metrics');
      assert.match(metrics.text, /psxmd_archive_symbols_done \d+/);
    });

    test("the archiver keeps the week's market-wide payouts, a few pages a day", async () => {
      await waitForBackfill(svc.url);
      const pages = portal.counts().requests['POST /payouts'] ?? 0;
      assert.ok(pages >= 1 && pages <= 3, `${pages} payouts pages`);
      const kept = await svc.service.archive.marketPayouts('2026-11-13', '2026-11-20');
      assert.ok(kept.length > 0);
    });

    test("GET /market/daily gives every symbol's bar of the day, agreeing with its history", async () => {
      const res = await http(svc.url, '/market/daily?date=2026-11-19');
      assert.equal(res.status, 200, res.text);
      assert.ok(res.json.meta.count >= 60);
      assert.equal(res.json.meta.as_of, '2026-11-19T15:30:00+05:00', 'a Thursday closes at 15:30');
      assert.ok(res.headers.etag);
      const engro = res.json.data.find((b: { symbol: string }) => b.symbol === 'ENGRO');
      const hist = await http(svc.url, '/stocks/ENGRO/historical?start=2026-11-19&end=2026-11-19');
      const { date, open, high, low, close, volume } = hist.json.data[0];
      assert.deepEqual(
        { date, open, high, low, close, volume },
        {
          date: engro.date,
          open: engro.open,
          high: engro.high,
          low: engro.low,
          close: engro.close,
          volume: engro.volume,
        },
      );
      const kse30 = await http(svc.url, '/market/daily?date=2026-11-19&index=KSE30');
      assert.ok(kse30.json.meta.count > 0 && kse30.json.meta.count < res.json.meta.count);
      const csv = await http(svc.url, '/market/daily?date=2026-11-19&symbols=ENGRO,HBL&format=csv');
      assert.match(
        csv.text,
        /^symbol,date,open,high,low,close,volume,is_anomaly,anomaly_reasons,marker,source,ldcp\r\nENGRO,2026-11-19,/,
      );
    });

    test('a date without a session names the trading days around it; bad dates are refused with a sentence', async () => {
      const sat = await http(svc.url, '/market/daily?date=2026-11-14');
      assert.equal(sat.status, 404);
      assert.match(sat.json.error.message, /previous trading day is 2026-11-13, the next 2026-11-16/);
      const future = await http(svc.url, '/market/daily?date=2026-12-01');
      assert.equal(future.status, 400);
      assert.match(future.json.error.message, /in the future/);
      const bad = await http(svc.url, '/market/daily?date=yesterday');
      assert.equal(bad.status, 422);
      const early = await http(svc.url, '/market/daily?date=2001-01-01');
      assert.equal(early.status, 404);
      assert.match(early.json.error.message, /before the archive's first trading day/);
    });

    test('GET /historical: a long panel, a wide panel pandas reads, unknown symbols named, the limit of 100', async () => {
      const long = await http(svc.url, '/historical?symbols=ENGRO,HBL,NOPE&start=2026-11-16&end=2026-11-20');
      assert.equal(long.status, 200, long.text);
      assert.deepEqual(long.json.meta.not_found, ['NOPE']);
      assert.deepEqual(long.json.meta.sources.archive, ['ENGRO', 'HBL']);
      assert.equal(long.json.meta.count, 10);
      const wide = await http(
        svc.url,
        '/historical?symbols=ENGRO,HBL&start=2026-11-16&end=2026-11-20&layout=wide&format=csv',
      );
      const lines = wide.text.trim().split('\r\n');
      assert.equal(lines[0], 'date,ENGRO,HBL');
      assert.equal(lines.length, 6);
      assert.match(lines[1]!, /^2026-11-16,\d+(\.\d+)?,\d+(\.\d+)?$/);
      const many = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
      const tooMany = await http(svc.url, `/historical?symbols=${many}`);
      assert.equal(tooMany.status, 422);
      assert.match(tooMany.json.error.message, /at most 100 symbols/);
    });

    test('a wide panel starts with date, then the symbols as asked, a numeric-looking one too', async () => {
      await waitForBackfill(svc.url);
      for (const flags of ['', '&adjusted=true']) {
        const path = `/historical?symbols=HBL,786,ENGRO&start=2026-11-16&end=2026-11-20&layout=wide${flags}`;
        const json = await http(svc.url, path);
        assert.equal(json.status, 200, json.text);
        // The body's own key order, as pandas.DataFrame(body['data']) reads it.
        const firstRow = json.text.slice(json.text.indexOf('[{') + 1, json.text.indexOf('}') + 1);
        assert.deepEqual(
          Object.keys(json.json.data[0]),
          ['786', 'date', 'HBL', 'ENGRO'],
          'JS reorders, the text must not',
        );
        assert.match(firstRow, /^\{"date":"2026-11-16","HBL":[\d.]+,"786":[\d.]+,"ENGRO":[\d.]+\}$/, path);
        const csv = await http(svc.url, `${path}&format=csv`);
        const lines = csv.text.trim().split('\r\n');
        assert.equal(lines[0], 'date,HBL,786,ENGRO', path);
        assert.match(lines[1]!, /^2026-11-16,[\d.]+,[\d.]+,[\d.]+$/, path);
      }
    });

    test('GET /market/trading-days lists the archived days with their hours', async () => {
      const res = await http(svc.url, '/market/trading-days?from=2026-11-16&to=2026-11-22');
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.json.data.map((d: { date: string }) => d.date),
        ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'],
      );
      assert.deepEqual(res.json.data[4], {
        date: '2026-11-20',
        weekday: 'Friday',
        open: '09:15',
        close: '16:30',
        break_start: '12:00',
        break_end: '14:30',
      });
    });

    test('a past day of the intraday endpoints comes from what the archive kept', async () => {
      // Two looks at the moving market watch on the day (the stream poller's), then the next Monday.
      await svc.service.live.poller.pollNow();
      portal.motion.tick(['ENGRO']);
      await svc.service.live.poller.pollNow();
      clock = NOW + 3 * 86_400_000;
      try {
        const index = await http(svc.url, '/indices/KSE100/intraday?date=2026-11-20&interval=tick');
        assert.equal(index.status, 200, index.text);
        assert.ok(index.json.meta.count > 10);
        assert.deepEqual(Object.keys(index.json.data[0]), ['time', 'value', 'volume']);
        assert.match(index.json.data[0].time, /^2026-11-20T/);
        const stock = await http(svc.url, '/stocks/ENGRO/intraday?date=2026-11-20&interval=tick');
        assert.equal(stock.status, 200, stock.text);
        assert.ok(stock.json.meta.count >= 1);
        const none = await http(svc.url, '/indices/KSE100/intraday?date=2026-11-19');
        assert.equal(none.status, 404);
        assert.match(none.json.error.message, /kept no intraday record of KSE100 on 2026-11-19/);
      } finally {
        clock = NOW;
      }
    });

    extra?.(() => svc);
  });
}

suite('SQLite', () => ({}));

const pgSkip = postgresUnavailableReason();
let pg: TestPostgres | undefined;
describe('PostgreSQL archive', { skip: pgSkip }, () => {
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await pg?.destroy();
  });
  suite(
    'PostgreSQL',
    () => ({ DATABASE_URL: pg!.url }),
    (svc) => {
      test('PostgreSQL going away: the archive endpoints answer 503 not_ready, the rest keeps working', async () => {
        const url = svc().url;
        await pg!.stop();
        try {
          const daily = await http(url, '/market/daily?date=2026-11-18');
          assert.equal(daily.status, 503);
          assert.equal(daily.json.error.code, 'not_ready');
          assert.ok(Number(daily.headers['retry-after']) > 0);
          assert.match(daily.json.error.message, /archive is unavailable/);
          assert.equal((await http(url, '/stocks/ENGRO/quote')).status, 200);
          const ready = await http(url, '/health?ready=1');
          assert.equal(ready.status, 200);
          assert.equal(ready.json.data.archive, 'unavailable');
        } finally {
          await pg!.start();
        }
        const back = await http(url, '/market/daily?date=2026-11-18');
        assert.equal(back.status, 200);
        assert.equal((await http(url, '/health?ready=1')).json.data.archive, 'ok');
      });
    },
  );
});
