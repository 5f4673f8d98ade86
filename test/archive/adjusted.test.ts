// adjusted=true on the whole-market endpoints over real HTTP: the archiver backfills the fake
// portal's market with each symbol's corporate actions, and the archive's adjusted bars must equal
// what each symbol's own adjusted history serves (planted bonus, split, dividends). Run against
// SQLite, and PostgreSQL when it is installed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLANTED_ACTIONS } from '../../dev/fake-portal/corporate-actions.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { forEachStore } from '../helpers/postgres.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MarketWatchRow } from '../../src/exchange/types.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day, after the close settled.
const NOW = Date.parse('2026-11-20T12:00:00Z');

const ARCHIVE_ENV = {
  ARCHIVE: 'on',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '12000',
  EXCHANGE_FETCH_LIMIT_PER_IP: '0',
  ARCHIVE_BUDGET_SHARE: '0.5',
  ARCHIVE_BACKOFF_MS: '200',
  ARCHIVE_PROGRESS_EVERY: '50',
  ARCHIVE_IDLE_MS: '500',
};

type Row = Record<string, unknown> & { date: string; symbol?: string };

const planted = (symbol: string) => PLANTED_ACTIONS.find((a) => a.symbol === symbol)!;

function suite(name: string, env: () => Record<string, string>) {
  describe(`archive adjusted bars: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    let clock = NOW;
    before(async () => {
      portal = await startFakePortal();
      svc = await startService(portal.url, { ...ARCHIVE_ENV, ...env() }, { overrides: { now: () => clock } });
      await waitForBackfill(svc.url, 120_000);
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test("the archiver keeps each symbol's corporate actions, once per symbol and within its pacing", () => {
      const counts = portal.counts();
      const eod = Object.entries(counts.requests)
        .filter(([path]) => path.startsWith('GET /timeseries/eod/'))
        .map(([path, n]) => [path.slice('GET /timeseries/eod/'.length), n] as const)
        .filter(([s]) => s in counts.historical);
      assert.ok(eod.length >= 60, 'an adjusted series asked for each backfilled symbol');
      assert.deepEqual(
        eod.filter(([, n]) => n !== 1),
        [],
        'no adjusted series fetched twice',
      );
    });

    test('/historical?adjusted=true equals each symbol’s own adjusted history (a bonus and a split)', async () => {
      for (const symbol of ['LUCK', 'SYS']) {
        const panel = await http(svc.url, `/historical?symbols=${symbol}&adjusted=true`);
        assert.equal(panel.status, 200, panel.text);
        assert.deepEqual(panel.json.meta.sources.archive, [symbol], 'served from the archive');
        const own = await http(svc.url, `/stocks/${symbol}/historical?adjusted=true`);
        assert.equal(own.status, 200, own.text);
        const rows = (panel.json.data as Row[]).map(({ symbol: s, ...rest }) => {
          assert.equal(s, symbol);
          return rest;
        });
        assert.equal(rows.length, own.json.data.length);
        assert.deepEqual(rows, own.json.data);
        // The bonus is not a crash: the day before the ex-date is scaled by 1 / ratio.
        const { exDate, ratio } = planted(symbol);
        const before = rows.filter((r) => r.date < exDate).at(-1)!;
        assert.ok(Math.abs((before.adjustment_factor as number) - 1 / ratio!) < 1e-12);
        const status = own.json.meta.adjustment.status as string;
        const summary = panel.json.meta.adjustment;
        assert.equal(summary.status, status);
        if (status === 'full') assert.deepEqual(summary.full, [symbol]);
        else assert.equal(summary.partial[0].partial_before, own.json.meta.adjustment.partial_before);
      }
    });

    test('dividends=true folds in the kept cash dividends exactly as the symbol’s own history', async () => {
      const q = 'start=2025-01-01&adjusted=true&dividends=true';
      const panel = await http(svc.url, `/historical?symbols=OGDC&${q}`);
      const own = await http(svc.url, `/stocks/OGDC/historical?${q}`);
      assert.equal(panel.status, 200, panel.text);
      assert.deepEqual(
        (panel.json.data as Row[]).map(({ symbol: _s, ...rest }) => rest),
        own.json.data,
      );
      assert.equal(panel.json.meta.adjustment.dividends, true);
      const first = panel.json.data[0] as Row;
      assert.ok((first.adjustment_factor as number) < 1, 'three dividends after 2025-01-01');
    });

    test('/market/daily?adjusted=true gives each bar its factor on that date', async () => {
      const { exDate } = planted('LUCK');
      const own = await http(svc.url, `/stocks/LUCK/historical?adjusted=true&end=${exDate}`);
      const dayBefore = own.json.data.at(-2) as Row;
      const daily = await http(svc.url, `/market/daily?date=${dayBefore.date}&adjusted=true`);
      assert.equal(daily.status, 200, daily.text);
      const luck = (daily.json.data as Row[]).find((r) => r.symbol === 'LUCK')!;
      // Each daily row also carries the day's ex-marker and where its bar is from.
      const { symbol: _s, marker: _m, source, ...rest } = luck;
      assert.equal(source, 'history');
      assert.deepEqual(rest, dayBefore);
      const raw = await http(svc.url, `/market/daily?date=${dayBefore.date}&symbols=LUCK`);
      assert.ok(
        Math.abs((raw.json.data[0].close as number) / ratioOf('LUCK') - (luck.close as number)) < 1e-3,
      );
      const { full, partial, unavailable } = daily.json.meta.adjustment;
      assert.equal(
        full.length + partial.length + unavailable.length,
        daily.json.meta.count,
        'every symbol told',
      );
      const csv = await http(
        svc.url,
        `/market/daily?date=${dayBefore.date}&symbols=LUCK&adjusted=true&format=csv`,
      );
      assert.match(
        csv.text,
        /^symbol,date,open,high,low,close,volume,is_anomaly,anomaly_reasons,adjustment_factor,marker,source\r\n/,
      );
    });

    test('a symbol without kept actions is served raw and named, never silently raw', async () => {
      // A right's ticker has no adjusted series on the portal: nothing to keep.
      const res = await http(svc.url, '/historical?symbols=786R,HBL&adjusted=true&layout=wide');
      assert.equal(res.status, 200, res.text);
      const adjustment = res.json.meta.adjustment;
      assert.equal(adjustment.status, 'partial');
      assert.deepEqual(
        adjustment.unavailable.map((u: { symbol: string }) => u.symbol),
        ['786R'],
      );
      assert.match(adjustment.unavailable[0].reason, /no corporate-actions record for 786R/);
      const long = await http(svc.url, '/historical?symbols=786R&adjusted=true');
      assert.ok((long.json.data as Row[]).every((r) => r.adjustment_factor === null));
      assert.equal(long.json.meta.adjustment.status, 'unavailable');
    });

    test("rankings read members' adjusted closes from the archive: the returns their own tables give", async () => {
      const before = portal.counts().total;
      const ranking = await http(svc.url, '/market/performance?index=KSE30&period=1Y');
      assert.equal(ranking.status, 200, ranking.text);
      const { coverage } = ranking.json.meta;
      assert.equal(coverage.with_data, coverage.members);
      assert.deepEqual(coverage.sources, { archive: coverage.members, portal: 0 });
      assert.ok(portal.counts().total - before <= 3, 'no member fetched from the portal');
      for (const row of ranking.json.data as Array<Record<string, number | string | null>>) {
        const own = await http(svc.url, `/stocks/${row.symbol}/performance?benchmark=none`);
        const period = own.json.data.returns.find((r: { period: string }) => r.period === '1Y');
        assert.equal(row.return_pct, period.return_pct, `${row.symbol} 1Y`);
        assert.equal(row.start_date, period.start_date);
      }
      // A member without kept actions (a right's ticker has no adjusted series) comes from the portal.
      const sector = await http(svc.url, '/market/performance?sector=0813&period=1M');
      assert.equal(sector.status, 200, sector.text);
      assert.ok(sector.json.meta.coverage.sources.portal >= 1, JSON.stringify(sector.json.meta.coverage));
      assert.ok(sector.json.meta.coverage.sources.archive >= 1);
      const sectors = await http(svc.url, '/sectors/performance?period=3M');
      assert.equal(sectors.status, 200, sectors.text);
      assert.ok(sectors.json.meta.coverage.sources.archive > 50);
    });

    test('dividends without adjusted is refused as on a symbol’s history', async () => {
      const res = await http(svc.url, '/historical?symbols=HBL&dividends=true');
      assert.equal(res.status, 400);
      assert.match(res.json.error.message, /with adjusted=true/);
      const daily = await http(svc.url, '/market/daily?date=2026-11-19&dividends=true');
      assert.equal(daily.status, 400);
    });

    test('a symbol that traded after its check says so, and is looked at again after that closing record', async () => {
      const eodFetches = () => portal.counts().requests['GET /timeseries/eod/HBL'] ?? 0;
      const fetched = eodFetches();
      const friday = (await http(svc.url, '/market/daily?date=2026-11-20&symbols=HBL')).json.data[0];
      // Monday's closing record (written as the archiver's closing record writes it), then Monday evening.
      await svc.service.archive.recordDay(
        '2026-11-23',
        [
          {
            symbol: 'HBL',
            ldcp: friday.close,
            open: friday.close,
            high: friday.close,
            low: friday.close,
            current: friday.close,
            volume: 1000,
          } as MarketWatchRow,
        ],
        { asOf: '2026-11-23T15:30:00+05:00', rows: [] },
        Date.parse('2026-11-23T11:00:00Z'),
      );
      const monday = await http(svc.url, '/historical?symbols=HBL&start=2026-11-16&adjusted=true');
      assert.deepEqual(
        monday.json.meta.adjustment.partial.map((p: { symbol: string; checked_through: string }) => [
          p.symbol,
          p.checked_through,
        ]),
        [['HBL', '2026-11-20']],
      );
      assert.match(monday.json.meta.adjustment.partial[0].reason, /last checked through 2026-11-20/);
      clock = Date.parse('2026-11-23T12:00:00Z');
      for (let i = 0; i < 200 && eodFetches() === fetched; i++) await sleep(100);
      assert.equal(eodFetches(), fetched + 1, 'the adjusted series asked for again, once');
      let after = monday;
      for (let i = 0; i < 100; i++) {
        // An archive answer stays fresh for a minute of the service's clock: each look is a minute
        // later, so a look made before the new check was recorded is not replayed forever.
        clock += 61_000;
        after = await http(svc.url, '/historical?symbols=HBL&start=2026-11-16&adjusted=true');
        if (after.json.meta.adjustment.status === 'full') break;
        await sleep(100);
      }
      assert.deepEqual(after.json.meta.adjustment.full, ['HBL']);
    });
  });
}

function ratioOf(symbol: string): number {
  return planted(symbol).ratio!;
}

forEachStore(suite);
