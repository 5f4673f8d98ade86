import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { startService } from '../processes.ts';
import { median } from '../stats.ts';
const portal = await startFakePortal();
const service = await startService('loop', portal.url);
try {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  if (process.env.LIST) await client.listTools();
  for (const [name, args] of [['get_quote', { symbol: 'ENGRO' }], ['get_market_status', {}], ['get_quote', { symbol: 'ENGRO' }]] as const) {
    await client.callTool({ name, arguments: args });
    for (let k = 0; k < 3; k++) {
      const ts: number[] = [];
      for (let i = 0; i < 1000; i++) { const t = performance.now(); await client.callTool({ name, arguments: args }); ts.push(performance.now() - t); }
      console.log(name, k, median(ts).toFixed(3));
    }
  }
  const ts: number[] = [];
  for (let i = 0; i < 1000; i++) { const t = performance.now(); await (await fetch(`${service.url}/market/status`)).json(); ts.push(performance.now() - t); }
  console.log('rest status', median(ts).toFixed(3));
  await client.close();
} finally { await service.stop(); await portal.close(); }
