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

// The demo's market is today's: the fake portal's calendar ends on the current Karachi trading day
// (the last one before the open or at a weekend), so history, quotes, intraday and the market
// clock describe one day. During a session the market watch moves every 10 s, so /stream/quotes
// shows a moving market (src/stream/); after the close it rests, as the exchange does.
const portal = await startFakePortal({ delayMs: 150, tickMs: 10_000, now: Date.now });
const config = loadConfig({
  ...process.env,
  EXCHANGE_BASE_URL: portal.url,
  HOST: process.env.HOST ?? '127.0.0.1',
  CACHE_DIR: process.env.CACHE_DIR ?? './data/demo',
  // Plain TTLs around the clock keep the demo predictable; as_of still follows the timetable.
  CACHE_FOLLOW_MARKET_CLOCK: process.env.CACHE_FOLLOW_MARKET_CLOCK ?? 'false',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // The demo keeps the market (docs/archive.md): /archive/status shows the backfill.
  ARCHIVE: process.env.ARCHIVE ?? 'on',
  // A cached dataset mutated by mistake throws here too (src/cache/immutable.ts).
  CACHE_FREEZE_DATASETS: process.env.CACHE_FREEZE_DATASETS ?? 'true',
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
