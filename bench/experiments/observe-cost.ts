// Experiment (not part of `npm run bench`): the CPU cost of recording one answered request's latency,
// in ns per call, the best and median of several rounds of process CPU time (a loaded machine
// inflates it less than wall time). Three ways, back to back in one process:
//   countRequest  the service's whole per-request metrics call (counter and latency histogram)
//   hand-built    the service's latency histogram alone (src/http/pipeline/request-latency.ts), series bound once
//   prom-client   a standard prom-client Histogram, its label child bound once per (route, method)
// Usage: tsx bench/experiments/observe-cost.ts
import { Histogram, Registry } from 'prom-client';
import { Metrics } from '../../src/http/pipeline/metrics.ts';
import { RequestLatency } from '../../src/http/pipeline/request-latency.ts';

const CALLS = 1_000_000;
const ROUNDS = 7;
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
/** A few routes and statuses, as a busy replica sees them; latencies spread over the buckets. */
const ROUTES: [string, string, number][] = [
  ['/stocks/:symbol/quote', 'GET', 200],
  ['/stocks/:symbol/quote', 'GET', 304],
  ['/stocks/:symbol/historical', 'GET', 200],
  ['/market/summary', 'HEAD', 200],
];
const SECONDS = Array.from({ length: 64 }, (_, i) => 0.0002 * 1.2 ** i);

function nsPerCall(call: (i: number) => void): { best: number; median: number } {
  const round = (): number => {
    const start = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) call(i);
    const used = process.cpuUsage(start);
    return ((used.user + used.system) * 1000) / CALLS;
  };
  round(); // warm-up: the JIT and the label children
  const ns = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
  return { best: ns[0]!, median: ns[ROUNDS >> 1]! };
}

const metrics = new Metrics();
const handBuilt = new RequestLatency('hand_built_seconds', 'hand-built', BUCKETS, new Registry());
const handSeries = ROUTES.map(([route, method]) => handBuilt.seriesOf(route, method));
const standard = new Histogram({
  name: 'standard_seconds',
  help: 'prom-client',
  labelNames: ['route', 'method'] as const,
  buckets: BUCKETS,
  registers: [new Registry()],
});
const children = ROUTES.map(([route, method]) => standard.labels({ route, method }));

const results = {
  countRequest: nsPerCall((i) => {
    const [route, method, status] = ROUTES[i & 3]!;
    metrics.countRequest(route, method, status, SECONDS[i & 63]!);
  }),
  'hand-built': nsPerCall((i) => handBuilt.observe(handSeries[i & 3]!, SECONDS[i & 63]!)),
  'prom-client': nsPerCall((i) => children[i & 3]!.observe(SECONDS[i & 63]!)),
};
for (const [name, r] of Object.entries(results))
  console.log(
    `${name.padEnd(13)} best ${r.best.toFixed(1)} ns, median ${r.median.toFixed(1)} ns per call (CPU)`,
  );
