// Composition root: builds the exchange client, cache, market datasets and HTTP app from a Config.
import type { FastifyInstance } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { DatasetCache } from './cache/dataset-cache.ts';
import { SqliteStore } from './cache/sqlite-store.ts';
import { MemoryWindowCounter, PortalBudget } from './exchange/budget.ts';
import { marketClockPolicy } from './cache/freshness.ts';
import type { Config } from './config.ts';
import { ExchangeClient } from './exchange/client.ts';
import { Datasets } from './market/datasets.ts';
import { buildApp } from './server/app.ts';
import { contextBuilder, passthroughDisabled } from './server/request-context.ts';
import { createResponder } from './server/respond.ts';
import { proxyPassthrough, type PassthroughOptions } from './server/proxy-gate.ts';

export interface Service {
  app: FastifyInstance;
  store: SqliteStore;
  client: ExchangeClient;
  datasets: Datasets;
  close(): Promise<void>;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    // Caller proxies may carry credentials; they never reach the logs.
    redact: {
      paths: ['req.headers["x-exchange-proxy"]', 'req.headers["x-psx-proxy"]', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Seams for tests; production passes none. */
export interface ServiceOverrides {
  /** The proxy passthrough's address policy and resolver (tests allow loopback this way, never config). */
  passthrough?: PassthroughOptions;
}

export async function createService(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  overrides: ServiceOverrides = {},
): Promise<Service> {
  const client = new ExchangeClient({
    baseUrl: config.exchangeBaseUrl,
    ...config.exchange,
    onTokenRefresh: (scope, ok) => logger.debug({ scope, ok }, 'exchange token refreshed'),
  });
  const store = new SqliteStore(config.cache.dir, logger);
  const memoryBytes = config.cache.memoryMb * 1024 * 1024;
  const cache = new DatasetCache({
    memoryBytes: Math.floor(memoryBytes * 0.75),
    staleWhileRevalidateMs: config.cache.staleWhileRevalidateSec * 1000,
    tier: store,
    onBackgroundError: (key, err) => logger.warn({ key, err }, 'background refresh failed'),
  });
  const budget = new PortalBudget(
    new MemoryWindowCounter(),
    {
      perIp: config.budget.fetchesPerIpPerMinute,
      global: config.budget.fetchesGlobalPerMinute,
      proxyPerIp: config.proxy.fetchesPerIpPerMinute,
      proxyMaxInFlight: config.proxy.maxInFlight,
    },
    (scope) => logger.info({ scope }, 'exchange budget refused a fetch'),
  );
  const datasets = new Datasets({
    cache,
    client,
    budget,
    logger,
    freshness: marketClockPolicy({
      followMarketClock: config.cache.followMarketClock,
      intradayTtlSec: config.cache.intradayTtlSec,
      historyTtlSec: config.cache.historyTtlSec,
      reportsTtlSec: config.cache.reportsTtlSec,
    }),
  });
  const app = await buildApp({
    deps: {
      datasets,
      respond: createResponder(Math.floor(memoryBytes * 0.25)),
      contextOf: contextBuilder(
        config.proxy.passthrough ? proxyPassthrough(overrides.passthrough) : passthroughDisabled,
      ),
    },
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxy: config.trustProxy,
    logger,
  });
  return {
    app,
    store,
    client,
    datasets,
    async close() {
      await app.close();
      await client.close();
      store.close();
    },
  };
}
