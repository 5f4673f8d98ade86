// Experiment (not part of `npm run bench`): one cold burst with gzip accepted, then the service's
// own view of it from /metrics (portal fetch time, server-side request latency buckets), to tell
// service time from client time. Usage: tsx bench/experiments/burst-metrics.ts [SYMBOL]
import { Pool } from 'undici';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { get } from '../http.ts';
import { REAL_SIZE } from '../pages.ts';
import { startService } from '../processes.ts';

const symbol = process.argv[2] ?? 'MCB';
const portal = await startFakePortal({ delayMs: 300, historyRows: REAL_SIZE.historyRows });
const service = await startService('burst-metrics', portal.url);
try {
  await get(`${service.url}/stocks/OGDC/historical`);
  const pool = new Pool(service.url, { connections: 1000, pipelining: 1, keepAliveTimeout: 60_000 });
  await Promise.all(
    Array.from({ length: 1000 }, async () =>
      (await pool.request({ path: '/health', method: 'GET' })).body.dump(),
    ),
  );
  const started = performance.now();
  const ms = await Promise.all(
    Array.from({ length: 1000 }, async () => {
      const res = await pool.request({
        path: `/stocks/${symbol}/historical`,
        method: 'GET',
        headers: { 'accept-encoding': 'gzip' },
      });
      const headersAt = performance.now() - started;
      await res.body.dump();
      return [headersAt, performance.now() - started] as const;
    }),
  );
  const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
  const h = sorted(ms.map((m) => m[0]));
  const d = sorted(ms.map((m) => m[1]));
  console.log(
    `client: headers first ${h[0]!.toFixed(0)} p50 ${h[500]!.toFixed(0)} p99 ${h[990]!.toFixed(0)}; done first ${d[0]!.toFixed(0)} p50 ${d[500]!.toFixed(0)} p99 ${d[990]!.toFixed(0)} ms`,
  );
  await pool.close();
  const metrics = (await get(`${service.url}/metrics`)).body.toString();
  for (const line of metrics.split('\n'))
    if (
      /exchange_fetch_duration_seconds_(sum|count)\{page="history"|request_duration_seconds_bucket\{.*historical/.test(
        line,
      )
    )
      console.log(line);
} finally {
  await service.stop();
  await portal.close();
}
