// Payout rows kept by the archive over real HTTP (service + fake portal), against SQLite and, when
// installed, PostgreSQL: every row the service reads is kept; rows the portal no longer has (older
// than its window) or cannot give now are served from the archive and meta says which; a kept row
// is never rewritten, and a different reading is counted as a disagreement.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import type { MarketPayoutRow } from '../../src/exchange/feed-types.ts';
import type { PayoutRow } from '../../src/exchange/types.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { forEachStore } from '../helpers/postgres.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day.
const NOW = Date.parse('2026-11-20T12:00:00Z');

// An announcement from 2023: long gone from the portal's rolling window.
const OLD_MARKET_ROW: MarketPayoutRow = {
  symbol: 'ENGRO',
  company: 'Engro Corporation Limited',
  sector: 'FERTILIZER',
  details: '120%(F) (D)',
  entries: [{ kind: 'dividend', percent: 120, label: 'F' }],
  announced: '2023-03-02T15:10:00+05:00',
  announcedText: null,
  bookClosureFrom: '2023-03-20',
  bookClosureTo: '2023-03-22',
  bookClosureText: null,
};

const OLD_COMPANY_ROW: PayoutRow = {
  announced: '2023-03-02T15:10:00+05:00',
  periodEnded: '2022-12-31',
  periodCode: 'YR',
  details: '120%(F) (D)',
  entries: [{ kind: 'dividend', percent: 120, label: 'F' }],
  bookClosureFrom: '2023-03-20',
  bookClosureTo: '2023-03-22',
};

const disagreements = async (url: string): Promise<number> =>
  Number(/psxmd_archive_disagreements_total (\d+)/.exec((await http(url, '/metrics')).text)?.[1] ?? 0);

function suite(name: string, env: () => Record<string, string>) {
  describe(`archived payouts: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    before(async () => {
      portal = await startFakePortal({ historyRows: 30 });
      svc = await startService(portal.url, env(), { overrides: { now: () => NOW } });
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test('rows read once are served from the archive when the portal fails, and meta says which', async () => {
      const seen = await http(svc.url, '/market/payouts?from=2026-09-01&to=2026-11-20');
      assert.equal(seen.status, 200, seen.text);
      assert.ok(seen.json.data.length > 10);
      assert.deepEqual(seen.json.meta.archive, { rows: 0, positions: [], reason: null });
      portal.fail({ mode: 'status', status: 503, path: '/payouts' });
      try {
        // Another range (not cached): the portal's failure, and the archive's rows instead.
        const res = await http(svc.url, '/market/payouts?from=2026-10-01&to=2026-11-20');
        assert.equal(res.status, 200, res.text);
        const expected = seen.json.data.filter(
          (r: { announced_at: string }) => r.announced_at >= '2026-10-01' && r.announced_at < '2026-11-21',
        );
        assert.deepEqual(res.json.data, expected);
        assert.equal(res.json.meta.archive.rows, expected.length);
        assert.deepEqual(
          res.json.meta.archive.positions,
          expected.map((_: unknown, i: number) => i),
        );
        assert.match(res.json.meta.archive.reason, /portal failed/);
        assert.equal(res.json.meta.coverage.complete, false);
        // A range the archive never saw is still the portal's failure.
        const unseen = await http(svc.url, '/market/payouts?from=2026-01-01&to=2026-02-01');
        assert.equal(unseen.status, 503);
      } finally {
        portal.clear();
      }
    });

    test("rows older than the portal's window are served from the archive", async () => {
      await svc.service.archive.keepMarketPayouts([OLD_MARKET_ROW]);
      const res = await http(svc.url, '/market/payouts?from=2023-01-01&to=2023-12-31');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.coverage.portal_rows, 0);
      assert.equal(res.json.data.length, 1);
      assert.equal(res.json.data[0].symbol, 'ENGRO');
      assert.equal(res.json.data[0].amount_per_share, 12);
      assert.equal(
        res.json.data[0].last_day_to_buy,
        '2023-03-15',
        'T+2 in 2023: record day Friday 03-17 less two',
      );
      assert.deepEqual(res.json.meta.archive.positions, [0]);
      assert.match(res.json.meta.archive.reason, /older than the portal's window/);
      const csv = await http(svc.url, '/market/payouts?from=2023-01-01&to=2023-12-31&format=csv');
      assert.match(csv.text, /\r\nENGRO,/);
    });

    test('a kept row is never rewritten: a different reading is counted, the portal row served', async () => {
      const seen = await http(svc.url, '/market/payouts?from=2026-09-01&to=2026-11-20');
      const first = seen.json.data[0];
      const before = await disagreements(svc.url);
      // What the archive would hold had the portal once printed the company's name differently.
      await svc.service.archive.keepMarketPayouts([
        {
          symbol: first.symbol,
          company: 'Another Name',
          sector: first.sector,
          details: first.details,
          entries: [],
          announced: first.announced_at,
          announcedText: null,
          bookClosureFrom: first.book_closure_from,
          bookClosureTo: first.book_closure_to,
          bookClosureText: null,
        },
      ]);
      assert.equal(await disagreements(svc.url), before + 1);
      const again = await http(svc.url, '/market/payouts?from=2026-09-02&to=2026-11-20');
      assert.deepEqual(again.json.data[0], first);
    });

    test("the company's dividends reach back past the payouts page's window, and stand in when it fails", async () => {
      const plain = await http(svc.url, '/stocks/UBL/corporate-actions');
      assert.equal(plain.status, 200, plain.text);
      assert.equal(plain.json.meta.archive, undefined);
      await svc.service.archive.keepCompanyPayouts('HBL', [OLD_COMPANY_ROW]);
      const res = await http(svc.url, '/stocks/HBL/corporate-actions');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.coverage.dividends_from, '2023-03-02');
      assert.equal(res.json.meta.archive.payouts_rows, 1);
      assert.match(res.json.meta.archive.reason, /older than the payouts page's window/);
      assert.ok(res.json.meta.count >= 1, 'the archived dividend is an action');
      // The page failing: the rows the archive kept stand in.
      await svc.service.archive.keepCompanyPayouts('MCB', [OLD_COMPANY_ROW]);
      portal.fail({ mode: 'status', status: 503, path: '/company/payouts' });
      try {
        const failed = await http(svc.url, '/stocks/MCB/corporate-actions');
        assert.equal(failed.status, 200, failed.text);
        assert.ok(failed.json.meta.missing.some((m: { part: string }) => m.part === 'dividends'));
        assert.match(failed.json.meta.archive.reason, /payouts page failed/);
        assert.equal(failed.json.meta.coverage.dividends_from, '2023-03-02');
      } finally {
        portal.clear();
      }
    });

    test('a holiday the archive knows moves the last day to buy; beyond the archive, weekdays', async () => {
      // Weekdays from 2026-10-19 to 2026-11-20 traded, but Friday 2026-11-13 (a holiday): no bars.
      const days: string[] = [];
      for (
        let t = Date.parse('2026-10-19T00:00:00Z');
        t <= Date.parse('2026-11-20T00:00:00Z');
        t += 86_400_000
      ) {
        const d = new Date(t);
        if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.push(d.toISOString().slice(0, 10));
      }
      const bars = days
        .filter((d) => d !== '2026-11-13')
        .reverse()
        .map((date) => ({ date, open: 10, high: 10, low: 10, close: 10, volume: 100 }));
      await svc.service.archive.recordHistory('HOLIDAY', bars, NOW);
      const res = await http(svc.url, '/market/payouts?from=2026-11-01&to=2026-11-20&symbol=UBL');
      assert.equal(res.status, 200, res.text);
      // Book closure from Tuesday 11-17: record day Monday 11-16, T+1 → Friday 11-13, a holiday.
      const ubl = res.json.data.find(
        (r: { book_closure_from: string }) => r.book_closure_from === '2026-11-17',
      );
      assert.equal(ubl.last_day_to_buy, '2026-11-12');
      assert.equal(ubl.ex_date, '2026-11-16');
      assert.deepEqual(res.json.meta.trading_days, {
        // The days read: three weeks either side of the rows' book closures.
        archive_from: '2026-10-27',
        archive_to: '2026-11-20',
        rows_on_weekdays: 0,
      });
      // ENGRO's closure (Tuesday 11-24) counts days after the archive's last: weekdays, and said so.
      const engro = await http(svc.url, '/market/payouts?from=2026-11-01&to=2026-11-20&symbol=ENGRO');
      const row = engro.json.data.find(
        (r: { book_closure_from: string }) => r.book_closure_from === '2026-11-24',
      );
      assert.equal(row.last_day_to_buy, '2026-11-20');
      assert.equal(engro.json.meta.trading_days.rows_on_weekdays, engro.json.data.length);
    });
  });
}

forEachStore(suite);
