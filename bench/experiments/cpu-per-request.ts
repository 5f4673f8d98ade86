// Experiment (not part of `npm run bench`): CPU time per request of each server on a cached
// answer, read from /proc/PID/stat around a wrk run. Requests/s on this shared machine move with
// everyone else's load; the CPU a server spends per answer moves much less, so an A/B of two
// pipelines is readable even when the ratios of the serve benchmark are not.
// Usage: tsx bench/experiments/cpu-per-request.ts [SECONDS] [ROUNDS]
import { readFileSync } from 'node:fs';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { get, routeOf } from '../http.ts';
import { load } from '../load.ts';
import { startBare, startFastifyReplay, startService, type ChildServer } from '../processes.ts';
import { median } from '../stats.ts';

const SECONDS = Number(process.argv[2] ?? 3);
const ROUNDS = Number(process.argv[3] ?? 3);
const PATHS = [
  { path: '/stocks/ENGRO/quote', gzip: false },
  { path: '/screener', gzip: true },
  { path: '/stocks/ENGRO/historical', gzip: true },
];
const GZIP = { 'accept-encoding': 'gzip' };
const TICKS_PER_SEC = 100;

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SEC;
}

const portal = await startFakePortal();
const servers: Record<string, ChildServer> = {
  service: await startService('cpu-service', portal.url),
  'service HIT_REPLAY=false': await startService('cpu-routed', portal.url, { HIT_REPLAY: 'false' }),
};
try {
  const routes = [];
  for (const p of PATHS) {
    await get(servers.service!.url + p.path, p.gzip ? GZIP : {});
    await get(servers['service HIT_REPLAY=false']!.url + p.path, p.gzip ? GZIP : {});
    routes.push(routeOf(p.path, await get(servers.service!.url + p.path, p.gzip ? GZIP : {})));
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
    console.log(`${p.path}${p.gzip ? ' (gzip)' : ''}: CPU µs per request (median of ${ROUNDS})`);
    for (const [name, values] of Object.entries(perRequest))
      console.log(`  ${name.padEnd(28)} ${median(values).toFixed(1)}`);
  }
} finally {
  for (const s of Object.values(servers)) await s.stop();
  await portal.close();
}
