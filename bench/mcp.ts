// A cached quote over MCP against the same quote over REST, in one run: the service in its own
// process, the same load client (autocannon, which can POST a body) for both sides, rounds
// alternating, and the CPU the service's process spent per answer on each side. The MCP side
// is a tools/call of get_quote per POST (stateless Streamable HTTP, JSON answers): the front door
// answers it (src/mcp/direct-call.ts) from the same market service and cached datasets.
// Then what an agent host sees: the latency of one call at a time through the official SDK's
// client (Client + StreamableHTTPClientTransport, after tools/list as hosts do, so it also checks
// each result against the tool's output schema) against fetch's GET of the REST quote, with the
// runner's own CPU per call on each side (where the SDK's time goes: bench/README.md). A second SDK
// client gives each request its own abort signal, as some hosts' transports do, to show what the
// transport's one shared signal costs (undici leaves an abort listener on it per request).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { getEventListeners } from 'node:events';
import autocannon from 'autocannon';
import { startFakePortal } from '../dev/fake-portal/server.ts';
import { cpuMs } from './cpu.ts';
import { describeMachine } from './machine.ts';
import { startService } from './processes.ts';
import type { Figure, Section } from './report.ts';
import { median } from './stats.ts';
import { isolatingFetch } from '../packages/client/src/isolating-fetch.ts';

const CONNECTIONS = 20;
const SECONDS = Number(process.env.BENCH_MCP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const QUOTE = '/stocks/ENGRO/quote';
/** Calls each side per round of the SDK latency part, rounds alternating. */
const SDK_CALLS = Number(process.env.BENCH_MCP_SDK_CALLS ?? 500);
const SDK_ROUNDS = Number(process.env.BENCH_MCP_SDK_ROUNDS ?? 6);

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MCP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_quote', arguments: { symbol: 'ENGRO' } },
});

type Side = 'rest' | 'mcp';

const SIDE_NAMES: Record<SdkSide, string> = {
  rest: 'REST (fetch GET)',
  post: 'fetch POST of the tools/call',
  sdk: 'the SDK client',
  isolated: 'the SDK client, a signal per request',
};

type SdkSide = 'rest' | 'post' | 'sdk' | 'isolated';
const SDK_SIDES: readonly SdkSide[] = ['rest', 'post', 'sdk', 'isolated'];

interface Latency {
  /**
   * Median ms of one call, by round: fetch's GET of the REST quote (`rest`); the same tools/call as
   * the SDK's, POSTed with fetch (`post`: what the SDK's client adds is the rest); the SDK's
   * callTool (`sdk`); the same through a transport whose fetch gives each request its own signal
   * (`isolated`).
   */
  ms: Record<SdkSide, number[]>;
  /** The runner's CPU µs per call (user + system, all its threads, the GC's included), by round. */
  clientCpuUs: Record<SdkSide, number[]>;
  /** Abort listeners left on the plain SDK transport's signal after the last round. */
  listenersLeft: number;
  /** The same on the transport whose fetch gives each request its own signal. */
  isolatedListenersLeft: number;
}

const noSides = (): Record<SdkSide, number[]> => ({ rest: [], post: [], sdk: [], isolated: [] });

/** Abort listeners on a transport's signal (the SDK keeps its AbortController in a private field). */
function listenersOn(transport: StreamableHTTPClientTransport): number {
  const signal = (transport as unknown as { _abortController?: AbortController })._abortController?.signal;
  return signal === undefined ? Number.NaN : getEventListeners(signal, 'abort').length;
}

/** One call at a time: fetch's GET of the REST quote, and get_quote through the SDK's client. */
async function sdkLatency(base: string): Promise<Latency> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const isolatedTransport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    fetch: isolatingFetch,
  });
  const isolated = new Client({ name: 'bench', version: '1.0.0' });
  await isolated.connect(isolatedTransport);
  const out: Latency = { ms: noSides(), clientCpuUs: noSides(), listenersLeft: 0, isolatedListenersLeft: 0 };
  const headers = { ...MCP_HEADERS, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const quoteOf = async (c: Client): Promise<void> => {
    const r = await c.callTool({ name: 'get_quote', arguments: { symbol: 'ENGRO' } });
    if (r.isError) throw new Error('MCP quote failed');
  };
  try {
    await client.listTools();
    await isolated.listTools();
    const sides: Record<SdkSide, () => Promise<void>> = {
      rest: async () => {
        const res = await fetch(base + QUOTE);
        if (res.status !== 200) throw new Error(`REST quote: ${res.status}`);
        await res.json();
      },
      post: async () => {
        const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: MCP_BODY });
        if (res.status !== 200) throw new Error(`MCP POST: ${res.status}`);
        await res.json();
      },
      sdk: () => quoteOf(client),
      isolated: () => quoteOf(isolated),
    };
    for (let i = 0; i < 200; i++) for (const side of SDK_SIDES) await sides[side](); // warm-up
    for (let round = 0; round < SDK_ROUNDS; round++) {
      const order = round % 2 === 0 ? SDK_SIDES : [...SDK_SIDES].reverse();
      for (const side of order) {
        const times: number[] = [];
        const cpu = process.cpuUsage();
        for (let i = 0; i < SDK_CALLS; i++) {
          const t0 = performance.now();
          await sides[side]();
          times.push(performance.now() - t0);
        }
        const used = process.cpuUsage(cpu);
        out.ms[side].push(median(times));
        out.clientCpuUs[side].push((used.user + used.system) / SDK_CALLS);
      }
    }
    out.listenersLeft = listenersOn(transport);
    out.isolatedListenersLeft = listenersOn(isolatedTransport);
  } finally {
    await client.close();
    await isolated.close();
  }
  return out;
}

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
  let latency: Latency = {
    ms: noSides(),
    clientCpuUs: noSides(),
    listenersLeft: Number.NaN,
    isolatedListenersLeft: Number.NaN,
  };
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
    latency = await sdkLatency(service.url);
  } finally {
    await service.stop();
    await portal.close();
  }
  const cpu = (side: Side) => median(runs[side].map((r) => r.cpuUs));
  // Paired by round: the two runs of a round are seconds apart and see about the same machine.
  const ratio = median(runs.mcp.map((m, i) => (m.cpuUs / (runs.rest[i] as Run).cpuUs) * 100));
  const sdkRatio = (side: SdkSide): number =>
    median(latency.ms[side].map((m, i) => (m / (latency.ms.rest[i] as number)) * 100));
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
      id: 'mcp.sdk.restMs',
      label: 'cached quote over REST, one call at a time (fetch), median',
      value: median(latency.ms.rest),
      unit: 'ms',
    },
    {
      id: 'mcp.sdk.postMs',
      label: 'cached quote over MCP, one call at a time (fetch POST of the tools/call), median',
      value: median(latency.ms.post),
      unit: 'ms',
    },
    {
      id: 'mcp.sdk.mcpMs',
      label: 'cached quote through the MCP SDK client, one call at a time, median',
      value: median(latency.ms.sdk),
      unit: 'ms',
    },
    {
      id: 'mcp.sdk.ratio',
      label: 'cached quote through the MCP SDK client ÷ REST (latency)',
      // Paired by round, as the CPU ratio.
      value: sdkRatio('sdk'),
      unit: '%',
      target: { op: '<=', limit: 150 },
    },
    {
      id: 'mcp.sdk.postRatio',
      label: 'cached quote, fetch POST of the tools/call ÷ REST (latency)',
      value: sdkRatio('post'),
      unit: '%',
    },
    {
      id: 'mcp.sdk.isolatedMs',
      label: 'cached quote through the MCP SDK client, a signal per request (as mcphub), median',
      value: median(latency.ms.isolated),
      unit: 'ms',
    },
    {
      id: 'mcp.sdk.isolatedRatio',
      label: 'cached quote through the MCP SDK client, a signal per request ÷ REST (latency)',
      value: sdkRatio('isolated'),
      unit: '%',
    },
    ...SDK_SIDES.map((side): Figure => ({
      id: `mcp.sdk.clientCpu.${side}`,
      label: `the runner's CPU per call, one call at a time: ${SIDE_NAMES[side]}`,
      value: median(latency.clientCpuUs[side]),
      unit: 'µs',
    })),
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
    `SDK latency: one call at a time from the runner, ${SDK_ROUNDS} rounds × ${SDK_CALLS} calls each side, alternating; REST is fetch's GET and res.json(), the POST the same tools/call the SDK sends with fetch, MCP the SDK's Client.callTool after tools/list (the client checks each result against get_quote's output schema); the ratio is the median of the rounds' ratios, MCP ÷ REST.`,
    `The SDK's transport passes its one AbortController's signal to every fetch, and undici leaves an abort listener on it per request until the request is collected: ${latency.listenersLeft} were on it after the last round (${latency.isolatedListenersLeft} on the other client's), and each fetch walks them (getEventListeners, addEventListener's duplicate check). The "signal per request" client is the same SDK client with a fetch that gives each request its own signal (as samanhappy/mcphub#1062 does).`,
    "The runner's CPU per call is process.cpuUsage over each round ÷ its calls: all the runner's threads, the garbage collector's helpers included, so it can exceed the latency.",
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
