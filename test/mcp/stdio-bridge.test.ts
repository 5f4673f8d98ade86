// The client package's stdio bridge end to end: an MCP client speaking stdio to the bin (spawned as
// a child process), which passes every message on to a running service's /mcp over HTTP.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';

const harness = portalHarness();
const BIN = fileURLToPath(new URL('../../packages/client/src/bin.ts', import.meta.url));

function bridge(args: string[]): StdioClientTransport {
  // The bin's source through tsx: the same code `npm run build` compiles into dist/bin.js.
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BIN, ...args],
    stderr: 'pipe',
  });
}

describe('psx-market-data-client mcp (stdio bridge)', () => {
  it("keeps the SDK out of the package's main entry (browser users load only the typed client)", () => {
    const main = readFileSync(
      fileURLToPath(new URL('../../packages/client/src/index.ts', import.meta.url)),
      'utf8',
    );
    assert.doesNotMatch(main, /@modelcontextprotocol|\.\/bin/);
    const pkg = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../packages/client/package.json', import.meta.url)), 'utf8'),
    );
    assert.equal(pkg.bin['psx-market-data-client'], './dist/bin.js');
    assert.equal(pkg.exports['.'].default, './dist/index.js');
  });

  it('bridges stdio to the service: initialize, list tools, call one', async () => {
    const svc = await harness.fresh();
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(bridge(['mcp', '--url', svc.url]));
    try {
      assert.equal(client.getServerVersion()?.name, 'psx-market-data');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'get_quote'));
      const result = (await client.callTool({
        name: 'get_quote',
        arguments: { symbol: 'HBL' },
      })) as CallToolResult;
      const rest = await http(svc.url, '/stocks/HBL/quote');
      assert.equal(
        (result.structuredContent as { data: { price: number } }).data.price,
        rest.json.data.price,
      );
      const missing = (await client.callTool({
        name: 'get_quote',
        arguments: { symbol: 'HBLX' },
      })) as CallToolResult;
      assert.equal(missing.isError, true);
    } finally {
      await client.close();
    }
  });

  it('answers a request with a JSON-RPC error when the service cannot be reached', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    await assert.rejects(
      client.connect(bridge(['mcp', '--url', 'http://127.0.0.1:9'])),
      /could not be reached/,
    );
    await client.close();
  });

  it('refuses a missing --url with its usage', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const transport = bridge(['mcp']);
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await assert.rejects(client.connect(transport));
    assert.match(stderr, /--url is required/);
  });
});
