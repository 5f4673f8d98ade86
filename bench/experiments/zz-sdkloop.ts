import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { startService } from '../processes.ts';
const portal = await startFakePortal();
const service = await startService('loop', portal.url);
try {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  for (let i = 0; i < 500; i++) await client.callTool({ name: 'get_quote', arguments: { symbol: 'ENGRO' } });
  const s = new Session(); s.connect();
  await s.post('Profiler.enable'); await s.post('Profiler.setSamplingInterval', { interval: 50 }); await s.post('Profiler.start');
  const t = performance.now();
  for (let i = 0; i < 4000; i++) await client.callTool({ name: 'get_quote', arguments: { symbol: 'ENGRO' } });
  console.log('per call', ((performance.now() - t) / 4000).toFixed(3));
  const { profile } = await s.post('Profiler.stop');
  writeFileSync('/tmp/s40/client.cpuprofile', JSON.stringify(profile));
  await client.close();
} finally { await service.stop(); await portal.close(); }
