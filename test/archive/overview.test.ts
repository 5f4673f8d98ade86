// The symbol overview's chart from the archive (issue #40) over real HTTP: a service with
// ARCHIVE=on backfills the fake portal's market and records the closed day; then a symbol's
// overview takes its year of daily bars (the chart and the 52-week range) from the archive without
// a history-page fetch, equal to what the portal's history route gives; once the archive is behind
// (a session closed since) it asks the portal, and when the portal cannot answer it serves the
// archive's older bars as STALE with their own as_of. SQLite, and PostgreSQL when installed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { forEachStore } from '../helpers/postgres.ts';

// Friday 2026-11-20, 17:00 Karachi: the fake market's day, after the close settled.
const FRIDAY_EVENING = Date.parse('2026-11-20T12:00:00Z');
// Monday 2026-11-23, 16:00 Karachi: Monday's session has closed, the archive holds Friday.
const MONDAY_EVENING = Date.parse('2026-11-23T11:00:00Z');
// Monday 2026-11-23, 11:00 Karachi: during the session, Friday is the last closed day.
const MONDAY_MORNING = Date.parse('2026-11-23T06:00:00Z');

const ARCHIVE_ENV = {
  ARCHIVE: 'on',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '6000',
  EXCHANGE_FETCH_LIMIT_PER_IP: '0',
  ARCHIVE_BUDGET_SHARE: '0.5',
  ARCHIVE_BACKOFF_MS: '200',
  ARCHIVE_PROGRESS_EVERY: '10',
  ARCHIVE_FILES_FROM: '2026-11-16',
};

interface Bar {
  date: string;
  low: number | null;
  high: number | null;
}

/** The 52-week range the dashboard shows from the chart's bars (web/src/views/symbol.ts). */
function range52(rows: Bar[]): { low: number; high: number } {
  const lows = rows.flatMap((r) => (r.low === null ? [] : [r.low]));
  const highs = rows.flatMap((r) => (r.high === null ? [] : [r.high]));
  return { low: Math.min(...lows), high: Math.max(...highs) };
}

function suite(name: string, env: () => Record<string, string>) {
  describe(`the symbol overview reads the archive: ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    let clock = FRIDAY_EVENING;
    const historyFetches = (symbol: string) => portal.counts().historical[symbol] ?? 0;

    before(async () => {
      portal = await startFakePortal({ historyRows: 300 });
      svc = await startService(portal.url, { ...ARCHIVE_ENV, ...env() }, { overrides: { now: () => clock } });
      await waitForBackfill(svc.url);
      // The archive as the backfill left it: the clock moves below, the archiver's rounds must not.
      await svc.service.archiver?.stop();
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    test('an archive up to date gives the chart and 52-week range without a history-page fetch', async () => {
      clock = FRIDAY_EVENING;
      assert.equal(historyFetches('ENGRO'), 1, 'the backfill read ENGRO once');
      const res = await http(svc.url, '/stocks/ENGRO/overview');
      assert.equal(res.status, 200, res.text);
      const { data, meta } = res.json;
      assert.equal(meta.history_source, 'archive');
      assert.equal(meta.missing, undefined);
      assert.equal(data.history.error, null);
      assert.equal(data.history.as_of, '2026-11-20T16:30:00+05:00', "Friday's close");
      const bars = data.history.data as Bar[];
      assert.equal(bars.at(-1)!.date, '2026-11-20');
      assert.ok(bars.length > 200 && bars.length < 262, `${bars.length} bars: a year`);
      assert.equal(data.corporate_actions.error, null, JSON.stringify(data.corporate_actions.error));
      assert.equal(historyFetches('ENGRO'), 1, 'no history page fetched for the overview');

      // The same bars the portal's history route gives (it fetches the page now).
      const first = bars[0]!.date;
      const portalRes = await http(svc.url, `/stocks/ENGRO/historical?start=${first}&end=2026-11-20`);
      assert.equal(portalRes.status, 200, portalRes.text);
      assert.equal(historyFetches('ENGRO'), 2);
      assert.deepEqual(bars, portalRes.json.data);
      assert.deepEqual(range52(bars), range52(portalRes.json.data));
      assert.equal(data.history.as_of, portalRes.json.meta.as_of);
    });

    test('a symbol that did not trade on the last session is up to date through the recorded day', async () => {
      clock = FRIDAY_EVENING;
      // FEROZ is untraded on the fake market's day: the closing record of 2026-11-20 has no bar of it.
      const before = historyFetches('FEROZ');
      const res = await http(svc.url, '/stocks/FEROZ/overview');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.history_source, 'archive');
      assert.equal(res.json.data.history.as_of, '2026-11-20T16:30:00+05:00');
      const bars = res.json.data.history.data as Bar[];
      assert.ok(bars.at(-1)!.date < '2026-11-20', bars.at(-1)!.date);
      assert.equal(historyFetches('FEROZ'), before);
      const portalRes = await http(svc.url, `/stocks/FEROZ/historical?start=${bars[0]!.date}`);
      assert.deepEqual(bars, portalRes.json.data);
      assert.equal(res.json.data.history.as_of, portalRes.json.meta.as_of);
    });

    test('during the next session the archive is still up to date: the last closed day is present', async () => {
      clock = MONDAY_MORNING;
      const before = historyFetches('HBL');
      const res = await http(svc.url, '/stocks/HBL/overview');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.history_source, 'archive');
      assert.equal(res.json.data.history.as_of, '2026-11-20T16:30:00+05:00');
      assert.equal(historyFetches('HBL'), before);

      // MCP's get_symbol_overview reads the same archive and gives the same bars.
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
      try {
        const result = await client.callTool({ name: 'get_symbol_overview', arguments: { symbol: 'HBL' } });
        assert.notEqual(result.isError, true, JSON.stringify(result.content));
        const mcp = result.structuredContent as { history_source: string; data: { history: unknown } };
        assert.equal(mcp.history_source, 'archive');
        assert.deepEqual(mcp.data.history, res.json.data.history);
      } finally {
        await client.close();
      }
      assert.equal(historyFetches('HBL'), before);
    });

    test('an archive behind (a session closed since) fetches the history page', async () => {
      clock = MONDAY_EVENING;
      const before = historyFetches('LUCK');
      const res = await http(svc.url, '/stocks/LUCK/overview');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.meta.history_source, 'portal');
      assert.equal(res.json.data.history.error, null);
      assert.ok(historyFetches('LUCK') > before, 'the page was fetched');
    });

    test('behind, with the portal failing: the archive’s older bars, STALE with their own as_of', async () => {
      clock = MONDAY_EVENING;
      portal.fail({ mode: 'status', status: 503, path: '/historical' });
      try {
        const res = await http(svc.url, '/stocks/OGDC/overview');
        assert.equal(res.status, 200, res.text);
        const { data, meta } = res.json;
        assert.equal(meta.history_source, 'archive');
        assert.equal(res.headers['x-cache'], 'STALE');
        assert.equal(data.history.error, null);
        assert.equal(data.history.as_of, '2026-11-20T16:30:00+05:00', 'the archived bar’s close, not now');
        assert.equal((data.history.data as Bar[]).at(-1)!.date, '2026-11-20');
        assert.equal(meta.missing.length, 1);
        assert.equal(meta.missing[0].part, 'history');
        assert.match(meta.missing[0].reason, /through 2026-11-20.*2026-11-23/);
        assert.ok(meta.as_of <= '2026-11-20T16:30:00+05:00', 'the whole is no newer than its oldest part');
      } finally {
        portal.clear();
      }
    });
  });
}

forEachStore(suite);
