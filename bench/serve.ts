// Serving cached answers: autocannon (50 connections) against the service and against a bare
// node:http server that replays the service's exact bytes, alternating, several rounds. The ratio
// service ÷ bare is the service's own overhead (routing, hooks, headers, envelope splice, writing).
// The service is measured as `npm start` runs it (LOG_LEVEL=info: an access line per request), and
// beside it with its logs off (LOG_LEVEL=warn), so the cost of the access log is in the report.
import { startFakePortal } from '../dev/fake-portal/server.ts';
import { cpuMs } from './cpu.ts';
import { get, routeOf } from './http.ts';
import { load, LOAD_CLIENT, type LoadResult } from './load.ts';
import { describeMachine } from './machine.ts';
import { extrasFor, REAL_SIZE } from './pages.ts';
import { startBare, startFastifyReplay, startService, type ChildServer } from './processes.ts';
import type { DetailTable, Figure, Section } from './report.ts';
import { median } from './stats.ts';

export const SERVE_PATHS = ['/stocks/ENGRO/quote', '/screener', '/stocks/ENGRO/historical'] as const;

/** One measured case: an endpoint, asked for with or without `Accept-Encoding: gzip`. */
interface Variant {
  path: (typeof SERVE_PATHS)[number];
  gzip: boolean;
}

// Every endpoint as a client without compression asks for it, and the two large ones also as
// browsers, curl --compressed, Python requests and undici-with-decompress ask (gzip accepted).
// A 0.5 KB quote is never compressed, so it has one case.
const VARIANTS: Variant[] = [
  { path: '/stocks/ENGRO/quote', gzip: false },
  { path: '/screener', gzip: false },
  { path: '/screener', gzip: true },
  { path: '/stocks/ENGRO/historical', gzip: false },
  { path: '/stocks/ENGRO/historical', gzip: true },
];

// BENCH_SERVE_PATHS=/screener,… measures a subset (while iterating on one endpoint).
const ONLY = process.env.BENCH_SERVE_PATHS?.split(',').filter(Boolean);
const MEASURED = VARIANTS.filter((v) => ONLY === undefined || ONLY.includes(v.path));

const GZIP = { 'accept-encoding': 'gzip' };
const headersOf = (v: Variant): Record<string, string> => (v.gzip ? GZIP : {});
const labelOf = (v: Variant): string => (v.gzip ? `${v.path} (gzip)` : v.path);

const CONNECTIONS = 50;
// Short slices, many rounds: the machine's speed drifts over tens of seconds (other tenants), so
// the sides are compared round by round, each round's three runs back to back (see pairedRatio).
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

interface EndpointResult {
  variant: Variant;
  bytes: number;
  service: LoadResult[];
  logsOff: LoadResult[];
  bare: LoadResult[];
  bareOneWrite: LoadResult[];
  fastify: LoadResult[];
  /** CPU µs the server process spent per answer, per round. */
  cpu: Record<Side, number[]>;
}

type Side = 'service' | 'logsOff' | 'bare' | 'bareOneWrite' | 'fastify';
const SIDES: Side[] = ['service', 'bare', 'logsOff', 'fastify', 'bareOneWrite'];
// Rotated each round, so a noisy neighbour's burst does not always hit the same side.
const ORDERS: Side[][] = SIDES.map((_, i) => [...SIDES.slice(i), ...SIDES.slice(0, i)]);

function medianOf(runs: LoadResult[], pick: (r: LoadResult) => number): number {
  return median(runs.map(pick));
}

/**
 * The median over rounds of a ÷ b within each round, in %. Runs of one round are seconds apart and
 * see about the same machine; the ratio of two medians taken over the whole section would pair a
 * side's fast minutes with the other side's slow ones.
 */
function pairedRatio(a: LoadResult[], b: LoadResult[]): number {
  return median(a.map((run, i) => (run.requestsPerSec / (b[i] as LoadResult).requestsPerSec) * 100));
}

export async function runServe(): Promise<Section> {
  const startedAt = new Date();
  const machine = describeMachine();
  const notes: string[] = [];
  // The screener at its real size (729 rows); ENGRO's history has 2,162 rows in the fake dataset.
  const portal = await startFakePortal({
    extraSymbols: extrasFor(REAL_SIZE.screenerRows, (d) => d.screener.length),
  });
  const service = await startService('serve-service', portal.url);
  let logsOff: ChildServer | undefined;
  let bare: ChildServer | undefined;
  let bareOneWrite: ChildServer | undefined;
  let fastify: ChildServer | undefined;
  const results: EndpointResult[] = [];
  try {
    const routes = [];
    for (const v of MEASURED) {
      await get(service.url + v.path, headersOf(v)); // the miss: fetch, parse, cache (and gzip)
      const cached = await get(service.url + v.path, headersOf(v));
      if (cached.status !== 200 || cached.headers['x-cache'] !== 'HIT') {
        throw new Error(
          `${labelOf(v)}: expected a cached 200, got ${cached.status} x-cache=${cached.headers['x-cache']}`,
        );
      }
      if ((cached.headers['content-encoding'] === 'gzip') !== v.gzip)
        throw new Error(`${labelOf(v)}: content-encoding ${cached.headers['content-encoding']}`);
      routes.push(routeOf(v.path, cached));
    }
    logsOff = await startService('serve-service-logs-off', portal.url, { LOG_LEVEL: 'warn' });
    for (const v of MEASURED) {
      await get(logsOff.url + v.path, headersOf(v)); // its own miss; the runs below are its hits
      const cached = await get(logsOff.url + v.path, headersOf(v));
      if (cached.status !== 200 || cached.headers['x-cache'] !== 'HIT')
        throw new Error(`${labelOf(v)} (logs off): expected a cached 200, got ${cached.status}`);
    }
    bare = await startBare('serve-bare', routes);
    bareOneWrite = await startBare('serve-bare-one-write', routes, true);
    fastify = await startFastifyReplay('serve-fastify', routes);
    for (const replayer of [bare, bareOneWrite, fastify]) {
      for (const route of routes) {
        const replay = await get(replayer.url + route.path, route.gzip ? GZIP : {});
        if (!replay.body.equals(Buffer.from(route.body, 'base64')))
          throw new Error(`${route.path}: replayed bytes differ (${replayer.url})`);
      }
    }
    const urls: Record<Side, string> = {
      service: service.url,
      logsOff: logsOff.url,
      bare: bare.url,
      bareOneWrite: bareOneWrite.url,
      fastify: fastify.url,
    };
    const pids: Record<Side, number> = {
      service: service.pid,
      logsOff: logsOff.pid,
      bare: bare.pid,
      bareOneWrite: bareOneWrite.pid,
      fastify: fastify.pid,
    };
    const fetchesBefore = portal.counts().total;

    for (const variant of MEASURED) {
      const { path } = variant;
      const headers = headersOf(variant);
      const route = routes.find((x) => x.path === path && x.gzip === variant.gzip);
      const bytes = Buffer.from(route?.body ?? '', 'base64').length;
      const r: EndpointResult = {
        variant,
        bytes,
        service: [],
        logsOff: [],
        bare: [],
        bareOneWrite: [],
        fastify: [],
        cpu: { service: [], logsOff: [], bare: [], bareOneWrite: [], fastify: [] },
      };
      // Warm-up (JIT, connection pools), not recorded.
      for (const side of ORDERS[0]!) await load(urls[side] + path, CONNECTIONS, 1, headers);
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ORDERS[round % ORDERS.length]!) {
          const url = urls[side] + path;
          const cpuBefore = cpuMs(pids[side]);
          const run = await load(url, CONNECTIONS, SECONDS, headers);
          r.cpu[side].push(((cpuMs(pids[side]) - cpuBefore) * 1000) / Math.max(1, run.total));
          if (run.failures > 0)
            notes.push(`${side} ${labelOf(variant)} round ${round + 1}: ${run.failures} failed requests`);
          r[side].push(run);
        }
      }
      console.log(
        `  serve: ${labelOf(variant)} service ${Math.round(medianOf(r.service, (x) => x.requestsPerSec))} req/s, logs off ${Math.round(medianOf(r.logsOff, (x) => x.requestsPerSec))} req/s, bare ${Math.round(medianOf(r.bare, (x) => x.requestsPerSec))} req/s, plain Fastify ${Math.round(medianOf(r.fastify, (x) => x.requestsPerSec))} req/s`,
      );
      results.push(r);
    }
    const refetched = portal.counts().total - fetchesBefore;
    if (refetched > 0)
      notes.push(
        `the service went to the portal ${refetched} times during the load runs (answers were not all cached)`,
      );
  } finally {
    await bare?.stop();
    await bareOneWrite?.stop();
    await fastify?.stop();
    await logsOff?.stop();
    await service.stop();
    await portal.close();
  }

  const figures: Figure[] = [];
  for (const r of results) {
    const svc = medianOf(r.service, (x) => x.requestsPerSec);
    const bareRps = medianOf(r.bare, (x) => x.requestsPerSec);
    const name = labelOf(r.variant);
    const key = `serve.${name.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
    figures.push(
      { id: `${key}.serviceRps`, label: `${name} service req/s`, value: svc, unit: 'req/s' },
      {
        id: `${key}.logsOffRps`,
        label: `${name} service, logs off, req/s`,
        value: medianOf(r.logsOff, (x) => x.requestsPerSec),
        unit: 'req/s',
      },
      { id: `${key}.bareRps`, label: `${name} bare node:http req/s`, value: bareRps, unit: 'req/s' },
      {
        id: `${key}.ratio`,
        label: `${name} service ÷ bare`,
        value: pairedRatio(r.service, r.bare),
        unit: '%',
        target: { op: '>=', limit: 75 },
      },
      {
        id: `${key}.logsOffRatio`,
        label: `${name} service, logs off, ÷ bare`,
        value: pairedRatio(r.logsOff, r.bare),
        unit: '%',
      },
      // The machine's floor for these bytes: the bare replay, each body sent in one write with its
      // header block, as the service sends its replays.
      {
        id: `${key}.bareOneWriteRatio`,
        label: `${name} service ÷ bare node:http (one write)`,
        value: pairedRatio(r.service, r.bareOneWrite),
        unit: '%',
      },
      // The framework's own ceiling: a plugin-less Fastify replaying the same bytes.
      {
        id: `${key}.fastifyRatio`,
        label: `${name} plain Fastify ÷ bare`,
        value: pairedRatio(r.fastify, r.bare),
        unit: '%',
      },
      {
        id: `${key}.serviceOfFastify`,
        label: `${name} service ÷ plain Fastify`,
        value: pairedRatio(r.service, r.fastify),
        unit: '%',
        target: { op: '>=', limit: 90 },
      },
      {
        id: `${key}.logsOffOfFastify`,
        label: `${name} service, logs off, ÷ plain Fastify`,
        value: pairedRatio(r.logsOff, r.fastify),
        unit: '%',
      },
      {
        id: `${key}.p50`,
        label: `${name} service p50`,
        value: medianOf(r.service, (x) => x.p50),
        unit: 'ms',
      },
      {
        id: `${key}.p99`,
        label: `${name} service p99`,
        value: medianOf(r.service, (x) => x.p99),
        unit: 'ms',
        // The bare server's p99 in the same run + 5 ms (issue #15), not an absolute figure.
        target: { op: '<=', limit: medianOf(r.bare, (x) => x.p99) + 5 },
      },
      // The floor for the p99 target: the same bytes from the bare server, same client, same load.
      {
        id: `${key}.bareP99`,
        label: `${name} bare node:http p99`,
        value: medianOf(r.bare, (x) => x.p99),
        unit: 'ms',
      },
      // What each answer cost the server's process: steadier than requests/s on a shared machine.
      {
        id: `${key}.serviceCpu`,
        label: `${name} service CPU per answer`,
        value: median(r.cpu.service),
        unit: 'µs',
      },
      {
        id: `${key}.logsOffCpu`,
        label: `${name} service, logs off, CPU per answer`,
        value: median(r.cpu.logsOff),
        unit: 'µs',
      },
      {
        id: `${key}.fastifyCpu`,
        label: `${name} plain Fastify CPU per answer`,
        value: median(r.cpu.fastify),
        unit: 'µs',
      },
      {
        id: `${key}.bareCpu`,
        label: `${name} bare node:http CPU per answer`,
        value: median(r.cpu.bare),
        unit: 'µs',
      },
      {
        id: `${key}.bareOneWriteCpu`,
        label: `${name} bare node:http (one write) CPU per answer`,
        value: median(r.cpu.bareOneWrite),
        unit: 'µs',
      },
    );
  }
  const table: DetailTable = {
    title: `Per endpoint (${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s each side, medians)`,
    columns: [
      'endpoint',
      'body KB',
      'service req/s',
      'logs off req/s',
      'bare req/s',
      'plain Fastify req/s',
      'service ÷ bare (median of rounds)',
      'logs off ÷ bare',
      'service p50/p99 ms',
      'bare p50/p99 ms',
      'plain Fastify p50/p99 ms',
      'service ÷ bare (one write)',
      'CPU µs per answer: service / logs off / plain Fastify / bare / bare (one write)',
      'service req/s per round',
      'bare req/s per round',
      'service ÷ bare per round',
    ],
    rows: results.map((r) => [
      labelOf(r.variant),
      Math.round(r.bytes / 102.4) / 10,
      medianOf(r.service, (x) => x.requestsPerSec),
      medianOf(r.logsOff, (x) => x.requestsPerSec),
      medianOf(r.bare, (x) => x.requestsPerSec),
      medianOf(r.fastify, (x) => x.requestsPerSec),
      `${Math.round(pairedRatio(r.service, r.bare))} %`,
      `${Math.round(pairedRatio(r.logsOff, r.bare))} %`,
      `${medianOf(r.service, (x) => x.p50)} / ${medianOf(r.service, (x) => x.p99)}`,
      `${medianOf(r.bare, (x) => x.p50)} / ${medianOf(r.bare, (x) => x.p99)}`,
      `${medianOf(r.fastify, (x) => x.p50)} / ${medianOf(r.fastify, (x) => x.p99)}`,
      `${Math.round(pairedRatio(r.service, r.bareOneWrite))} %`,
      [r.cpu.service, r.cpu.logsOff, r.cpu.fastify, r.cpu.bare, r.cpu.bareOneWrite]
        .map((values) => median(values).toFixed(1))
        .join(' / '),
      r.service.map((x) => Math.round(x.requestsPerSec)).join(', '),
      r.bare.map((x) => Math.round(x.requestsPerSec)).join(', '),
      r.service
        .map((x, i) => `${Math.round((x.requestsPerSec / r.bare[i]!.requestsPerSec) * 100)} %`)
        .join(', '),
    ]),
  };
  notes.push(
    `Load: ${LOAD_CLIENT}, ${CONNECTIONS} connections, in the runner; every server in its own child process. On 2 cores the load generator competes with the server; compare figures within one run.`,
    'The bare server replays the status, headers and body bytes the service sent for a cached answer (captured after one miss), as a prepared Buffer; "bare (one write)" sends the same body as a one-byte string, which Node writes with the header block in one write, as the service sends its replays (the lowest this machine goes for these bytes; information, not a target); plain Fastify replays the same bytes from a plugin-less, hook-less, logger-less Fastify app: the framework’s own ceiling.',
    '(gzip) rows: the client sends Accept-Encoding: gzip, as browsers and most HTTP libraries do; the answer is the service’s gzip made once per data version.',
    'CPU per answer: the server process’s user + system time (/proc/PID/stat, all threads) over each run, divided by the answers it gave; median of rounds.',
    'Service settings: RATE_LIMIT_PER_MINUTE=0, EXCHANGE_FETCH_LIMIT_*=0, CACHE_FOLLOW_MARKET_CLOCK=false, a private CACHE_DIR, npm start’s node flags. "service" is the default configuration (LOG_LEVEL=info, one access line per request, written to /dev/null through the default buffered destination); "logs off" is a second service process with LOG_LEVEL=warn, measured in the same rounds.',
  );
  return {
    id: 'serve',
    title: 'Serving cached answers',
    startedAt: startedAt.toISOString(),
    durationSec: (Date.now() - startedAt.getTime()) / 1000,
    machine,
    figures,
    tables: [table],
    notes,
  };
}
