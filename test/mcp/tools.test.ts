// The service over the Model Context Protocol, spoken to with the SDK's own client over real HTTP
// (service + fake portal): every tool's structured result against the matching REST answer, tool
// errors for bad arguments, unknown symbols and the request limit, resources and the prompt.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

const harness = portalHarness();

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textContent(content: object | undefined): string {
  assert.ok(content !== undefined && 'text' in content);
  return String(content.text);
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- structured results are inspected freely
function structured(result: CallToolResult): any {
  assert.notEqual(result.isError, true, textOf(result));
  assert.ok(result.structuredContent, 'structured content');
  assert.equal(typeof result.structuredContent.as_of, 'string');
  return result.structuredContent;
}

/** The REST meta fields a tool's structured result carries under the same name (its extras). */
const PLAIN_META = new Set(['timestamp', 'cached', 'as_of', 'count']);

/**
 * Each tool, its arguments, and the REST path whose `data` (and `meta.as_of` and the meta's
 * extras) it must match: the first `paged` items of a list, or its newest `tail`.
 */
type Case = { tool: string; args: Record<string, unknown>; rest: string; paged?: number; tail?: number };

const CASES: Case[] = [
  { tool: 'search_stocks', args: { query: 'habib' }, rest: '/stocks?q=habib' },
  { tool: 'list_symbols', args: { limit: 1000 }, rest: '/stocks', paged: 1000 },
  { tool: 'list_symbols', args: { index: 'KSE30' }, rest: '/stocks?index=KSE30' },
  { tool: 'get_quote', args: { symbol: 'engro' }, rest: '/stocks/ENGRO/quote' },
  { tool: 'get_quotes', args: { symbols: ['ENGRO', 'HBL'] }, rest: '/quotes?symbols=ENGRO,HBL' },
  // A series' page is the newest rows of the whole range; total is the range's row count.
  { tool: 'get_history', args: { symbol: 'ENGRO' }, rest: '/stocks/ENGRO/historical', tail: 60 },
  {
    tool: 'get_history',
    args: {
      symbol: 'ENGRO',
      adjusted: true,
      dividends: true,
      start: '2024-01-01',
      end: '2024-03-31',
      limit: 5000,
    },
    rest: '/stocks/ENGRO/historical?adjusted=true&dividends=true&start=2024-01-01&end=2024-03-31',
  },
  {
    tool: 'get_intraday',
    args: { symbol: 'ENGRO', interval: '15m', limit: 1000 },
    rest: '/stocks/ENGRO/intraday?interval=15m',
  },
  { tool: 'get_corporate_actions', args: { symbol: 'ENGRO' }, rest: '/stocks/ENGRO/corporate-actions' },
  { tool: 'get_profile', args: { symbol: 'HBL' }, rest: '/stocks/HBL/profile' },
  {
    tool: 'get_financials',
    args: { symbol: 'HBL', period: 'quarterly' },
    rest: '/stocks/HBL/financials?period=quarterly',
  },
  { tool: 'get_announcements', args: { symbol: 'HBL', limit: 200 }, rest: '/stocks/HBL/announcements' },
  { tool: 'get_reports', args: { symbol: 'HBL', limit: 500 }, rest: '/stocks/HBL/fundamentals' },
  { tool: 'list_indices', args: {}, rest: '/indices' },
  { tool: 'get_index_constituents', args: { index: 'kse30', limit: 500 }, rest: '/indices/KSE30' },
  {
    tool: 'get_index_history',
    args: { index: 'KSE100', limit: 10, order: 'desc' },
    rest: '/indices/KSE100/historical?order=desc',
    paged: 10,
  },
  {
    tool: 'get_index_intraday',
    args: { index: 'KSE100', interval: '60m' },
    rest: '/indices/KSE100/intraday?interval=60m',
  },
  { tool: 'list_sectors', args: {}, rest: '/sectors' },
  { tool: 'get_sector_stocks', args: { sector: '0801' }, rest: '/sectors/0801/stocks' },
  { tool: 'get_market_summary', args: {}, rest: '/market/summary' },
  { tool: 'get_movers', args: { by: 'losers', limit: 5 }, rest: '/market/movers?by=losers&limit=5' },
  { tool: 'get_breadth', args: {}, rest: '/market/breadth' },
  { tool: 'get_performance', args: { symbol: 'engro' }, rest: '/stocks/ENGRO/performance' },
  {
    tool: 'get_performance',
    args: { symbol: 'HBL', adjusted: false, benchmark: 'none' },
    rest: '/stocks/HBL/performance?adjusted=false&benchmark=none',
  },
  {
    tool: 'get_indicators',
    args: { symbol: 'ENGRO', indicators: 'sma:20,rsi:14', limit: 5000 },
    rest: '/stocks/ENGRO/indicators?i=sma:20,rsi:14',
  },
  {
    tool: 'get_indicators',
    args: { symbol: 'ENGRO', indicators: 'macd:12:26:9', adjusted: false },
    rest: '/stocks/ENGRO/indicators?i=macd:12:26:9&adjusted=false',
    tail: 60,
  },
  { tool: 'get_index_performance', args: { index: 'kse100' }, rest: '/indices/KSE100/performance' },
  {
    tool: 'get_performance',
    args: { symbol: 'ENGRO', end: '2025-06-15' },
    rest: '/stocks/ENGRO/performance?end=2025-06-15',
  },
  {
    tool: 'get_index_performance',
    args: { index: 'KSE100', end: '2025-03-31' },
    rest: '/indices/KSE100/performance?end=2025-03-31',
  },
  {
    tool: 'rank_performance',
    args: { sector: '0801', period: '3M', end: '2025-08-29' },
    rest: '/market/performance?sector=0801&period=3M&end=2025-08-29',
  },
  {
    tool: 'get_sector_performance',
    args: { period: '3M', end: '2025-08-29' },
    rest: '/sectors/performance?period=3M&end=2025-08-29',
  },
  {
    tool: 'rank_performance',
    args: { index: 'KSE30', period: '1W', limit: 500 },
    rest: '/market/performance?index=KSE30&period=1W',
  },
  { tool: 'rank_performance', args: { sector: '0801' }, rest: '/market/performance?sector=0801' },
  { tool: 'get_sector_performance', args: { period: '3M' }, rest: '/sectors/performance?period=3M' },
  { tool: 'get_market_payouts', args: { limit: 1000 }, rest: '/market/payouts' },
  {
    tool: 'get_market_payouts',
    args: { from: '2026-01-01', to: '2026-06-30', kind: 'cash_dividend', limit: 1000 },
    rest: '/market/payouts?from=2026-01-01&to=2026-06-30&kind=cash_dividend',
  },
  { tool: 'get_market_calendar', args: { limit: 1000 }, rest: '/market/calendar' },
  { tool: 'list_debt', args: { limit: 1000 }, rest: '/debt' },
  { tool: 'get_debt_quote', args: { code: 'bafltfc8' }, rest: '/debt/bafltfc8/quote' },
  { tool: 'get_board', args: { board: 'futures', limit: 2000 }, rest: '/boards/futures' },
  { tool: 'get_board', args: { board: 'odd-lot', limit: 2000 }, rest: '/boards/odd-lot' },
  { tool: 'get_symbol_overview', args: { symbol: 'ENGRO' }, rest: '/stocks/ENGRO/overview' },
  {
    tool: 'get_market_overview',
    args: { index: 'KSE30', movers: 5 },
    rest: '/market/overview?index=KSE30&movers=5',
  },
];

/** The archive tools' cases, over the backfilled fake market (the last describe). */
const ARCHIVE_CASES: Case[] = [
  {
    tool: 'get_market_daily',
    args: { date: '2026-11-19', limit: 1000 },
    rest: '/market/daily?date=2026-11-19',
  },
  {
    tool: 'get_market_daily',
    args: { date: '2026-11-19', index: 'KSE30', limit: 1000 },
    rest: '/market/daily?date=2026-11-19&index=KSE30',
  },
  {
    tool: 'get_market_daily',
    args: { date: '2026-11-19', symbols: ['hbl', 'ENGRO', 'HBL'] },
    rest: '/market/daily?date=2026-11-19&symbols=HBL,ENGRO',
  },
  {
    tool: 'get_market_daily',
    args: { date: '2026-11-19', index: 'KSE30', adjusted: true, limit: 1000 },
    rest: '/market/daily?date=2026-11-19&index=KSE30&adjusted=true',
  },
  {
    tool: 'get_market_universe',
    args: { date: '2026-11-19', limit: 2000 },
    rest: '/market/universe?date=2026-11-19',
  },
  {
    tool: 'get_panel',
    args: { symbols: ['ENGRO', 'HBL', 'NOSUCH'], start: '2026-11-01', limit: 5000 },
    rest: '/historical?symbols=ENGRO,HBL,NOSUCH&start=2026-11-01',
  },
  {
    tool: 'get_panel',
    args: { symbols: ['ENGRO', 'HBL'], start: '2026-11-01', adjusted: true, dividends: true, limit: 5000 },
    rest: '/historical?symbols=ENGRO,HBL&start=2026-11-01&adjusted=true&dividends=true',
  },
  { tool: 'list_trading_days', args: {}, rest: '/market/trading-days' },
  {
    tool: 'rank_performance',
    args: { index: 'ALLSHR', period: '1M', end: '2026-11-19', limit: 500 },
    rest: '/market/performance?index=ALLSHR&period=1M&end=2026-11-19',
  },
  { tool: 'get_sector_performance', args: { period: '1M' }, rest: '/sectors/performance?period=1M' },
  {
    tool: 'list_trading_days',
    args: { from: '2026-11-01', to: '2026-11-20' },
    rest: '/market/trading-days?from=2026-11-01&to=2026-11-20',
  },
  { tool: 'get_archive_status', args: {}, rest: '/archive/status' },
];

/** Tools with a test of their own below rather than a case. */
const OWN_TESTS = ['screen_stocks', 'get_market_status', 'search_announcements'];

/** Calls a case's tool and its REST path and checks they agree. */
async function agree(client: Client, url: string, c: Case): Promise<void> {
  const result = await call(client, c.tool, c.args);
  const got = structured(result);
  const rest = await http(url, c.rest);
  assert.equal(rest.status, 200, `${c.rest}: ${rest.text}`);
  const data = rest.json.data;
  if (Array.isArray(data)) {
    assert.ok(data.length > 0, `${c.rest} has rows to compare`);
    assert.equal(got.total, data.length, `${c.tool} total`);
    const expected = c.tail !== undefined ? data.slice(-c.tail) : data.slice(0, c.paged ?? data.length);
    assert.deepEqual(got.data, expected, c.tool);
  } else {
    assert.deepEqual(got.data, data, c.tool);
  }
  assert.equal(got.as_of, rest.json.meta.as_of, `${c.tool} as_of`);
  for (const [key, value] of Object.entries(rest.json.meta as Record<string, unknown>)) {
    if (!PLAIN_META.has(key)) assert.deepEqual(got[key], value, `${c.tool} ${key}`);
  }
  const text = textOf(result);
  assert.ok(text.length > 0 && text.length < 12_000, `${c.tool} text of ${text.length} chars`);
  assert.ok(!text.trimStart().startsWith('{'), `${c.tool} text is not a JSON dump`);
}

describe('MCP over HTTP', () => {
  it('initializes and lists every tool with input and output schemas', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      assert.equal(client.getServerVersion()?.name, 'psx-market-data');
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 39, `${tools.length} tools`);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, 'object', t.name);
        assert.equal(t.outputSchema?.type, 'object', t.name);
        assert.ok(t.description && t.description.length > 20, t.name);
      }
      const names = new Set(tools.map((t) => t.name));
      // Every tool listed is compared with its endpoint somewhere in this file, and the other way round.
      const covered = new Set([...CASES, ...ARCHIVE_CASES].map((c) => c.tool).concat(OWN_TESTS));
      assert.deepEqual(
        [...names].filter((n) => !covered.has(n)),
        [],
        'tools without a test',
      );
      for (const n of covered) assert.ok(names.has(n), n);
    } finally {
      await client.close();
    }
  });

  it('answers every tool with the REST endpoint’s data (schemas checked by the client)', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      // A quote's extras come from the company page once it is held (fetched in the background
      // otherwise): held before both sides ask, both sides carry them.
      for (const symbol of ['ENGRO', 'HBL']) await http(svc.url, `/stocks/${symbol}/profile`);
      for (const c of CASES) await agree(client, svc.url, c);
    } finally {
      await client.close();
    }
  });

  it('pages long lists and says the total and how to get the rest', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const first = structured(await call(client, 'get_index_constituents', { index: 'KSE100', limit: 10 }));
      assert.equal(first.count, 10);
      assert.ok(first.total > 10);
      assert.equal(first.next_offset, 10);
      const result = await call(client, 'get_index_constituents', { index: 'KSE100', limit: 10, offset: 10 });
      const second = structured(result);
      const rest = await http(svc.url, '/indices/KSE100');
      assert.deepEqual(second.data, rest.json.data.slice(10, 20));
      assert.match(textOf(result), new RegExp(`11–20 of ${first.total}`));
      assert.match(textOf(result), /offset=20/);
    } finally {
      await client.close();
    }
  });

  it('screens by sector, index and bounds, sorted', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const got = structured(
        await call(client, 'screen_stocks', {
          index: 'KSE100',
          min_pe_ratio: 0.01,
          sort: 'market_cap',
          limit: 500,
        }),
      );
      const screener = (await http(svc.url, '/screener')).json.data as Record<string, unknown>[];
      const expected = screener
        .filter((r) =>
          String(r.listed_in ?? '')
            .split(',')
            .includes('KSE100'),
        )
        .filter((r) => typeof r.pe_ratio === 'number' && r.pe_ratio >= 0.01);
      assert.equal(got.total, expected.length);
      assert.ok(got.total > 0);
      const caps = got.data.map((r: { market_cap: number | null }) => r.market_cap);
      const withCap = caps.filter((c: number | null) => c !== null);
      assert.deepEqual(
        withCap,
        [...withCap].sort((a: number, b: number) => b - a),
      );
      const bySector = structured(await call(client, 'screen_stocks', { sector: '0801', limit: 500 }));
      const members = screener.filter((r) => r.sector === 801).map((r) => r.symbol);
      assert.deepEqual(
        bySector.data.map((r: { symbol: string }) => r.symbol),
        members.sort(),
      );
      const quote = (await http(svc.url, '/stocks/ENGRO/quote')).json.data;
      const engro = structured(
        await call(client, 'screen_stocks', { min_price: quote.price, max_price: quote.price }),
      );
      const row = engro.data.find((r: { symbol: string }) => r.symbol === 'ENGRO');
      assert.equal(row?.change_pct, quote.change_pct);
    } finally {
      await client.close();
    }
  });

  it('reports the market status', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const got = structured(await call(client, 'get_market_status'));
      assert.equal(got.data.state, 'open'); // the tests run with the market clock off
      assert.equal(got.data.clock_followed, false);
    } finally {
      await client.close();
    }
  });

  it('answers bad arguments with tool errors naming the argument', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['get_quote', {}, /symbol is required/],
        ['get_quote', { symbol: 'EN GRO' }, /symbol must be 1–25 letters/],
        ['get_quote', { symbol: 'ENGRO', colour: 'red' }, /unknown argument colour; get_quote takes symbol/],
        ['get_history', { symbol: 'ENGRO', start: '2024-13-40' }, /start must be a calendar date/],
        ['get_history', { symbol: 'ENGRO', limit: 0 }, /limit must be >= 1/],
        [
          'get_history',
          { symbol: 'ENGRO', start: '2024-02-01', end: '2024-01-01' },
          /start \(2024-02-01\) is after end/,
        ],
        ['get_history', { symbol: 'ENGRO', dividends: true }, /use it with adjusted=true/],
        [
          'get_intraday',
          { symbol: 'ENGRO', interval: '2m' },
          /interval must be tick, 1m, 5m, 15m, 30m or 60m/,
        ],
        ['get_quotes', { symbols: [] }, /symbols must have at least 1/],
        ['get_movers', { by: 'best' }, /by must be gainers, losers or active/],
        ['screen_stocks', { min_price: 'cheap' }, /min_price must be a number/],
      ];
      for (const [name, args, message] of cases) {
        const result = await call(client, name, args);
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.match(textOf(result), /bad_request/);
        assert.match(textOf(result), message);
      }
    } finally {
      await client.close();
    }
  });

  it('answers an unknown symbol, index or sector with a not_found tool error', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      for (const [name, args, message] of [
        ['get_quote', { symbol: 'HBLX' }, /HBLX not found/],
        ['get_history', { symbol: 'HBLX' }, /HBLX not found/],
        ['get_index_constituents', { index: 'NOPE' }, /index NOPE not found/],
        ['screen_stocks', { sector: 'no such sector' }, /not found/],
      ] as const) {
        const result = await call(client, name, args);
        assert.equal(result.isError, true);
        assert.match(textOf(result), /^Error not_found \(404\): /);
        assert.match(textOf(result), message);
      }
    } finally {
      await client.close();
    }
  });

  it('counts each JSON-RPC request against the request limit and says the wait in a tool error', async () => {
    const svc = await harness.fresh({ RATE_LIMIT_PER_MINUTE: '4' });
    const client = await connect(svc.url); // initialize: 1
    try {
      assert.equal((await call(client, 'get_market_status')).isError, undefined); // 2
      assert.equal((await call(client, 'get_market_status')).isError, undefined); // 3
      await client.listTools(); // 4
      const refused = await call(client, 'get_quote', { symbol: 'ENGRO' });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /^Error rate_limited \(429\): Rate limit exceeded; retry after \d+ s$/);
      // The REST API shares the same count.
      const rest = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(rest.status, 429);
    } finally {
      await client.close();
    }
  });

  it('reads the OpenAPI document and a symbol profile as resources, and gives the prompt', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === 'psx://openapi.json'));
      const doc = await client.readResource({ uri: 'psx://openapi.json' });
      const openapi = JSON.parse(textContent(doc.contents[0]));
      assert.equal(openapi.openapi, '3.1.0');
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.equal(resourceTemplates[0]?.uriTemplate, 'psx://stocks/{symbol}/profile');
      const profile = await client.readResource({ uri: 'psx://stocks/HBL/profile' });
      const rest = (await http(svc.url, '/stocks/HBL/profile')).json.data;
      assert.match(textContent(profile.contents[0]), new RegExp(`name: ${rest.name}`));
      await assert.rejects(client.readResource({ uri: 'psx://stocks/HBLX/profile' }), /HBLX not found/);
      const { prompts } = await client.listPrompts();
      assert.equal(prompts[0]?.name, 'analyse_symbol');
      const prompt = await client.getPrompt({ name: 'analyse_symbol', arguments: { symbol: 'engro' } });
      const first = prompt.messages[0]?.content;
      assert.ok(first?.type === 'text' && first.text.includes('ENGRO') && first.text.includes('get_history'));
    } finally {
      await client.close();
    }
  });
});

describe('MCP: the new endpoints’ tools beyond a plain comparison', () => {
  it('pages announcements with the cursor the REST answer’s next link carries', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      let args: Record<string, unknown> = { type: 'psx', limit: 5 };
      let path: string | null = '/announcements?type=psx&limit=5';
      let pages = 0;
      while (path !== null) {
        const result = await call(client, 'search_announcements', args);
        const got = structured(result);
        const rest = await http(svc.url, path);
        assert.equal(rest.status, 200, rest.text);
        assert.deepEqual(got.data, rest.json.data);
        assert.equal(got.total, rest.json.meta.total);
        assert.equal(got.count, rest.json.data.length);
        assert.equal(got.as_of, rest.json.meta.as_of);
        path = rest.json.meta.next;
        assert.equal(got.next_cursor === null, path === null);
        if (got.next_cursor !== null) {
          assert.match(textOf(result), new RegExp(`cursor=${got.next_cursor}`));
          args = { ...args, cursor: got.next_cursor };
        }
        pages += 1;
      }
      assert.ok(pages >= 2, `${pages} pages`);
      const engro = structured(await call(client, 'search_announcements', { symbol: 'ENGRO' }));
      assert.deepEqual(engro.data, (await http(svc.url, '/announcements?symbol=ENGRO')).json.data);
    } finally {
      await client.close();
    }
  });

  it('answers the new tools’ bad arguments and unknown names with tool errors', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          'get_performance',
          { symbol: 'ENGRO', adjusted: false, dividends: true },
          /bad_request.*use it with adjusted=true/,
        ],
        ['get_performance', { symbol: 'HBLX' }, /not_found.*HBLX not found/],
        ['get_performance', { symbol: 'ENGRO', benchmark: 'NOPE' }, /not_found/],
        ['get_indicators', { symbol: 'ENGRO' }, /indicators is required/],
        ['get_indicators', { symbol: 'ENGRO', indicators: 'sma:0' }, /bad_request.*sma/],
        [
          'get_indicators',
          { symbol: 'ENGRO', indicators: 'sma:5', start: '2026-02-01', end: '2026-01-01' },
          /after/,
        ],
        ['get_index_performance', { index: 'NOPE' }, /not_found/],
        [
          'get_performance',
          { symbol: 'ENGRO', end: '2099-01-01' },
          /bad_request.*end 2099-01-01 is in the future/,
        ],
        [
          'get_index_performance',
          { index: 'KSE100', end: '1990-01-01' },
          /not_found.*on or before 1990-01-01/,
        ],
        ['rank_performance', { end: '2099-01-01' }, /bad_request.*in the future/],
        ['rank_performance', { index: 'KSE30', sector: '0801' }, /give index or sector, not both/],
        ['rank_performance', { period: '2W' }, /period must be 1D, 1W/],
        ['get_market_payouts', { from: '2025-01-01', to: '2026-06-30' }, /bad_request/],
        ['get_market_calendar', { type: 'AGMX' }, /type must be AGM or EOGM/],
        ['search_announcements', { type: 'psx', symbol: 'HBL' }, /symbol applies to type=companies only/],
        ['search_announcements', { cursor: 'abc' }, /cursor is not one this service gave/],
        ['search_announcements', { limit: 500 }, /limit must be <= 100/],
        ['get_debt_quote', { code: 'NOSUCH' }, /not_found.*not on the debt market/],
        ['get_board', { board: 'regular' }, /board must be futures, cash-settled-futures/],
        ['get_symbol_overview', { symbol: 'HBLX' }, /not_found.*HBLX not found/],
        ['get_market_overview', { index: 'NOPE' }, /not_found.*index NOPE not found/],
        ['get_market_overview', { movers: 51 }, /movers must be <= 50/],
        ['get_panel', { symbols: [] }, /symbols must have at least 1/],
        ['list_trading_days', { from: '2026-02-01', to: '2026-01-01' }, /from \(2026-02-01\) is after to/],
        ['get_market_daily', { date: '2026-13-01' }, /date must be a calendar date/],
      ];
      for (const [name, args, message] of cases) {
        const result = await call(client, name, args);
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.match(textOf(result), message, `${name} ${JSON.stringify(args)}`);
      }
    } finally {
      await client.close();
    }
  });
});

// Friday 2026-11-20, 17:00 Karachi: the fake market's day, after the close settled.
const ARCHIVE_NOW = Date.parse('2026-11-20T12:00:00Z');

describe('MCP: the archive’s tools over a backfilled archive', () => {
  let portal: FakePortal;
  let svc: RunningService;
  before(async () => {
    portal = await startFakePortal({ historyRows: 30 });
    svc = await startService(
      portal.url,
      {
        ARCHIVE: 'on',
        EXCHANGE_FETCH_LIMIT_GLOBAL: '6000',
        ARCHIVE_BUDGET_SHARE: '0.5',
        ARCHIVE_BACKOFF_MS: '200',
        ARCHIVE_PROGRESS_EVERY: '10',
      },
      { overrides: { now: () => ARCHIVE_NOW } },
    );
    await waitForBackfill(svc.url);
  });
  after(async () => {
    await svc?.close();
    await portal?.close();
  });

  it('answers each archive tool with the REST endpoint’s data', async () => {
    const client = await connect(svc.url);
    try {
      for (const c of ARCHIVE_CASES) await agree(client, svc.url, c);
      const sunday = await call(client, 'get_market_daily', { date: '2026-11-15' });
      assert.equal(sunday.isError, true);
      assert.match(textOf(sunday), /^Error not_found \(404\): no session on 2026-11-15/);
      // A past day of the intraday tools reads the archive, as the routes' date does.
      for (const [tool, args, path] of [
        [
          'get_index_intraday',
          { index: 'KSE100', date: '2026-11-19' },
          '/indices/KSE100/intraday?date=2026-11-19',
        ],
        ['get_intraday', { symbol: 'ENGRO', date: '2026-11-19' }, '/stocks/ENGRO/intraday?date=2026-11-19'],
      ] as const) {
        const result = await call(client, tool, args);
        const rest = await http(svc.url, path);
        assert.equal(rest.status, 404, rest.text);
        assert.equal(result.isError, true, textOf(result));
        assert.equal(textOf(result), `Error not_found (404): ${rest.json.error.message}`);
        assert.match(textOf(result), /kept no intraday record of .* on 2026-11-19/);
      }
      // Today's date is today's series.
      const today = structured(
        await call(client, 'get_index_intraday', { index: 'KSE100', date: '2026-11-20', limit: 2000 }),
      );
      assert.deepEqual(today.data, (await http(svc.url, '/indices/KSE100/intraday')).json.data);
    } finally {
      await client.close();
    }
  });
});
