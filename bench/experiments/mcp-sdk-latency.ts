// Latency of a cached quote through the MCP SDK client against fetch over REST (sequential calls).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { startService } from '../processes.ts';
import { median } from '../stats.ts';

const N = Number(process.env.N ?? 2000);
const portal = await startFakePortal();
const service = await startService('mcp-latency', portal.url);
try {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  if (process.env.LIST === '1') await client.listTools();
  const url = `${service.url}/stocks/ENGRO/quote`;
  await (await fetch(url)).json();
  await client.callTool({ name: 'get_quote', arguments: { symbol: 'ENGRO' } });
  const rest: number[] = [];
  const mcp: number[] = [];
  const raw: number[] = [];
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_quote', arguments: { symbol: 'ENGRO' } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < N / 4; i++) {
      let t = performance.now();
      await (await fetch(url)).json();
      rest.push(performance.now() - t);
      t = performance.now();
      await client.callTool({ name: 'get_quote', arguments: { symbol: 'ENGRO' } });
      mcp.push(performance.now() - t);
      t = performance.now();
      await (await fetch(`${service.url}/mcp`, { method: 'POST', headers, body })).json();
      raw.push(performance.now() - t);
    }
  }
  const r = median(rest);
  const m = median(mcp);
  console.log(`REST ${r.toFixed(3)} ms, MCP SDK ${m.toFixed(3)} ms, ratio ${(m / r).toFixed(2)}, raw POST ${median(raw).toFixed(3)} ms`);
  await client.close();
} finally {
  await service.stop();
  await portal.close();
}
