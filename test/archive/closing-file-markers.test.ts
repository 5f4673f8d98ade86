// The daily closing files' ex-markers (XD/XB/XR) as corporate-action evidence, over real HTTP
// (service + fake portal), against SQLite and, when installed, PostgreSQL. The fake portal marks
// every planted dividend XD, bonus XB and right issue XR on its ex-date, FFC XB on the ex-date of
// a cash dividend (a marker of another kind), and HBL XD and UBL XB on its market day with no
// action behind them. Each file is downloaded from the fake portal as the archiver downloads it
// and kept through the archive (the archiver itself, paced to one fetch a minute, stays out of the
// way): the corporate actions of a service with those files are compared with a service without
// an archive.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FILE_QUIRKS } from '../../dev/fake-portal/daily-files.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { parseDailyFileBody } from '../../src/exchange/parsers/daily-file.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { forEachStore } from '../helpers/postgres.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day, after its file is published.
const NOW = Date.parse('2026-11-20T12:00:00Z');
const MARKET_DAY = '2026-11-20';
// OGDC's first planted dividend (XD), ENGRO's bonus (XB), MEBL's right issue (XR), FFC's dividend
// marked XB, and the market day (HBL XD, UBL XB).
const FILE_DAYS = [
  '2025-06-05',
  '2025-06-16',
  '2025-08-13',
  FILE_QUIRKS.markerOfAnotherKind.date,
  MARKET_DAY,
];
const EVIDENCE = 'closing_file_marker';

interface Action {
  ex_date: string | null;
  kind: string;
  ratio: number | null;
  amount: number | null;
  evidence: string[];
  applied: boolean;
  note: string | null;
}

const on = (data: Action[], date: string) => data.filter((a) => a.ex_date === date);
const withoutMarkers = (data: Action[]) =>
  data.map((a) => ({ ...a, evidence: a.evidence.filter((e) => e !== EVIDENCE) }));

async function actionsOf(svc: RunningService, symbol: string) {
  const res = await http(svc.url, `/stocks/${symbol}/corporate-actions`);
  assert.equal(res.status, 200, res.text);
  return res.json as {
    data: Action[];
    meta: { archive?: { closing_file_markers: number } & Record<string, unknown> };
  };
}

function suite(name: string, env: () => Record<string, string>) {
  describe(`closing-file markers as corporate-action evidence: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    let plain: RunningService;
    before(async () => {
      portal = await startFakePortal();
      [svc, plain] = await Promise.all([
        startService(
          portal.url,
          { ...env(), ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: '1' },
          { overrides: { now: () => NOW } },
        ),
        startService(portal.url, {}, { overrides: { now: () => NOW } }),
      ]);
      for (const date of FILE_DAYS) {
        const res = await fetch(`${portal.url}/download/mkt_summary/${date}.Z`, {
          headers: { 'user-agent': 'Mozilla/5.0 (test)', referer: `${portal.url}/` },
        });
        assert.equal(res.status, 200, `${date}: the fake portal serves its file`);
        const file = parseDailyFileBody(new Uint8Array(await res.arrayBuffer()));
        await svc.service.archive!.recordDailyFile(date, file.rows, NOW);
      }
    });
    after(async () => {
      await Promise.all([svc?.close(), plain?.close()]);
      await portal?.close();
    });

    test('a marker of the kind of the action on its day is in its evidence; nothing else changes', async () => {
      for (const [symbol, date, kind] of [
        ['ENGRO', '2025-06-16', 'capital_change'],
        ['MEBL', '2025-08-13', 'capital_change'],
        ['OGDC', '2025-06-05', 'cash_dividend'],
      ] as const) {
        const withFiles = await actionsOf(svc, symbol);
        const [action, ...others] = on(withFiles.data, date);
        assert.equal(others.length, 0, `${symbol}: one action on ${date}`);
        assert.equal(action!.kind, kind);
        assert.equal(action!.evidence.at(-1), EVIDENCE, `${symbol} ${date}: ${action!.evidence.join()}`);
        assert.equal(action!.applied, true);
        // The same answer as without the archive, the marker aside.
        const without = await actionsOf(plain, symbol);
        assert.ok(!JSON.stringify(without.data).includes(EVIDENCE), 'no marker without the archive');
        assert.equal(without.meta.archive, undefined);
        assert.deepEqual(withoutMarkers(withFiles.data), without.data, symbol);
        assert.equal(withFiles.meta.archive?.closing_file_markers, 1);
      }
      // OGDC's later dividends: their files are not kept, so no marker.
      const ogdc = await actionsOf(svc, 'OGDC');
      for (const a of ogdc.data.filter((x) => x.ex_date !== '2025-06-05'))
        assert.ok(!a.evidence.includes(EVIDENCE), `${a.ex_date}`);
    });

    test('a marker of another kind is noted on the day’s action, not used as its evidence', async () => {
      const q = FILE_QUIRKS.markerOfAnotherKind;
      const ffc = await actionsOf(svc, q.symbol);
      const day = on(ffc.data, q.date);
      assert.equal(day.length, 1, 'no unconfirmed bonus beside the dividend');
      assert.equal(day[0]!.kind, 'cash_dividend');
      assert.deepEqual(day[0]!.evidence, ['payouts']);
      assert.equal(day[0]!.applied, true);
      assert.match(
        day[0]!.note!,
        /closing file marks this day XB \(ex-bonus\), which is not a cash dividend: not taken as evidence/,
      );
      const without = on((await actionsOf(plain, q.symbol)).data, q.date);
      assert.equal(without[0]!.amount, day[0]!.amount);
    });

    test('a marker alone is an unconfirmed action: listed, never applied, adjusted prices unchanged', async () => {
      for (const [symbol, kind] of [
        ['HBL', 'cash_dividend'],
        ['UBL', 'capital_change'],
      ] as const) {
        const res = await actionsOf(svc, symbol);
        assert.deepEqual(on(res.data, MARKET_DAY), [
          {
            ex_date: MARKET_DAY,
            kind,
            ratio: null,
            amount: null,
            evidence: [EVIDENCE],
            applied: false,
            note: res.data.find((a) => a.ex_date === MARKET_DAY)!.note,
          },
        ]);
        assert.match(
          on(res.data, MARKET_DAY)[0]!.note!,
          /closing file marks this day X[DB] .*: not applied$/,
        );
        assert.equal(on((await actionsOf(plain, symbol)).data, MARKET_DAY).length, 0);
        // Capital changes and dividends both: the marked day moves no factor.
        const path = `/stocks/${symbol}/historical?adjusted=true&dividends=true&start=2026-10-01`;
        const [adjusted, reference] = await Promise.all([http(svc.url, path), http(plain.url, path)]);
        assert.equal(adjusted.status, 200, adjusted.text);
        const rows = adjusted.json.data as Array<{ date: string; close: number; adjustment_factor: number }>;
        assert.ok(rows.some((r) => r.date === MARKET_DAY));
        assert.ok(
          rows.every((r) => r.adjustment_factor === 1),
          `${symbol}: every factor is 1`,
        );
        assert.deepEqual(
          rows.map((r) => [r.date, r.close, r.adjustment_factor]),
          (reference.json.data as typeof rows).map((r) => [r.date, r.close, r.adjustment_factor]),
        );
      }
    });

    test('the overview (the dashboard’s symbol page) lists the same actions', async () => {
      const overview = await http(svc.url, '/stocks/HBL/overview');
      assert.equal(overview.status, 200, overview.text);
      assert.deepEqual(overview.json.data.corporate_actions.data, (await actionsOf(svc, 'HBL')).data);
      assert.ok(JSON.stringify(overview.json.data.corporate_actions.data).includes(EVIDENCE));
    });

    test('CSV and the MCP tool give the same answer as the JSON', async () => {
      const csv = await http(svc.url, '/stocks/HBL/corporate-actions?format=csv');
      assert.equal(csv.status, 200, csv.text);
      const line = csv.text.split('\r\n').find((l) => l.startsWith(MARKET_DAY));
      assert.ok(line?.includes(EVIDENCE), csv.text);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
      try {
        const result = (await client.callTool({
          name: 'get_corporate_actions',
          arguments: { symbol: 'ENGRO' },
        })) as CallToolResult;
        assert.notEqual(result.isError, true);
        const rest = await actionsOf(svc, 'ENGRO');
        const mcp = result.structuredContent as { data: Action[]; archive: Record<string, unknown> };
        assert.deepEqual(mcp.data, rest.data);
        assert.deepEqual(mcp.archive, rest.meta.archive);
      } finally {
        await client.close();
      }
    });
  });
}

forEachStore(suite);
