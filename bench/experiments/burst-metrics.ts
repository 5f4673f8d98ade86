// Experiment (not part of `npm run bench`): one cold burst with gzip accepted, then the service's
// own view of it from /metrics (portal fetch time, server-side request latency buckets), to tell
// service time from client time. Usage: tsx bench/experiments/burst-metrics.ts [SYMBOL]
import { burstOn, closeAll, openConnections } from '../burst-client.ts';
import { get } from '../http.ts';
import { REAL_SIZE } from '../pages.ts';
import { startPortal, startService } from '../processes.ts';

const symbol = process.argv[2] ?? 'MCB';
const portal = await startPortal('burst-metrics-portal', {
  delayMs: 300,
  historyRows: REAL_SIZE.historyRows,
});
const service = await startService('burst-metrics', portal.url);
try {
  await get(`${service.url}/stocks/OGDC/historical`);
  const sockets = await openConnections(service.url, 1000);
  const answers = await burstOn(sockets, new URL(service.url).host, `/stocks/${symbol}/historical`, {
    'accept-encoding': 'gzip',
  });
  closeAll(sockets);
  const d = answers.map((a) => a.ms).sort((a, b) => a - b);
  console.log(`client: first ${d[0]!.toFixed(0)} p50 ${d[500]!.toFixed(0)} p99 ${d[990]!.toFixed(0)} ms`);
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
  await portal.stop();
}
