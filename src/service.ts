// Composition root: builds the exchange client, cache tiers, limits, market datasets and the HTTP
// app from a Config, and owns their lifecycle (readiness, graceful close).
import type { FastifyInstance } from 'fastify';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { DatasetCache } from './cache/dataset-cache.ts';
import { flushedAtWarn, stdoutDestination } from './log-destination.ts';
import { marketClockPolicy } from './cache/freshness.ts';
import { RedisWindowCounter } from './limits/redis-window-counter.ts';
import { RedisTier } from './cache/redis-tier.ts';
import { SqliteStore } from './cache/sqlite-store.ts';
import type { Config } from './config.ts';
import { warmUpParsers } from './exchange/parsers/warm-up.ts';
import { compactHeap, compactWhenIdle } from './compact-heap.ts';
import { PortalBudget } from './limits/portal-budget.ts';
import { RequestLimit } from './limits/request-limit.ts';
import { MemoryWindowCounter, type WindowCounter } from './limits/window-counter.ts';
import { ExchangeClient } from './exchange/client.ts';
import { Datasets } from './market/datasets.ts';
import { buildApp } from './http/app.ts';
import { Shutdown } from './http/pipeline/shutdown.ts';
import { mcpAccess } from './mcp/access.ts';
import type { Readiness } from './http/routes/health.ts';
import { Metrics } from './http/pipeline/metrics.ts';
import type { PassthroughOptions } from './http/pipeline/proxy-gate.ts';
import { ClientAddress } from './http/pipeline/client-address.ts';
import { contextBuilder, passthroughDisabled } from './http/pipeline/request-context.ts';
import { createResponder } from './http/pipeline/respond.ts';
import { LiveQuotes } from './stream/live-quotes.ts';
import { openArchive } from './archive/open.ts';
import { karachiDate } from './time/market-clock.ts';
import { observeAnalyses } from './market/corporate-actions/corporate-actions.ts';
import type { MemberSeriesSource } from './market/analytics/member-series.ts';
import { MarketArchive } from './market/archive/archive.ts';
import type { Archiver } from './archiver/archiver.ts';
import { ArchiveMetrics } from './archiver/metrics.ts';
import type { RedisLink } from './cache/redis-link.ts';

export interface Service {
  app: FastifyInstance;
  store: SqliteStore;
  client: ExchangeClient;
  datasets: Datasets;
  metrics: Metrics;
  /** Open quote streams and their poller (GET /stream/quotes). */
  live: LiveQuotes;
  /** The market's archive (docs/archive.md), and its archiver when ARCHIVE is on. */
  archive: MarketArchive;
  archiver: Archiver | undefined;
  readiness(): Readiness;
  /**
   * Once listening (main.ts calls it): warms the parsers (PARSER_WARM_UP), compacts the heap, and from then on compacts it whenever the service falls idle after a busy spell.
   * After, not before, listening: the warm-up is done long before a cold request's portal page
   * arrives, and start-up is not made longer for it.
   */
  warmUp(): void;
  /** Stops accepting, lets in-flight requests finish, then closes the store and Redis. */
  close(): Promise<void>;
}

/** A logger writing to `destination`, by default standard output, buffered (src/log-destination.ts). */
export function createLogger(level: string, destination: DestinationStream = stdoutDestination()): Logger {
  const options: LoggerOptions = {
    level,
    // Caller proxies may carry credentials; they never reach the logs.
    redact: {
      paths: ['req.headers["x-exchange-proxy"]', 'req.headers["x-psx-proxy"]', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  return pino(options, flushedAtWarn(destination));
}

/** Seams for tests; production passes none. */
export interface ServiceOverrides {
  /** The proxy passthrough's address policy and resolver (tests allow loopback this way, never config). */
  passthrough?: PassthroughOptions;
  /**
   * The clock (epoch ms) of the whole service: fetch times and so freshness, the cache, the token's
   * age, the limits' windows, and the responses' timestamp, Age and max-age.
   */
  now?: () => number;
}

export async function createService(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  overrides: ServiceOverrides = {},
): Promise<Service> {
  const now = overrides.now ?? Date.now;
  const metrics = new Metrics();
  const client = exchangeClient(config, metrics, now, logger);
  metrics.watchPages(client.health);

  // The Redis client and the proxy dialers are loaded only when configured: start-up time and
  // memory are paid for what a deployment uses.
  const redis = config.redisUrl
    ? new (await import('./cache/redis-link.ts')).RedisLink({
        url: config.redisUrl,
        logger,
        commandTimeoutMs: config.redisTimeoutMs,
        onError: () => metrics.redisErrors.inc(),
        now,
      })
    : undefined;
  const counter: WindowCounter = redis ? new RedisWindowCounter(redis, now) : new MemoryWindowCounter(now);

  const store = new SqliteStore(config.cache.dir, now, logger);
  const memoryBytes = config.cache.memoryMb * 1024 * 1024;
  const cache = datasetCache(config, { memoryBytes, store, redis, metrics, logger, now });
  const datasets = new Datasets({
    cache,
    client,
    budget: portalBudget(config, counter, metrics),
    logger,
    now,
    onSectionMissing: (section) => metrics.sectionsMissing.inc({ section }),
    // Every company payouts page read is kept (the portal forgets rows after about 17 months).
    onPayouts: (symbol, rows) => archive.keepCompanyPayouts(symbol, rows),
    freshness: marketClockPolicy({
      followMarketClock: config.cache.followMarketClock,
      intradayTtlSec: config.cache.intradayTtlSec,
      historyTtlSec: config.cache.historyTtlSec,
      reportsTtlSec: config.cache.reportsTtlSec,
    }),
  });

  const archiveMetrics = new ArchiveMetrics(metrics.registry);
  const archive = new MarketArchive({
    store: await openArchive({ databaseUrl: config.archive.databaseUrl, dir: config.cache.dir }),
    logger,
    onDisagreements: (n) => archiveMetrics.disagreements.inc(n),
    onRowsWritten: (n) => archiveMetrics.rowsWritten.inc(n),
  });
  const archiving = config.archive.enabled
    ? await startArchiving(config, { archive, archiveMetrics, datasets, redis, logger, now })
    : undefined;
  const live = liveQuotes(config, { datasets, redis, metrics, logger, archive, now });

  const archivePing = pingSharedArchive(archive, archiveMetrics);
  const archiver = archiving?.archiver;

  const shutdown = new Shutdown();
  const readiness = readinessOf(store, redis, archive, shutdown);

  const clientAddress = new ClientAddress(config.trustProxy);
  const respond = createResponder(Math.floor(memoryBytes * 0.25), now, () => cache.revision);
  const app = await buildApp({
    deps: {
      datasets,
      respond,
      marketClock: { followMarketClock: config.cache.followMarketClock, now },
      archive,
      memberSeries: archiving?.memberSeries,
      contextOf: contextBuilder(
        clientAddress,
        config.proxy.passthrough
          ? (await import('./http/pipeline/proxy-gate.ts')).proxyPassthrough(overrides.passthrough)
          : passthroughDisabled,
      ),
    },
    requestLimit: new RequestLimit(config.rateLimitPerMinute, counter),
    clientAddress,
    logger,
    metrics,
    hitReplay: config.hitReplay,
    readiness,
    portalPages: () => client.health.all(),
    onRateLimited: () => metrics.rejections.inc({ limit: 'request_rate' }),
    live,
    mcpAccess: mcpAccess(config.host, config.mcp.allowedHosts, config.mcp.allowedOrigins),
    mcpTools: config.mcp.tools,
    archive: { archive, archiver, now },
    shutdown,
  });

  // Connecting overlapped everything above; a replica that listened before its link is up would
  // answer its first requests unshared (its own portal fetches, limits counted alone).
  if (redis && config.redisStartWaitMs > 0 && !(await redis.ready(config.redisStartWaitMs))) {
    logger.warn(
      { waitedMs: config.redisStartWaitMs },
      'redis not ready at start; serving from local tiers and limits until it is',
    );
  }

  archiver?.start();
  let stopCompacting: (() => void) | undefined;

  return {
    app,
    store,
    client,
    datasets,
    metrics,
    live,
    archive,
    archiver,
    readiness,
    warmUp() {
      if (config.parserWarmUp) {
        const { pages, ms } = warmUpParsers();
        logger.info({ pages, ms: Math.round(ms) }, 'parsers warmed up');
      }
      compactHeap();
      stopCompacting ??= compactWhenIdle({
        // The serialised answers are remade from the cached datasets in milliseconds; the
        // datasets themselves (a portal fetch each) are kept.
        beforeCompact: () => respond.release(),
        onCompact: (before, after) =>
          logger.debug(
            { rssMb: Math.round(before / 2 ** 20), afterMb: Math.round(after / 2 ** 20) },
            'heap compacted while idle',
          ),
      });
    },
    async close() {
      shutdown.begin();
      stopCompacting?.();
      // Streams never finish on their own: they end first (a final comment each), so the server's
      // graceful close only waits for ordinary requests.
      await live.close();
      clearInterval(archivePing);
      await archiver?.stop();
      await app.close();
      await client.close();
      store.close();
      await archive.close();
      await redis?.close();
    },
  };
}

/**
 * A shared store can go away on its own: looked at now and then, so readiness tells the truth even
 * while nobody reads it. Nothing to look at for the local SQLite archive.
 */
function pingSharedArchive(archive: MarketArchive, metrics: ArchiveMetrics): NodeJS.Timeout | undefined {
  if (archive.backend !== 'postgres') return undefined;
  const ping = setInterval(
    () => void archive.check().then((ok) => metrics.available.set(ok ? 1 : 0)),
    10_000,
  );
  ping.unref();
  return ping;
}

function readinessOf(
  store: SqliteStore,
  redis: RedisLink | undefined,
  archive: MarketArchive,
  shutdown: Shutdown,
): () => Readiness {
  return () => {
    const shuttingDown = shutdown.begun;
    const storeOk = store.isHealthy();
    return {
      // Losing Redis costs sharing, not availability: a replica without it stays in rotation.
      ready: storeOk && !shuttingDown,
      store: storeOk ? 'ok' : 'failing',
      redis: redis ? (redis.available ? 'ok' : 'degraded') : 'disabled',
      archive: archive.available ? 'ok' : 'unavailable',
      shuttingDown,
    };
  };
}

function exchangeClient(config: Config, metrics: Metrics, now: () => number, logger: Logger): ExchangeClient {
  return new ExchangeClient({
    baseUrl: config.exchangeBaseUrl,
    ...config.exchange,
    now,
    onFetch: (page, outcome, ms) => {
      metrics.portalFetches.inc({ page, outcome });
      metrics.portalLatency.observe({ page }, ms / 1000);
    },
    onTokenRefresh: (_scope, ok) => metrics.tokenRefreshes.inc({ outcome: ok ? 'ok' : 'failed' }),
    onPageState: ({ previous, current }) =>
      logger.warn(
        {
          page: current.page,
          state: current.state,
          previous: previous.state,
          missing_fields: current.missingFields,
          detail: current.detail,
        },
        `portal page ${current.page} is ${current.state} (was ${previous.state})`,
      ),
  });
}

interface CacheParts {
  memoryBytes: number;
  store: SqliteStore;
  redis: RedisLink | undefined;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
}

/** The dataset cache's tiers: memory (three quarters of CACHE_MEMORY_MB), the store, Redis. */
function datasetCache(config: Config, parts: CacheParts): DatasetCache {
  const { redis, metrics, logger, now } = parts;
  return new DatasetCache({
    memoryBytes: Math.floor(parts.memoryBytes * 0.75),
    now,
    staleWhileRevalidateMs: config.cache.staleWhileRevalidateSec * 1000,
    freezeDatasets: config.cache.freezeDatasets,
    tier: parts.store,
    shared: redis
      ? new RedisTier(redis, {
          staleMaxMs: config.cache.staleMaxSec * 1000,
          // A fetch can take three tries of the request timeout; the lease must outlive them.
          leaseMs: config.exchange.requestTimeoutMs * (config.exchange.maxRetries + 1) + 5_000,
          onWait: () => metrics.flightWaits.inc({ scope: 'cluster' }),
          now,
        })
      : undefined,
    onRead: (_key, state, tier) => metrics.countCacheRead(state, tier),
    onFlightWait: () => metrics.flightWaits.inc({ scope: 'local' }),
    onBackgroundError: (key, err) => logger.warn({ key, err }, 'background refresh failed'),
  });
}

function portalBudget(config: Config, counter: WindowCounter, metrics: Metrics): PortalBudget {
  return new PortalBudget(
    counter,
    {
      perIp: config.budget.fetchesPerIpPerMinute,
      global: config.budget.fetchesGlobalPerMinute,
      interactiveReserve: Math.floor(
        config.budget.fetchesGlobalPerMinute * config.budget.interactiveReserveShare,
      ),
      proxyPerIp: config.proxy.fetchesPerIpPerMinute,
      proxyMaxInFlight: config.proxy.maxInFlight,
    },
    (scope) => metrics.rejections.inc({ limit: `budget_${scope.replace(/-/g, '_')}` }),
  );
}

interface ArchivingParts {
  archive: MarketArchive;
  archiveMetrics: ArchiveMetrics;
  datasets: Datasets;
  redis: RedisLink | undefined;
  logger: Logger;
  now: () => number;
}

/**
 * ARCHIVE=on: the archiver (not yet started), and rankings' member series read from the archive.
 * Its modules are loaded only then: a deployment without it does not pay for them at start.
 */
async function startArchiving(
  config: Config,
  parts: ArchivingParts,
): Promise<{ archiver: Archiver; memberSeries: MemberSeriesSource }> {
  const { archive, archiveMetrics, datasets, redis, logger, now } = parts;
  const [{ Archiver }, { RedisLease, soleLease }, { archiveMemberSource }, { historySource }] =
    await Promise.all([
      import('./archiver/archiver.ts'),
      import('./archiver/lease.ts'),
      import('./market/whole-market/member-series.ts'),
      import('./market/analytics/member-series.ts'),
    ]);
  // Every corporate-actions analysis the service makes is kept, so the archive's adjusted bars
  // follow what the symbols' own adjusted histories apply.
  observeAnalyses(datasets, (symbol, raw, analysis) => {
    void archive.recordAdjustment(symbol, raw, analysis, now()).catch((err: unknown) => {
      logger.warn({ err, symbol }, 'corporate actions not archived');
    });
  });
  const globalBudget = config.budget.fetchesGlobalPerMinute;
  const perIp = config.budget.fetchesPerIpPerMinute;
  const archiver = new Archiver({
    archive,
    datasets,
    lease: redis ? new RedisLease(redis, 30_000) : soleLease,
    // Its share of the global budget; its fetches also count as one client of the per-IP limit.
    perMinute: Math.max(
      1,
      Math.min(
        globalBudget > 0
          ? Math.floor(globalBudget * config.archive.budgetShare)
          : config.archive.fetchesPerMinuteUnlimited,
        perIp > 0 ? perIp : Number.POSITIVE_INFINITY,
      ),
    ),
    progressEvery: config.archive.progressEvery,
    backoffMs: config.archive.backoffMs,
    maxBackoffMs: config.archive.maxBackoffMs,
    idleMs: config.archive.idleMs,
    filesFrom: config.archive.filesFrom,
    now,
    logger,
    onFetch: (outcome) => archiveMetrics.fetches.inc({ outcome }),
    onProgress: (done, total) => {
      archiveMetrics.symbolsDone.set(done);
      archiveMetrics.symbolsTotal.set(total);
    },
    onBackoff: () => archiveMetrics.backoffs.inc(),
  });
  // Rankings read members' adjusted closes from the archive.
  return { archiver, memberSeries: archiveMemberSource(archive, historySource(datasets), now) };
}

interface LiveParts {
  datasets: Datasets;
  redis: RedisLink | undefined;
  metrics: Metrics;
  logger: Logger;
  archive: MarketArchive;
  now: () => number;
}

function liveQuotes(config: Config, parts: LiveParts): LiveQuotes {
  const { metrics, logger, archive } = parts;
  return new LiveQuotes({
    datasets: parts.datasets,
    redis: parts.redis,
    pollSeconds: config.stream.pollSeconds,
    heartbeatSeconds: config.stream.heartbeatSeconds,
    maxPerIp: config.stream.maxPerIp,
    followMarketClock: config.cache.followMarketClock,
    logger,
    // With the archiver on, every market watch the poller sees is kept (a day's intraday record).
    onBoard: config.archive.enabled
      ? (board, at) =>
          void archive.recordSnapshot(karachiDate(at), at, board).catch((err: unknown) => {
            logger.warn({ err }, 'market-watch snapshot not archived');
          })
      : undefined,
    metrics: {
      onOpenChange: (open) => metrics.streamsOpen.set(open),
      onEvents: (count) => metrics.streamEvents.inc(count),
      onDrop: (reason) => metrics.streamDrops.inc({ reason }),
      onPoll: (outcome) => metrics.streamPolls.inc({ outcome }),
    },
  });
}
