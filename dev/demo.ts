// `npm run demo`: the project's fake portal and the service against it, so every endpoint and the
// dashboard can be tried offline. Nothing here touches the real portal.
import { existsSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { createLogger, createService } from '../src/service.ts';
import { startFakePortal } from './fake-portal/server.ts';

if (!existsSync('web/dist/index.html')) {
  console.log('building the dashboard (web/dist)…');
  const { build } = await import('vite');
  await build({ configFile: 'web/vite.config.ts', logLevel: 'warn' });
}

// The market watch moves every 10 s, so /stream/quotes shows a moving market (src/stream/).
const portal = await startFakePortal({ delayMs: 150, tickMs: 10_000 });
const config = loadConfig({
  ...process.env,
  EXCHANGE_BASE_URL: portal.url,
  HOST: process.env.HOST ?? '127.0.0.1',
  CACHE_DIR: process.env.CACHE_DIR ?? './data/demo',
  // The fake portal's market is frozen on one day; plain TTLs keep the demo predictable.
  CACHE_FOLLOW_MARKET_CLOCK: process.env.CACHE_FOLLOW_MARKET_CLOCK ?? 'false',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // The demo keeps the market (docs/archive.md): /archive/status shows the backfill.
  ARCHIVE: process.env.ARCHIVE ?? 'on',
});
const service = await createService(config, createLogger(config.logLevel));
const address = await service.app.listen({ port: config.port, host: config.host });

console.log(`
fake portal      ${portal.url}   (control: ${portal.url}/__fake/counts)
service          ${address}
  dashboard      ${address}/
  API reference  ${address}/docs
  try            ${address}/stocks/ENGRO/quote
                 ${address}/stocks/ENGRO/historical?start=2025-06-01&end=2025-06-30
                 ${address}/indices/KSE100?format=csv
Ctrl-C stops both.`);

const stop = async () => {
  await service.close();
  await portal.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
