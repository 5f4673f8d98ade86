// One time rule everywhere (README "Times"): every GET path of the OpenAPI document and every MCP
// tool, walked over real HTTP on an injected clock while the market is closed — at the weekend
// and at night — must give `as_of` by the rule, never the fetch time for market prices. A path or
// tool the tables below do not name fails the walk, so a new endpoint must say which rule it
// follows. Every `as_of` anywhere in a body (meta, rows, an overview's parts) is checked, not
// only `meta.as_of`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { isQuote, openStream, quoteOf } from '../helpers/sse.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

/**
 * The rule an answer's `as_of` follows:
 * - `close`: market prices, read while the market is closed: the end of the last session;
 * - `page`: the page's own printed time (the index-levels page's "As of …");
 * - `fetch`: data that changes at any hour (the listing, filings, announcements, the clock, the
 *   archive's state): the fetch, i.e. now;
 * - `none`: no `as_of` (health, documents).
 */
type Rule = 'close' | 'page' | 'fetch' | 'none';

/** Fields of a body whose `as_of` follows another rule than the answer's own (JSON paths). */
type Exceptions = Record<string, Rule>;

interface Probe {
  path: string;
  rule: Rule;
  /** Parts of the body with their own rule, by JSON path prefix (e.g. `data.reports`). */
  parts?: Exceptions;
}

/** Each OpenAPI path template and the requests that probe it. */
const REST: Record<string, Probe[] | 'skip'> = {
  '/health': [{ path: '/health', rule: 'none' }],
  '/stocks': [
    { path: '/stocks', rule: 'fetch' },
    { path: '/stocks?q=habib', rule: 'fetch' },
    { path: '/stocks?index=KSE30', rule: 'close' },
  ],
  '/stocks/{symbol}/quote': [
    { path: '/stocks/ENGRO/quote', rule: 'close', parts: { 'data.extras_as_of': 'page' } },
  ],
  '/stocks/{symbol}/historical': [
    { path: '/stocks/ENGRO/historical', rule: 'close' },
    { path: '/stocks/ENGRO/historical?adjusted=true&dividends=true', rule: 'close' },
  ],
  '/stocks/{symbol}/fundamentals': [{ path: '/stocks/HBL/fundamentals', rule: 'fetch' }],
  '/stocks/{symbol}/profile': [{ path: '/stocks/HBL/profile', rule: 'close' }],
  '/stocks/{symbol}/financials': [{ path: '/stocks/HBL/financials', rule: 'close' }],
  '/stocks/{symbol}/announcements': [{ path: '/stocks/HBL/announcements', rule: 'close' }],
  '/stocks/{symbol}/corporate-actions': [{ path: '/stocks/ENGRO/corporate-actions', rule: 'close' }],
  '/stocks/{symbol}/intraday': [{ path: '/stocks/ENGRO/intraday?interval=5m', rule: 'close' }],
  '/indices/{name}/intraday': [{ path: '/indices/KSE100/intraday?interval=60m', rule: 'close' }],
  '/quotes': [{ path: '/quotes?symbols=ENGRO,HBL', rule: 'close', parts: { extras_as_of: 'page' } }],
  '/market/movers': [{ path: '/market/movers?by=active', rule: 'close' }],
  '/market/breadth': [{ path: '/market/breadth', rule: 'close' }],
  '/market/status': [{ path: '/market/status', rule: 'fetch' }],
  '/indices': [{ path: '/indices', rule: 'page' }],
  '/indices/{name}': [{ path: '/indices/KSE30', rule: 'close' }],
  '/indices/{name}/historical': [{ path: '/indices/KSE100/historical', rule: 'close' }],
  '/sectors': [{ path: '/sectors', rule: 'close' }],
  '/sectors/{name}/stocks': [{ path: '/sectors/0801/stocks', rule: 'close' }],
  '/screener': [{ path: '/screener', rule: 'close' }],
  '/market/summary': [{ path: '/market/summary', rule: 'page' }],
  '/market/payouts': [{ path: '/market/payouts', rule: 'fetch' }],
  '/market/calendar': [{ path: '/market/calendar', rule: 'fetch' }],
  '/announcements': [{ path: '/announcements', rule: 'fetch' }],
  '/debt': [{ path: '/debt', rule: 'close' }],
  '/debt/{code}/quote': [{ path: '/debt/BAFLTFC8/quote', rule: 'close' }],
  '/boards/{board}': [
    { path: '/boards/futures', rule: 'close' },
    { path: '/boards/bills-and-bonds', rule: 'close' },
  ],
  '/stocks/{symbol}/performance': [{ path: '/stocks/ENGRO/performance', rule: 'close' }],
  '/stocks/{symbol}/indicators': [{ path: '/stocks/ENGRO/indicators?i=sma:20,rsi:14', rule: 'close' }],
  '/indices/{name}/performance': [{ path: '/indices/KSE100/performance', rule: 'close' }],
  '/market/performance': [
    { path: '/market/performance?index=KSE30&period=1W', rule: 'close' },
    { path: '/market/performance?sector=0801', rule: 'close' },
  ],
  '/sectors/performance': [{ path: '/sectors/performance?period=1M', rule: 'close' }],
  '/stocks/{symbol}/overview': [
    {
      path: '/stocks/HBL/overview',
      rule: 'close',
      parts: { 'data.reports.as_of': 'fetch', 'data.quote.data.extras_as_of': 'page' },
    },
  ],
  // The oldest of its parts' times; the index levels keep the page's printed time.
  '/market/overview': [
    {
      path: '/market/overview?index=KSE30',
      rule: 'close',
      parts: { 'data.indices.as_of': 'page' },
    },
  ],
  '/market/daily': [
    { path: '/market/daily?date=2026-11-20', rule: 'close' },
    { path: '/market/daily?date=2026-11-20&adjusted=true', rule: 'close' },
  ],
  '/historical': [
    { path: '/historical?symbols=ENGRO,HBL', rule: 'close' },
    { path: '/historical?symbols=ENGRO,HBL&layout=wide&field=close&adjusted=true', rule: 'close' },
  ],
  '/market/trading-days': [{ path: '/market/trading-days', rule: 'close' }],
  '/market/universe': [{ path: '/market/universe?date=2026-11-20', rule: 'close' }],
  '/archive/status': [{ path: '/archive/status', rule: 'fetch' }],
  // Served elsewhere in this walk (the stream) or carrying no market data.
  '/stream/quotes': 'skip',
  '/mcp': 'skip',
  '/openapi.json': 'skip',
  '/docs': 'skip',
  '/metrics': 'skip',
  '/': 'skip',
  '/health/portal': 'skip',
};

/** Each MCP tool and the calls that probe it. */
const TOOLS: Record<string, Array<{ args: Record<string, unknown>; rule: Rule; parts?: Exceptions }>> = {
  search_stocks: [{ args: { query: 'habib' }, rule: 'fetch' }],
  list_symbols: [
    { args: {}, rule: 'fetch' },
    { args: { index: 'KSE30' }, rule: 'close' },
  ],
  get_quote: [{ args: { symbol: 'ENGRO' }, rule: 'close', parts: { 'data.extras_as_of': 'page' } }],
  get_quotes: [{ args: { symbols: ['ENGRO', 'HBL'] }, rule: 'close', parts: { extras_as_of: 'page' } }],
  get_history: [{ args: { symbol: 'ENGRO', adjusted: true }, rule: 'close' }],
  get_intraday: [{ args: { symbol: 'ENGRO', interval: '15m' }, rule: 'close' }],
  get_corporate_actions: [{ args: { symbol: 'ENGRO' }, rule: 'close' }],
  get_profile: [{ args: { symbol: 'HBL' }, rule: 'close' }],
  get_financials: [{ args: { symbol: 'HBL' }, rule: 'close' }],
  get_announcements: [{ args: { symbol: 'HBL' }, rule: 'close' }],
  get_reports: [{ args: { symbol: 'HBL' }, rule: 'fetch' }],
  list_indices: [{ args: {}, rule: 'page' }],
  get_index_constituents: [{ args: { index: 'KSE30' }, rule: 'close' }],
  get_index_history: [{ args: { index: 'KSE100' }, rule: 'close' }],
  get_index_intraday: [{ args: { index: 'KSE100' }, rule: 'close' }],
  list_sectors: [{ args: {}, rule: 'close' }],
  get_sector_stocks: [{ args: { sector: '0801' }, rule: 'close' }],
  screen_stocks: [
    { args: {}, rule: 'close' },
    { args: { sort: 'market_cap', min_price: 10 }, rule: 'close' },
  ],
  get_market_summary: [{ args: {}, rule: 'page' }],
  get_market_status: [{ args: {}, rule: 'fetch' }],
  get_movers: [{ args: { by: 'gainers' }, rule: 'close' }],
  get_breadth: [{ args: {}, rule: 'close' }],
  get_performance: [{ args: { symbol: 'ENGRO' }, rule: 'close' }],
  get_indicators: [{ args: { symbol: 'ENGRO', indicators: 'sma:20' }, rule: 'close' }],
  get_index_performance: [{ args: { index: 'KSE100' }, rule: 'close' }],
  rank_performance: [{ args: { index: 'KSE30', period: '1W' }, rule: 'close' }],
  get_sector_performance: [{ args: { period: '1M' }, rule: 'close' }],
  get_market_payouts: [{ args: {}, rule: 'fetch' }],
  get_market_calendar: [{ args: {}, rule: 'fetch' }],
  search_announcements: [{ args: {}, rule: 'fetch' }],
  list_debt: [{ args: {}, rule: 'close' }],
  get_debt_quote: [{ args: { code: 'BAFLTFC8' }, rule: 'close' }],
  get_board: [{ args: { board: 'futures' }, rule: 'close' }],
  get_market_daily: [{ args: { date: '2026-11-20' }, rule: 'close' }],
  get_market_universe: [{ args: { date: '2026-11-20' }, rule: 'close' }],
  get_panel: [{ args: { symbols: ['ENGRO', 'HBL'] }, rule: 'close' }],
  list_trading_days: [{ args: {}, rule: 'close' }],
  get_archive_status: [{ args: {}, rule: 'fetch' }],
  get_symbol_overview: [
    {
      args: { symbol: 'HBL' },
      rule: 'close',
      parts: { 'data.reports.as_of': 'fetch', 'data.quote.data.extras_as_of': 'page' },
    },
  ],
  get_market_overview: [
    {
      args: { index: 'KSE30' },
      rule: 'close',
      parts: { 'data.indices.as_of': 'page' },
    },
  ],
};

/** Every `as_of` (and `…_as_of`) in a body with its JSON path, array indices left out. */
function asOfsIn(value: unknown, path = ''): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((v) => asOfsIn(v, path));
  if (value === null || typeof value !== 'object') return [];
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (/(^|_)as_of$/.test(k)) out.push([at, v]);
    else out.push(...asOfsIn(v, at));
  }
  return out;
}

/** The rule for one `as_of` in a body: the longest matching exception, else the answer's. */
function ruleAt(at: string, rule: Rule, parts: Exceptions = {}): Rule {
  let best: [string, Rule] | null = null;
  for (const [prefix, r] of Object.entries(parts)) {
    const hit = at === prefix || at.startsWith(`${prefix}.`) || at.endsWith(`.${prefix}`) || at === prefix;
    if (hit && (best === null || prefix.length > best[0].length)) best = [prefix, r];
  }
  return best?.[1] ?? rule;
}

/** A Karachi wall-clock time as epoch ms. */
const pk = (iso: string): number => Date.parse(`${iso}+05:00`);

// The fake market's day is Friday 2026-11-20; its archive is backfilled through that day.
const CLOCKS: ReadonlyArray<[name: string, now: string, close: string]> = [
  ['at the weekend (Sunday 06:08)', '2026-11-22T06:08:00', '2026-11-20T16:30:00+05:00'],
  ['at night (Friday 22:40, after the session)', '2026-11-20T22:40:00', '2026-11-20T16:30:00+05:00'],
];

for (const [name, now, close] of CLOCKS) {
  describe(`as_of walk ${name}`, () => {
    let portal: FakePortal;
    let svc: RunningService;
    const expected = (rule: Rule): string | undefined =>
      rule === 'close'
        ? close
        : rule === 'fetch'
          ? `${now}+05:00`
          : rule === 'page'
            ? portal.dataset.asOfIso
            : undefined;
    const check = (where: string, body: unknown, rule: Rule, parts?: Exceptions): void => {
      const found = asOfsIn(body);
      if (rule !== 'none') assert.ok(found.length > 0, `${where}: no as_of`);
      for (const [at, value] of found) {
        if (value === null && at.endsWith('extras_as_of')) continue;
        const r = ruleAt(at, rule, parts);
        assert.equal(value, expected(r), `${where} ${at} (${r})`);
      }
    };

    before(async () => {
      portal = await startFakePortal({ historyRows: 30 });
      svc = await startService(
        portal.url,
        {
          ARCHIVE: 'on',
          EXCHANGE_FETCH_LIMIT_GLOBAL: '6000',
          ARCHIVE_BUDGET_SHARE: '0.5',
          ARCHIVE_BACKOFF_MS: '200',
          STREAM_POLL_SECONDS: '3600',
        },
        { overrides: { now: () => pk(now) } },
      );
      await waitForBackfill(svc.url);
    });
    after(async () => {
      await svc?.close();
      await portal?.close();
    });

    it('every REST path of the OpenAPI document', async () => {
      const doc = (await http(svc.url, '/openapi.json')).json as { paths: Record<string, { get?: object }> };
      const unnamed = Object.keys(doc.paths).filter((p) => doc.paths[p]!.get && !(p in REST));
      assert.deepEqual(unnamed, [], 'paths the walk does not name: give each its rule');
      for (const [template, probes] of Object.entries(REST)) {
        if (probes === 'skip') continue;
        assert.ok(template in doc.paths, `${template} is in the OpenAPI document`);
        for (const probe of probes) {
          const res = await http(svc.url, probe.path);
          assert.equal(res.status, 200, `${probe.path}: ${res.text.slice(0, 300)}`);
          check(probe.path, res.json, probe.rule, probe.parts);
          if (probe.rule !== 'none') assert.equal(res.json.meta.as_of, expected(probe.rule), probe.path);
        }
      }
    });

    it('the stream’s snapshot', async () => {
      const s = await openStream(`${svc.url}/stream/quotes?symbols=ENGRO`);
      try {
        const [snap] = await s.waitFor(isQuote('ENGRO'), 1);
        assert.equal(quoteOf(snap!).as_of, close);
      } finally {
        s.close();
      }
    });

    it('every MCP tool', async () => {
      const client = new Client({ name: 'as-of-walk', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
      try {
        const { tools } = await client.listTools();
        const unnamed = tools.map((t) => t.name).filter((t) => !(t in TOOLS));
        assert.deepEqual(unnamed, [], 'tools the walk does not name: give each its rule');
        for (const [tool, calls] of Object.entries(TOOLS)) {
          for (const c of calls) {
            const where = `${tool} ${JSON.stringify(c.args)}`;
            const result = (await client.callTool({ name: tool, arguments: c.args })) as CallToolResult;
            const text = result.content.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
            assert.notEqual(result.isError, true, `${where}: ${text.slice(0, 300)}`);
            const body = result.structuredContent as Record<string, unknown>;
            check(where, body, c.rule, c.parts);
            assert.equal(body.as_of, expected(c.rule), where);
          }
        }
      } finally {
        await client.close();
      }
    });
  });
}
