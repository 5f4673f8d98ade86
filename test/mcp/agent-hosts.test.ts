// The MCP server as agent hosts meet it (issue #40): what a text-only host passes to its model,
// paging that reaches every row of a series, malformed calls and error wording on the wire, a
// batch with a repeated id, the tools' annotations and descriptions, and the core tool set. Spoken
// to with the SDK's client over HTTP and over the stdio bridge, and with raw JSON-RPC where the
// defect is about the wire.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { request } from 'undici';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';

const harness = portalHarness();
const BIN = fileURLToPath(new URL('../../packages/client/src/bin.ts', import.meta.url));
const ACCEPT = 'application/json, text/event-stream';

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'agent-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

async function connectStdio(url: string): Promise<Client> {
  const client = new Client({ name: 'agent-host-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', BIN, 'mcp', '--url', url],
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- structured results are inspected freely
function structured(result: CallToolResult): any {
  assert.notEqual(result.isError, true, textOf(result));
  return result.structuredContent;
}

/** One raw POST to /mcp: its status and JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are inspected freely
async function rpc(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await request(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, json: await res.body.json() };
}

/** Every row of a series tool's result, by following prev_offset from the default (newest) page. */
async function everyRow(client: Client, name: string, args: Record<string, unknown>): Promise<unknown[]> {
  let page = structured(await call(client, name, args));
  const rows = [...page.data];
  while (page.prev_offset !== null) {
    // The page before ends where this one begins.
    const limit = page.offset - page.prev_offset;
    page = structured(await call(client, name, { ...args, offset: page.prev_offset, limit }));
    rows.unshift(...page.data);
  }
  return rows;
}

describe('MCP as agent hosts meet it: series', () => {
  it('puts the newest rows and the range in the text, and pages from there to every row', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const cases = [
        ['get_history', { symbol: 'ENGRO' }, '/stocks/ENGRO/historical'],
        ['get_index_history', { index: 'KSE100' }, '/indices/KSE100/historical'],
        [
          'get_indicators',
          { symbol: 'ENGRO', indicators: 'sma:20,rsi:14' },
          '/stocks/ENGRO/indicators?i=sma:20,rsi:14',
        ],
      ] as const;
      for (const [name, args, path] of cases) {
        const rest = (await http(svc.url, path)).json.data as { date: string }[];
        assert.ok(rest.length > 1000, `${path}: ${rest.length} rows`);
        const newest = rest.at(-1)!.date;
        const result = await call(client, name, args);
        const page = structured(result);
        // One meaning of total: the rows of the whole series, not of the page.
        assert.equal(page.total, rest.length, `${name} total`);
        assert.equal(page.count, 60);
        assert.equal(page.last_date, newest);
        assert.deepEqual(page.data, rest.slice(-60));
        const text = textOf(result);
        assert.match(text, new RegExp(`rows ${rest.length - 59}–${rest.length} of ${rest.length}`), name);
        assert.ok(text.includes(`| ${newest} |`), `${name}: the text reaches the newest row ${newest}`);
        assert.match(text, new RegExp(`Older rows: call again with offset=${rest.length - 120}\\.`), name);
        // Paging by offset reaches every row.
        assert.deepEqual(await everyRow(client, name, { ...args, limit: 1000 }), rest, `${name} every row`);
      }
      // Newest first: the first page is the newest, next_offset goes back in time.
      const desc = structured(
        await call(client, 'get_history', { symbol: 'ENGRO', order: 'desc', limit: 5 }),
      );
      const rest = (await http(svc.url, '/stocks/ENGRO/historical?order=desc')).json.data;
      assert.deepEqual(desc.data, rest.slice(0, 5));
      assert.equal(desc.next_offset, 5);
      assert.equal(desc.prev_offset, null);
      // Past the middle of the series, the oldest page is shorter: its limit is in the text.
      const from = rest.length - 2000;
      assert.ok(from > 0 && from < 1000);
      const middle = await call(client, 'get_history', { symbol: 'ENGRO', limit: 1000, offset: from });
      assert.match(
        textOf(middle),
        new RegExp(
          `Older rows: call again with offset=0 limit=${from}\\.\\nNewer rows: call again with offset=${from + 1000}\\.`,
        ),
      );
    } finally {
      await client.close();
    }
  });
});

describe('MCP as agent hosts meet it: the wire', () => {
  it('answers a malformed tools/call with -32602 and a sentence, never -32603 or a validator dump', async () => {
    const svc = await harness.fresh();
    const malformed: [unknown, RegExp][] = [
      [{ name: 'get_quote', arguments: null }, /arguments of "get_quote" must be an object .*\(got null\)/],
      [{ name: 'get_quote', arguments: ['ENGRO'] }, /must be an object .*\(got an array\)/],
      [{ name: 'get_quote', arguments: 'ENGRO' }, /must be an object .*\(got a string "ENGRO"\)/],
      [{ arguments: { symbol: 'ENGRO' } }, /tools\/call needs params\.name, the tool's name as a string/],
      [{ name: 42 }, /params\.name.*\(got a number 42\)/],
    ];
    for (const [params, message] of malformed) {
      const { status, json } = await rpc(svc.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
      assert.equal(status, 200);
      assert.equal(json.id, 7);
      assert.equal(json.error.code, -32602, JSON.stringify(json));
      assert.match(json.error.message, message);
      assert.doesNotMatch(json.error.message, /invalid_type|expected|"path"|MCP error/);
    }
    const read = await rpc(svc.url, { jsonrpc: '2.0', id: 8, method: 'resources/read', params: {} });
    assert.equal(read.json.error.code, -32602);
    assert.match(read.json.error.message, /resources\/read needs params\.uri/);
  });

  it('answers both requests of a batch that share an id, in order', async () => {
    const svc = await harness.fresh();
    const quote = (symbol: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_quote', arguments: { symbol } },
    });
    const { status, json } = await rpc(svc.url, [
      quote('ENGRO'),
      quote('HBL'),
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    ]);
    assert.equal(status, 200);
    assert.equal(json.length, 3);
    assert.deepEqual(
      json.map((a: { id: number }) => a.id),
      [1, 1, 1],
    );
    assert.equal(json[0].result.structuredContent.data.symbol, 'ENGRO');
    assert.equal(json[1].result.structuredContent.data.symbol, 'HBL');
    assert.deepEqual(json[2].result, {});
  });

  it('words errors once, in tool words, quoting values as JSON', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      // The SDK's client puts "MCP error <code>: " before a message; the server's own has none.
      await assert.rejects(call(client, 'get_quotee', {}), (err: Error) => {
        assert.match(err.message, /^MCP error -32602: unknown tool "get_quotee"; tools\/list gives/);
        assert.doesNotMatch(err.message, /MCP error -32602: MCP error/);
        return true;
      });
      const cases: [string, Record<string, unknown>, RegExp, RegExp][] = [
        ['get_quote', { symbol: 'BAFLTFC8' }, /get_debt_quote with code=BAFLTFC8/, /\/debt\//],
        ['get_debt_quote', { code: 'NOSUCH' }, /list_debt lists its instruments/, /GET /],
        ['search_announcements', { cursor: 'abc' }, /pass next_cursor back as given/, /meta\.next/],
        ['get_indicators', { symbol: 'ENGRO', indicators: 'foo:1' }, /; indicators accepts /, /\bi accepts/],
        [
          'get_history',
          { symbol: 'ENGRO', limit: '10' },
          /limit must be an integer \(got "10"\)/,
          /got 10\)/,
        ],
        ['get_history', { symbol: 'ENGRO', limit: -1 }, /limit must be >= 1 \(got -1\)/, /got "-1"/],
        ['get_quote', { symbol: 'EN GRO' }, /\(got "EN GRO"\)/, /MCP error/],
      ];
      for (const [name, args, says, never] of cases) {
        const result = await call(client, name, args);
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
        assert.match(textOf(result), says, `${name} ${JSON.stringify(args)}`);
        assert.doesNotMatch(textOf(result), never, `${name} ${JSON.stringify(args)}`);
      }
    } finally {
      await client.close();
    }
  });
});

describe('MCP as agent hosts meet it: the tool list', () => {
  it('marks every tool open-world and read-only, says each default of adjusted, and warns of cost', async () => {
    const svc = await harness.fresh();
    const client = await connect(svc.url);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 40);
      for (const t of tools) {
        assert.equal(t.annotations?.openWorldHint, true, t.name);
        assert.equal(t.annotations?.readOnlyHint, true, t.name);
        const adjusted = (t.inputSchema.properties as Record<string, { description?: string }>)?.adjusted;
        if (adjusted !== undefined) {
          assert.match(adjusted.description ?? '', /default/, `${t.name}: adjusted's default`);
          assert.match(t.description ?? '', /adjusted|raw/, `${t.name}: prices raw or adjusted by default`);
        }
      }
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const name of ['rank_performance', 'get_sector_performance']) {
        assert.match(byName.get(name)?.description ?? '', /Cost: .*portal budget/, name);
      }
      for (const name of ['get_intraday', 'get_index_intraday']) {
        assert.ok(byName.get(name)?.inputSchema.properties?.date, `${name} takes date`);
      }
      for (const name of ['get_market_daily', 'get_panel']) {
        const props = byName.get(name)?.inputSchema.properties ?? {};
        assert.ok(props.adjusted && props.dividends, `${name} takes adjusted and dividends`);
      }
    } finally {
      await client.close();
    }
  });

  it('offers the core set with MCP_TOOLS=core, over HTTP and stdio; the rest is not callable', async () => {
    const svc = await harness.fresh({ MCP_TOOLS: 'core' });
    for (const client of [await connect(svc.url), await connectStdio(svc.url)]) {
      try {
        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name);
        assert.ok(names.length >= 15 && names.length <= 20, `${names.length} core tools`);
        for (const name of ['search_stocks', 'get_quote', 'get_history', 'get_symbol_overview']) {
          assert.ok(names.includes(name), name);
        }
        assert.equal(structured(await call(client, 'get_quote', { symbol: 'ENGRO' })).data.symbol, 'ENGRO');
        await assert.rejects(call(client, 'get_board', { board: 'futures' }), (err: Error) => {
          assert.match(err.message, /^MCP error -32602: tool "get_board" is not offered: .*MCP_TOOLS=core/);
          return true;
        });
      } finally {
        await client.close();
      }
    }
  });

  it('gives the newest bar in the text over the stdio bridge too', async () => {
    const svc = await harness.fresh();
    const client = await connectStdio(svc.url);
    try {
      const rest = (await http(svc.url, '/stocks/ENGRO/historical')).json.data as { date: string }[];
      const text = textOf(await call(client, 'get_history', { symbol: 'ENGRO', limit: 60 }));
      assert.ok(text.includes(`| ${rest.at(-1)!.date} |`), text.slice(0, 300));
    } finally {
      await client.close();
    }
  });
});
