// A cached quote over MCP against the same quote over REST, in one run: the service in its own
// process, the same load client (autocannon, which can POST a body) for both sides, rounds
// alternating, and the CPU the service's process spent per answer on each side. The MCP side
// is a tools/call of get_quote per POST (stateless Streamable HTTP, JSON answers): the front door
// answers it (src/mcp/direct-call.ts) from the same market service and cached datasets.
import autocannon from 'autocannon';
import { startFakePortal } from '../dev/fake-portal/server.ts';
import { cpuMs } from './cpu.ts';
import { describeMachine } from './machine.ts';
import { startService } from './processes.ts';
import type { Figure, Section } from './report.ts';
import { median } from './stats.ts';

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_MCP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const QUOTE = '/stocks/ENGRO/quote';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MCP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_quote', arguments: { symbol: 'ENGRO' } },
});

type Side = 'rest' | 'mcp';

interface Run {
  rps: number;
  total: number;
  failures: number;
  cpuUs: number;
}

async function loadSide(base: string, side: Side, pid: number, seconds: number): Promise<Run> {
  const before = cpuMs(pid);
  const r = await autocannon({
    url: side === 'rest' ? base + QUOTE : `${base}/mcp`,
    connections: CONNECTIONS,
    duration: seconds,
    ...(side === 'mcp' ? { method: 'POST' as const, headers: MCP_HEADERS, body: MCP_BODY } : {}),
  });
  const total = r.requests.total;
  return {
    rps: r.requests.average,
    total,
    failures: r.errors + r.timeouts + r.non2xx,
    cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, total),
  };
}

export async function runMcp(): Promise<Section> {
  const startedAt = new Date();
  const machine = describeMachine();
  const notes: string[] = [];
  const portal = await startFakePortal();
  const service = await startService('mcp-service', portal.url);
  const runs: Record<Side, Run[]> = { rest: [], mcp: [] };
  try {
    // The misses: fetch, parse, cache; then one answer each way to check both are served.
    const rest = await fetch(service.url + QUOTE);
    if (rest.status !== 200) throw new Error(`REST quote: ${rest.status}`);
    const mcp = await fetch(`${service.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: MCP_BODY });
    const answer = (await mcp.json()) as { result?: { isError?: boolean; structuredContent?: unknown } };
    if (mcp.status !== 200 || answer.result?.isError || answer.result?.structuredContent === undefined)
      throw new Error(`MCP quote: ${mcp.status} ${JSON.stringify(answer).slice(0, 200)}`);
    for (const side of ['rest', 'mcp'] as const) await loadSide(service.url, side, service.pid, 1); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const order: Side[] = round % 2 === 0 ? ['rest', 'mcp'] : ['mcp', 'rest'];
      for (const side of order) {
        const run = await loadSide(service.url, side, service.pid, SECONDS);
        if (run.failures > 0) notes.push(`${side} round ${round + 1}: ${run.failures} failed requests`);
        runs[side].push(run);
      }
    }
  } finally {
    await service.stop();
    await portal.close();
  }
  const cpu = (side: Side) => median(runs[side].map((r) => r.cpuUs));
  // Paired by round: the two runs of a round are seconds apart and see about the same machine.
  const ratio = median(runs.mcp.map((m, i) => (m.cpuUs / (runs.rest[i] as Run).cpuUs) * 100));
  const figures: Figure[] = [
    { id: 'mcp.quote.restCpu', label: 'cached quote over REST CPU per call', value: cpu('rest'), unit: 'µs' },
    { id: 'mcp.quote.mcpCpu', label: 'cached quote over MCP CPU per call', value: cpu('mcp'), unit: 'µs' },
    {
      id: 'mcp.quote.cpuRatio',
      label: 'cached quote over MCP CPU per call ÷ REST',
      value: ratio,
      unit: '%',
      target: { op: '<=', limit: 150 },
    },
    {
      id: 'mcp.quote.restRps',
      label: 'cached quote over REST req/s',
      value: median(runs.rest.map((r) => r.rps)),
      unit: 'req/s',
    },
    {
      id: 'mcp.quote.mcpRps',
      label: 'cached quote over MCP calls/s',
      value: median(runs.mcp.map((r) => r.rps)),
      unit: 'req/s',
    },
  ];
  notes.push(
    `Load: autocannon, ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s each side, alternating; the service in its own process (RATE_LIMIT_PER_MINUTE=0, LOG_LEVEL=warn).`,
    'REST: GET /stocks/ENGRO/quote, a fresh cached answer (replayed by the front door). MCP: POST /mcp with one tools/call of get_quote (a JSON-RPC request, JSON answer with the structured quote and its text).',
    'CPU per call: the service process’s user + system time over each run ÷ its answers; the ratio is the median of the rounds’ MCP ÷ REST.',
  );
  return {
    id: 'mcp',
    title: 'A cached quote over MCP and over REST',
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine,
    figures,
    tables: [],
    notes,
  };
}
