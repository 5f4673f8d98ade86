// Answers that join several portal pages serve what they have when a secondary page fails, and
// say what is missing in meta.missing [{part, reason}] (src/market/partial.ts): each composite with
// each secondary page down (the connection dropped), answering 404, answering 500, and answering
// a page that does not parse. The primary page still decides, and a 404 where a page should be is
// a page that cannot be read (502), not an unreachable portal (503).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FailureRule } from '../../dev/fake-portal/server.ts';
import { PLANTED_ACTIONS } from '../../dev/fake-portal/corporate-actions.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

const harness = portalHarness();

const FAILURES: { label: string; rule: Omit<FailureRule, 'path'> }[] = [
  { label: 'down', rule: { mode: 'down' } },
  { label: '404', rule: { mode: 'status', status: 404 } },
  { label: '500', rule: { mode: 'status', status: 500 } },
  { label: 'garbage', rule: { mode: 'garbage' } },
];

const PAYOUTS = '/company/payouts';
const EOD = '/timeseries/eod/';

interface Missing {
  part: string;
  reason: string;
}

/** meta.missing names exactly `parts`, each with a reason in words. */
function assertMissing(meta: { missing?: Missing[] }, parts: string[], label: string): void {
  assert.ok(Array.isArray(meta.missing), `meta.missing is there: ${label}`);
  assert.deepEqual(
    meta.missing.map((m) => m.part),
    parts,
    label,
  );
  for (const m of meta.missing) {
    assert.deepEqual(Object.keys(m), ['part', 'reason'], label);
    assert.ok(typeof m.reason === 'string' && m.reason.length > 10, `a reason: ${label}`);
  }
}

/** A fresh service with `rule` on the portal pages under `paths`. */
async function failing(paths: string[], rule: Omit<FailureRule, 'path'>): Promise<RunningService> {
  harness.portal.clear();
  for (const path of paths) harness.portal.fail({ ...rule, path });
  return harness.fresh();
}

const bonus = PLANTED_ACTIONS.find((a) => a.symbol === 'ENGRO' && a.kind === 'bonus')!;
const ogdcDividends = PLANTED_ACTIONS.filter((a) => a.symbol === 'OGDC' && a.kind === 'cash_dividend');

describe('composite answers degrade, never fail whole', () => {
  for (const { label, rule } of FAILURES) {
    it(`payouts page and symbol list ${label}: corporate actions keep the capital changes, adjusted history its factors, the profile is served`, async () => {
      const svc = await failing([PAYOUTS, '/symbols'], rule);
      // Whether a symbol exists is asked of the symbol list, then the screener and the market
      // watch: the list failing, the screener answers.
      const profile = await http(svc.url, '/stocks/ENGRO/profile');
      assert.equal(profile.status, 200, profile.text.slice(0, 300));

      const actions = await http(svc.url, '/stocks/ENGRO/corporate-actions');
      assert.equal(actions.status, 200, actions.text.slice(0, 300));
      assert.deepEqual(
        actions.json.data.map((a: Record<string, unknown>) => [a.ex_date, a.kind, a.ratio, a.applied]),
        [[bonus.exDate, 'capital_change', bonus.ratio, true]],
      );
      assert.equal(actions.json.meta.coverage.dividends_from, null);
      assertMissing(actions.json.meta, ['dividends'], `corporate actions, payouts ${label}`);
      const ogdc = await http(svc.url, '/stocks/OGDC/corporate-actions');
      assert.equal(ogdc.status, 200);
      assert.deepEqual(ogdc.json.data, [], 'no dividend is listed without the payouts page');
      assertMissing(ogdc.json.meta, ['dividends'], `OGDC, payouts ${label}`);

      const adjusted = await http(svc.url, '/stocks/ENGRO/historical?adjusted=true&dividends=true');
      assert.equal(adjusted.status, 200, adjusted.text.slice(0, 300));
      const before = adjusted.json.data.find((r: { date: string }) => r.date < bonus.exDate);
      assert.equal(before.adjustment_factor, 1 / bonus.ratio!, 'the capital change is still applied');
      assert.equal(adjusted.json.meta.adjustment.dividends, false);
      assert.match(adjusted.json.meta.adjustment.reason, /payouts page .* dividends are not adjusted/);
      assertMissing(adjusted.json.meta, ['dividends'], `adjusted history, payouts ${label}`);
      // Without dividends=true the payouts page is not needed, and nothing is missing.
      const plain = await http(svc.url, '/stocks/ENGRO/historical?adjusted=true');
      assert.equal(plain.status, 200);
      assert.equal(plain.json.meta.missing, undefined);
    });

    it(`adjusted series ${label}: corporate actions keep the dividends, adjusted history stays raw`, async () => {
      const svc = await failing([EOD], rule);
      const ogdc = await http(svc.url, '/stocks/OGDC/corporate-actions');
      assert.equal(ogdc.status, 200, ogdc.text.slice(0, 300));
      assert.deepEqual(
        ogdc.json.data.map((a: Record<string, unknown>) => [a.ex_date, a.kind]),
        ogdcDividends.map((d) => [d.exDate, 'cash_dividend']),
      );
      assert.equal(ogdc.json.meta.coverage.capital_changes_from, null);
      assertMissing(ogdc.json.meta, ['capital_changes'], `corporate actions, series ${label}`);

      const adjusted = await http(svc.url, '/stocks/LUCK/historical?adjusted=true');
      assert.equal(adjusted.status, 200, adjusted.text.slice(0, 300));
      assert.ok(
        adjusted.json.data.every((r: { adjustment_factor: unknown }) => r.adjustment_factor === null),
      );
      assert.equal(adjusted.json.meta.adjustment.status, 'unavailable');
      assertMissing(adjusted.json.meta, ['adjustment'], `adjusted history, series ${label}`);
    });

    it(`company page ${label}: the quote is served without its extras and says why`, async () => {
      const svc = await failing(['/company/ENGRO'], rule);
      const first = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(first.status, 200);
      // The company page is fetched in the background; a later quote says it could not be had.
      let quote = first;
      for (let i = 0; i < 400 && quote.json.meta.missing === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        quote = await http(svc.url, '/stocks/ENGRO/quote');
      }
      assert.equal(quote.status, 200);
      assertMissing(quote.json.meta, ['extras'], `quote, company page ${label}`);
      assert.equal(typeof quote.json.data.price, 'number');
      assert.equal(quote.json.data.week52_high, null);
      assert.equal(quote.json.data.extras_as_of, null);
      const batch = await http(svc.url, '/quotes?symbols=HBL,ENGRO');
      assert.equal(batch.status, 200);
      assert.deepEqual(
        batch.json.meta.missing.map((m: { part: string }) => m.part),
        ['extras'],
      );
      assert.match(batch.json.meta.missing[0].reason, /^ENGRO: the company page/);
    });
  }

  for (const { label, rule } of FAILURES) {
    it(`trading board ${label}: /boards/futures serves the eligible symbols with null prices; the debt quote without the debt-market page`, async () => {
      const svc = await failing(['/trading-board/FUT/fut', '/debt-market'], rule);
      const board = await http(svc.url, '/boards/futures');
      assert.equal(board.status, 200, `${label}: ${board.text}`);
      assertMissing(board.json.meta, ['board'], label);
      assert.ok(board.json.data.length > 0);
      for (const row of board.json.data) {
        assert.deepEqual([row.eligible, row.on_board, row.ldcp, row.volume], [true, null, null, null], label);
      }
      const debt = await http(svc.url, '/debt/BAFLTFC8/quote');
      assert.equal(debt.status, 200, `${label}: ${debt.text}`);
      assertMissing(debt.json.meta, ['debt_market'], label);
      assert.equal(debt.json.data.offer_price, 5025);
    });
  }

  for (const { label, rule } of FAILURES) {
    it(`screener ${label}: quotes, breadth and sector returns are served from the market watch and the sector page`, async () => {
      const svc = await failing(['/screener'], rule);
      const batch = await http(svc.url, '/quotes?symbols=HBL,ENGRO');
      assert.equal(batch.status, 200, `${label}: ${batch.text.slice(0, 300)}`);
      assertMissing(batch.json.meta, ['screener'], `quotes, screener ${label}`);
      assert.deepEqual(
        batch.json.data.map((q: { symbol: string }) => q.symbol),
        ['HBL', 'ENGRO'],
      );
      for (const q of batch.json.data) {
        assert.equal(typeof q.price, 'number', label);
        assert.equal(typeof q.ldcp, 'number', label);
        assert.deepEqual([q.market_cap, q.pe_ratio, q.free_float, q.change_1y_pct], [null, null, null, null]);
      }
      const single = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(single.status, 200, single.text.slice(0, 300));
      assert.equal(single.json.meta.missing[0].part, 'screener');
      assert.equal(single.json.data.market_cap, null);

      const breadth = await http(svc.url, '/market/breadth');
      assert.equal(breadth.status, 200, breadth.text.slice(0, 300));
      assertMissing(breadth.json.meta, ['screener'], `breadth, screener ${label}`);
      assert.deepEqual([breadth.json.data.unchanged, breadth.json.data.total], [null, null]);
      assert.ok(breadth.json.data.advances + breadth.json.data.declines > 0);

      const sectors = await http(svc.url, '/sectors/performance?period=1M');
      assert.equal(sectors.status, 200, sectors.text.slice(0, 300));
      assertMissing(sectors.json.meta, ['screener'], `sector returns, screener ${label}`);
      assert.ok(sectors.json.data.length > 0);
      for (const row of sectors.json.data) {
        assert.deepEqual([row.return_pct, row.market_cap, row.rank], [null, null, null]);
        assert.match(row.reason, /screener/);
      }
    });

    it(`market watch ${label}: the screen is served with null change_pct; quotes and breadth fail`, async () => {
      const svc = await failing(['/market-watch'], rule);
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
      try {
        const result = (await client.callTool({
          name: 'screen_stocks',
          arguments: { index: 'KSE30', sort: 'market_cap', limit: 500 },
        })) as CallToolResult;
        assert.notEqual(result.isError, true, JSON.stringify(result.content).slice(0, 300));
        const got = result.structuredContent as { data: Record<string, unknown>[]; missing?: Missing[] };
        assert.ok(got.data.length > 0);
        assert.ok(got.data.every((r) => r.change_pct === null && typeof r.market_cap === 'number'));
        assertMissing(got, ['market_watch'], `screen, market watch ${label}`);
        // A bound on the missing field keeps no row: null fails any bound.
        const bounded = (await client.callTool({
          name: 'screen_stocks',
          arguments: { min_change_pct: -100 },
        })) as CallToolResult;
        assert.equal((bounded.structuredContent as { total: number }).total, 0);
      } finally {
        await client.close();
      }
      // The market watch is the quotes' and the breadth's primary page: without it they fail.
      for (const path of ['/quotes?symbols=HBL', '/market/breadth']) {
        const res = await http(svc.url, path);
        assert.ok(res.status === 502 || res.status === 503, `${path} ${label}: ${res.status}`);
      }
    });
  }

  it('fails whole only when no part is left: both secondary pages failing', async () => {
    const svc = await failing([PAYOUTS, EOD], { mode: 'status', status: 500 });
    const res = await http(svc.url, '/stocks/ENGRO/corporate-actions');
    assert.equal(res.status, 503);
    assertError(res.json, 503, 'exchange_unavailable');
  });

  it('treats a 404 where a primary page should be as a page that cannot be read (502)', async () => {
    const svc = await failing(['/historical'], { mode: 'status', status: 404 });
    const res = await http(svc.url, '/stocks/ENGRO/corporate-actions');
    assert.equal(res.status, 502);
    assertError(res.json, 502, 'upstream_data_error', /answered 404 where the page should be/);
  });

  it('says nothing is missing when every page answers', async () => {
    const svc = await harness.fresh();
    for (const path of [
      '/stocks/ENGRO/corporate-actions',
      '/stocks/ENGRO/historical?adjusted=true&dividends=true',
      '/boards/futures',
      '/debt/BAFLTFC8/quote',
      '/quotes?symbols=HBL,ENGRO',
      '/market/breadth',
    ]) {
      const res = await http(svc.url, path);
      assert.equal(res.status, 200);
      assert.equal(res.json.meta.missing, undefined, path);
    }
  });
});
