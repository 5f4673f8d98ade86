// Capital changes kept by the archive over real HTTP (service + fake portal), against SQLite and,
// when installed, PostgreSQL: once an analysis has applied a capital change, the archive serves it
// when the portal's adjusted series fails (an error, garbage, down) or no longer reaches back to it,
// and meta says which rows came from the archive and what is still missing. A symbol the archive
// never analysed gets no capital change from it.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import type { ActionsAnalysis } from '../../src/market/models/actions-analysis.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { forEachStore } from '../helpers/postgres.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day.
const NOW = Date.parse('2026-11-20T12:00:00Z');

interface Action {
  ex_date: string | null;
  kind: string;
  ratio: number | null;
  evidence: string[];
  applied: boolean;
  note: string | null;
}

const capital = (data: Action[]) => data.filter((a) => a.kind === 'capital_change');
const dividends = (data: Action[]) => data.filter((a) => a.kind === 'cash_dividend');

function suite(name: string, env: () => Record<string, string>) {
  describe(`archived capital changes: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService | undefined;
    // The first service keeps every analysis it makes (ARCHIVE=on; its archiver paced to one fetch
    // a minute, so it stays out of the way). One directory for both services: the SQLite archive
    // lives there (the dataset cache too, removed between them so the second asks the portal again).
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-kept-actions-'));
    const open = async (extra: Record<string, string> = {}) =>
      (svc = await startService(
        portal.url,
        { ...env(), ...extra, CACHE_DIR: dir },
        { overrides: { now: () => NOW } },
      ));
    const restart = async () => {
      await svc!.close();
      svc = undefined;
      for (const f of readdirSync(dir)) if (f.startsWith('market-data.sqlite')) rmSync(join(dir, f));
    };
    before(async () => {
      portal = await startFakePortal();
      await open({ ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: '1' });
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test("a capital change older than the adjusted series' window is served from the archive", async () => {
      // What an analysis made years ago would have kept, while the series still reached 2020.
      const old = {
        actions: [],
        applied: [{ exDate: '2020-07-06', ratio: 1.1 }],
        dividendFactors: [],
        seriesStart: '2016-01-04',
        payoutsSince: null,
        payoutsRead: false,
      } as unknown as ActionsAnalysis;
      const raw = [{ date: '2021-06-30', open: 1, high: 1, low: 1, close: 1, volume: 1 }];
      await svc!.service.archive.recordAdjustment('HBL', raw, old, NOW - 1);
      await svc!.service.archive.recordAdjustment('HBL', raw, old, NOW - 1);
      const res = await http(svc!.url, '/stocks/HBL/corporate-actions');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.missing, undefined);
      assert.equal(res.json.meta.coverage.capital_changes_from, '2016-01-04');
      assert.deepEqual(res.json.meta.archive.capital_changes, ['2020-07-06']);
      assert.equal(res.json.meta.archive.payouts_rows, 0);
      assert.match(res.json.meta.archive.capital_changes_reason, /older than the adjusted series' window/);
      const [kept, ...rest] = capital(res.json.data);
      assert.deepEqual(
        [kept!.ex_date, kept!.ratio, kept!.applied, kept!.evidence],
        ['2020-07-06', 1.1, true, ['adjusted_series_step', 'raw_gap']],
      );
      assert.match(kept!.note!, /kept by the archive/);
      assert.deepEqual(rest, [], 'HBL has no other capital change');
      assert.equal(res.json.data[0].ex_date, '2020-07-06', 'oldest first');
    });

    test('after the archive recorded the actions, the adjusted series failing serves them from the archive', async () => {
      const healthy: Record<string, { data: Action[]; from: string }> = {};
      for (const symbol of ['SYS', 'LUCK']) {
        const res = await http(svc!.url, `/stocks/${symbol}/corporate-actions`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.meta.archive, undefined, 'the series shows every change');
        healthy[symbol] = { data: res.json.data, from: res.json.meta.coverage.capital_changes_from };
        assert.equal(capital(res.json.data).filter((a) => a.applied).length, 1, symbol);
      }
      // Each analysis is recorded in the background: wait until the archive holds both.
      for (let i = 0; i < 200; i++) {
        const held = await svc!.service.archive.adjustments(['SYS', 'LUCK']);
        if (held.get('SYS')?.factors.length && held.get('LUCK')?.factors.length) break;
        await sleep(25);
      }
      const held = await svc!.service.archive.adjustments(['SYS', 'LUCK', 'ENGRO']);
      assert.ok(
        held.get('SYS')?.factors.length && held.get('LUCK')?.factors.length,
        JSON.stringify([...held]),
      );
      assert.equal(held.get('ENGRO'), undefined, 'ENGRO never analysed');
      // SYS's raw bars kept too, as the archiver's backfill keeps them.
      const sysBars = portal.dataset.history('SYS');
      await svc!.service.archive.recordHistory('SYS', sysBars, NOW);
      // A new service on the same archive, its dataset cache empty, the series failing three ways.
      await restart();
      portal.fail({ mode: 'status', status: 500, path: '/timeseries/eod/SYS' });
      portal.fail({ mode: 'garbage', path: '/timeseries/eod/LUCK' });
      portal.fail({ mode: 'down', path: '/timeseries/eod/ENGRO' });
      try {
        await open();
        const served: Record<string, Action[]> = {};
        const asOf: Record<string, string> = {};
        for (const symbol of ['SYS', 'LUCK']) {
          const res = await http(svc!.url, `/stocks/${symbol}/corporate-actions`);
          assert.equal(res.status, 200, res.text);
          served[symbol] = res.json.data;
          asOf[symbol] = res.json.meta.as_of;
          assert.equal(res.json.meta.archive.raw_history_rows, 0);
          const was = healthy[symbol]!;
          const applied = capital(was.data).filter((a) => a.applied);
          assert.deepEqual(
            capital(res.json.data).map((a) => [a.ex_date, a.ratio, a.applied]),
            applied.map((a) => [a.ex_date, a.ratio, true]),
            `${symbol}: the applied change, from the archive`,
          );
          assert.deepEqual(
            res.json.meta.archive.capital_changes,
            applied.map((a) => a.ex_date),
          );
          assert.match(res.json.meta.archive.capital_changes_reason, /adjusted series failed/);
          assert.equal(res.json.meta.coverage.capital_changes_from, was.from);
          const missing = res.json.meta.missing.find((m: { part: string }) => m.part === 'capital_changes');
          assert.match(
            missing.reason,
            /archive's record of capital changes stands in, checked through 2026-11-20/,
          );
          assert.deepEqual(dividends(res.json.data), dividends(was.data), 'dividends as before');
        }
        // Never analysed: the archive has nothing to say, so no capital change is served.
        const engro = await http(svc!.url, '/stocks/ENGRO/corporate-actions');
        assert.equal(engro.status, 200, engro.text);
        assert.deepEqual(
          capital(engro.json.data).filter((a) => a.evidence.includes('adjusted_series_step')),
          [],
        );
        assert.equal(engro.json.meta.archive?.capital_changes, undefined);
        assert.equal(engro.json.meta.coverage.capital_changes_from, null);
        assert.ok(engro.json.meta.missing.some((m: { part: string }) => m.part === 'capital_changes'));
        const csv = await http(svc!.url, '/stocks/SYS/corporate-actions?format=csv');
        assert.equal(csv.status, 200);
        assert.match(csv.text, /\r\n2024-03-13,capital_change,2,/);

        // The raw history page failing too: the archive's bars of SYS stand in, the answer the same.
        await restart();
        portal.fail({ mode: 'status', status: 503, path: '/historical' });
        await open();
        const res = await http(svc!.url, '/stocks/SYS/corporate-actions');
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json.data, served.SYS);
        assert.equal(res.json.meta.archive.raw_history_rows, sysBars.length);
        assert.equal(res.json.meta.as_of, asOf.SYS, "the close of the archive's last day");
        const raw = res.json.meta.missing.find((m: { part: string }) => m.part === 'raw_history');
        assert.match(raw.reason, /archive's raw bars stand in, through 2026-11-20/);
        // LUCK's bars were never kept: the page's failure is the answer.
        const luck = await http(svc!.url, '/stocks/LUCK/corporate-actions');
        assert.ok([502, 503].includes(luck.status), luck.text);
      } finally {
        portal.clear();
      }
    });
  });
}

forEachStore(suite);
