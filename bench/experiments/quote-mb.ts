import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger, createService } from '../../src/service.ts';
import { quote } from '../../src/market/quotes/quotes.ts';
const portal = await startFakePortal({});
const config = loadConfig({
  EXCHANGE_BASE_URL: portal.url,
  CACHE_DIR: '/tmp/mb/cache' + Date.now(),
  CACHE_FOLLOW_MARKET_CLOCK: 'false',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
});
const svc = await createService(config, createLogger('warn'));
await svc.app.ready();
await svc.app.inject('/stocks/ENGRO/quote');
const ctx = { clientIp: '127.0.0.1' };
for (let round = 0; round < 3; round++) {
  let t = process.hrtime.bigint();
  const N = 50000;
  for (let i = 0; i < N; i++) await quote(svc.datasets, 'ENGRO', ctx);
  console.log('quote µs', Number(process.hrtime.bigint() - t) / 1000 / N);
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await svc.datasets.screener(ctx);
  console.log('screener read µs', Number(process.hrtime.bigint() - t) / 1000 / N);
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) svc.metrics.cacheReads.inc({ state: 'HIT', tier: 'memory' });
  console.log('metric inc µs', Number(process.hrtime.bigint() - t) / 1000 / N);
  t = process.hrtime.bigint();
  const M = 20000;
  for (let i = 0; i < M; i++) await svc.app.inject('/stocks/ENGRO/quote');
  console.log('inject quote µs', Number(process.hrtime.bigint() - t) / 1000 / M);
  t = process.hrtime.bigint();
  for (let i = 0; i < M; i++) await svc.app.inject('/health');
  console.log('inject health µs', Number(process.hrtime.bigint() - t) / 1000 / M);
}
await svc.close();
await portal.close();
