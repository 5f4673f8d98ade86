// Cold burst: 1,000 concurrent requests for one uncached history while the fake portal takes
// 300 ms per page. The service must fetch the page once (single flight) and answer everyone soon
// after it arrives.
//
// The 1,000 connections are opened first (with /health): opening 1,000 sockets at once overflows
// a default listen backlog of 511 here and costs ~1 s of SYN retries, which would measure the
// kernel rather than the service. Latency then runs from the burst start to each answer's last
// body byte. Two references sit beside the cold figure: the same burst once the answer is cached
// (the service's fan-out alone), and against a bare node:http server replaying the same answer
// (the floor for this client, these bytes and this machine).
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { startFakePortal, type FakePortal } from '../dev/fake-portal/server.ts';
import { get, routeOf } from './http.ts';
import { describeMachine } from './machine.ts';
import { REAL_SIZE } from './pages.ts';
import { startBare, startService, type ChildServer } from './processes.ts';
import type { DetailTable, Figure, Section } from './report.ts';
import { median, quantile } from './stats.ts';

const CONCURRENCY = 1000;
const PAGE_DELAY_MS = 300;
/** One cold burst per symbol (each uncached); every history has ENGRO's 2,162 rows. */
const BURST_SYMBOLS = ['ENGRO', 'HBL', 'LUCK'];
/**
 * One more for a client that accepts gzip (informational: how compression behaves under a burst).
 * One burst only: with compression per response it takes seconds, not milliseconds.
 */
const GZIP_SYMBOLS = ['MCB'];
/** Fetched before the bursts: the portal token, the portal connection and the code paths are warm. */
const WARM_SYMBOL = 'OGDC';

interface BurstRun {
  p50: number;
  p99: number;
  first: number;
  failures: number;
  /** Bytes of one answer's body as received (compressed when the client accepted it). */
  bodyBytes: number;
}

interface ColdBurst extends BurstRun {
  label: string;
  portalFetches: number;
  tokenFetches: number;
}

async function burst(origin: string, path: string, headers: Record<string, string> = {}): Promise<BurstRun> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 60_000 });
  try {
    // Open every connection first: each request holds its connection until answered.
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        const res = await pool.request({ path: '/health', method: 'GET' });
        await res.body.dump();
      }),
    );
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        try {
          const res = await pool.request({ path, method: 'GET', headers });
          let bytes = 0;
          for await (const chunk of res.body) bytes += (chunk as Buffer).length;
          return { ms: performance.now() - started, ok: res.statusCode === 200, bytes };
        } catch {
          return { ms: performance.now() - started, ok: false, bytes: 0 };
        }
      }),
    );
    const latencies = outcomes.map((o) => o.ms);
    return {
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      first: Math.min(...latencies),
      failures: outcomes.filter((o) => !o.ok).length,
      bodyBytes: outcomes[0]?.bytes ?? 0,
    };
  } finally {
    await pool.close();
  }
}

async function coldBurst(
  portal: FakePortal,
  service: ChildServer,
  symbol: string,
  headers: Record<string, string>,
  label: string,
): Promise<ColdBurst> {
  portal.resetCounts();
  const run = await burst(service.url, `/stocks/${symbol}/historical`, headers);
  const counts = portal.counts();
  const b: ColdBurst = {
    ...run,
    label,
    portalFetches: counts.requests['POST /historical'] ?? 0,
    tokenFetches: counts.requests['GET /'] ?? 0,
  };
  console.log(
    `  cold-burst: ${label} first ${b.first.toFixed(0)} ms, p50 ${b.p50.toFixed(0)} ms, p99 ${b.p99.toFixed(0)} ms, portal fetches ${b.portalFetches}`,
  );
  return b;
}

const GZIP = { 'accept-encoding': 'gzip' };

export async function runColdBurst(): Promise<Section> {
  const startedAt = new Date();
  const machine = describeMachine();
  const portal = await startFakePortal({ delayMs: PAGE_DELAY_MS, historyRows: REAL_SIZE.historyRows });
  const service = await startService('cold-burst', portal.url);
  const cold: ColdBurst[] = [];
  const gzip: ColdBurst[] = [];
  const warm: BurstRun[] = [];
  const floor: BurstRun[] = [];
  try {
    const first = await get(`${service.url}/stocks/${WARM_SYMBOL}/historical`);
    if (first.status !== 200) throw new Error(`warm-up answered ${first.status}`);
    for (const symbol of BURST_SYMBOLS) cold.push(await coldBurst(portal, service, symbol, {}, symbol));
    for (const symbol of GZIP_SYMBOLS)
      gzip.push(await coldBurst(portal, service, symbol, GZIP, `${symbol}, gzip accepted`));
    const path = `/stocks/${BURST_SYMBOLS[0]}/historical`;
    for (let i = 0; i < BURST_SYMBOLS.length; i++) warm.push(await burst(service.url, path));
    const bare = await startBare('cold-burst-bare', [
      routeOf(path, await get(service.url + path)),
      routeOf('/health', await get(`${service.url}/health`)),
    ]);
    try {
      for (let i = 0; i < BURST_SYMBOLS.length; i++) floor.push(await burst(bare.url, path));
    } finally {
      await bare.stop();
    }
  } finally {
    await service.stop();
    await portal.close();
  }
  const med = (runs: BurstRun[], pick: (r: BurstRun) => number): number => median(runs.map(pick));
  console.log(
    `  cold-burst: cached p99 ${med(warm, (r) => r.p99).toFixed(0)} ms; bare node:http floor p99 ${med(floor, (r) => r.p99).toFixed(0)} ms`,
  );

  const figures: Figure[] = [
    {
      id: 'cold-burst.portalFetches',
      label: 'portal fetches per cold burst (worst)',
      value: Math.max(...[...cold, ...gzip].map((b) => b.portalFetches)),
      unit: '',
      target: { op: '==', limit: 1 },
    },
    {
      id: 'cold-burst.failures',
      label: 'failed requests (all bursts)',
      value: [...cold, ...gzip, ...warm].reduce((n, b) => n + b.failures, 0),
      unit: '',
      target: { op: '==', limit: 0 },
    },
    { id: 'cold-burst.p50', label: 'cold burst p50', value: med(cold, (r) => r.p50), unit: 'ms' },
    {
      id: 'cold-burst.p99',
      label: 'cold burst p99',
      value: med(cold, (r) => r.p99),
      unit: 'ms',
      target: { op: '<=', limit: PAGE_DELAY_MS + 100 },
    },
    {
      id: 'cold-burst.gzipP99',
      label: 'cold burst p99, client accepts gzip (1 burst)',
      value: med(gzip, (r) => r.p99),
      unit: 'ms',
    },
    {
      id: 'cold-burst.warmP99',
      label: 'same burst, answer cached: p99',
      value: med(warm, (r) => r.p99),
      unit: 'ms',
    },
    {
      id: 'cold-burst.floorP99',
      label: 'same burst, bare node:http floor: p99',
      value: med(floor, (r) => r.p99),
      unit: 'ms',
    },
  ];
  const row = (
    label: string,
    b: BurstRun,
    fetches: number | string,
    tokens: number | string,
  ): (string | number)[] => [
    label,
    Math.round(b.bodyBytes / 1024),
    b.first,
    b.p50,
    b.p99,
    fetches,
    tokens,
    b.failures,
  ];
  const table: DetailTable = {
    title: 'Per burst',
    columns: [
      'burst',
      'body KB received',
      'first answer ms',
      'p50 ms',
      'p99 ms',
      'POST /historical',
      'GET / (token)',
      'failures',
    ],
    rows: [
      ...cold.map((b) => row(`cold ${b.label}`, b, b.portalFetches, b.tokenFetches)),
      ...gzip.map((b) => row(`cold ${b.label}`, b, b.portalFetches, b.tokenFetches)),
      ...warm.map((b, i) => row(`cached ${BURST_SYMBOLS[0]} #${i + 1}`, b, '–', '–')),
      ...floor.map((b, i) => row(`bare node:http #${i + 1}`, b, '–', '–')),
    ],
  };
  return {
    id: 'cold-burst',
    title: `Cold burst (${CONCURRENCY} concurrent requests, portal page delay ${PAGE_DELAY_MS} ms)`,
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine,
    figures,
    tables: [table],
    notes: [
      `Cold bursts ask for different uncached symbols (${BURST_SYMBOLS.join(', ')}), every history ${REAL_SIZE.historyRows} rows; figures are medians over bursts.`,
      `One request for ${WARM_SYMBOL} first, so the portal token (a page of its own, also delayed) is held: the burst measures the history fetch, not token acquisition.`,
      'Client: undici Pool in the runner with 1,000 connections opened beforehand; latency = burst start → last body byte. No Accept-Encoding unless stated (the body is then ~280 KB of JSON per answer, 280 MB per burst).',
      'Cached: the same burst once the answer is cached (the service’s fan-out alone). Bare node:http: the same client against a server replaying the same bytes — the floor on this machine; a cold p99 cannot go below page delay + that floor.',
    ],
  };
}
