// Experiment (not part of `npm run bench`): CPU time per request of each server on a cached
// answer, read from /proc/PID/stat around wrk runs. Requests/s on this shared machine move with
// everyone else's load; the CPU a server spends per answer moves much less, so an A/B of two
// builds or settings is readable even when the ratios of the serve benchmark are not. Rounds are
// short and interleaved (every server once per round) so that a busy minute hits all of them;
// the minimum and the lower quartile are the least contended figures.
//
// Usage: tsx bench/experiments/cpu-per-request.ts [SECONDS] [ROUNDS]
//   CPU_PATHS=/stocks/ENGRO/quote,/screener+gzip     paths (+gzip: with Accept-Encoding: gzip)
//   CPU_VARIANTS='{"service":{},"no warm-up":{"PARSER_WARM_UP":"false"}}'   service processes,
//     each with extra environment; the bare and plain-Fastify ceilings always run beside them.
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { cpuMs } from '../cpu.ts';
import { get, routeOf } from '../http.ts';
import { load } from '../load.ts';
import { startBare, startFastifyReplay, startService, type ChildServer } from '../processes.ts';
import { median } from '../stats.ts';

const SECONDS = Number(process.argv[2] ?? 1);
const ROUNDS = Number(process.argv[3] ?? 12);
const PATHS = (process.env.CPU_PATHS ?? '/stocks/ENGRO/quote,/screener+gzip,/stocks/ENGRO/historical+gzip')
  .split(',')
  .map((p) => ({ path: p.replace(/\+gzip$/, ''), gzip: p.endsWith('+gzip') }));
const VARIANTS: Record<string, Record<string, string>> = JSON.parse(
  process.env.CPU_VARIANTS ?? '{"service":{}}',
);
const GZIP = { 'accept-encoding': 'gzip' };
function quartile(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 4)]!;
}

const portal = await startFakePortal();
const servers: Record<string, ChildServer> = {};
try {
  for (const [name, env] of Object.entries(VARIANTS))
    servers[name] = await startService(`cpu-${name.replace(/\W+/g, '-')}`, portal.url, env);
  const routes = [];
  const first = Object.values(servers)[0]!;
  for (const p of PATHS) {
    for (const server of Object.values(servers)) await get(server.url + p.path, p.gzip ? GZIP : {});
    routes.push(routeOf(p.path, await get(first.url + p.path, p.gzip ? GZIP : {})));
  }
  servers.bare = await startBare('cpu-bare', routes);
  servers['plain Fastify'] = await startFastifyReplay('cpu-fastify', routes);
  for (const p of PATHS) {
    const perRequest: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const before = cpuMs(server.pid);
        const run = await load(server.url + p.path, 50, SECONDS, p.gzip ? GZIP : {});
        const used = cpuMs(server.pid) - before;
        (perRequest[name] ??= []).push((used * 1000) / Math.max(1, run.total));
      }
    }
    console.log(`${p.path}${p.gzip ? ' (gzip)' : ''}: CPU µs per request over ${ROUNDS} rounds`);
    console.log(`  ${'server'.padEnd(28)} ${'min'.padStart(6)} ${'p25'.padStart(6)} ${'median'.padStart(6)}`);
    for (const [name, values] of Object.entries(perRequest)) {
      const figures = [Math.min(...values), quartile(values), median(values)].map((v) =>
        v.toFixed(1).padStart(6),
      );
      console.log(`  ${name.padEnd(28)} ${figures.join(' ')}`);
    }
  }
} finally {
  for (const s of Object.values(servers)) await s.stop();
  await portal.close();
}
