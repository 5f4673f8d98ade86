// The HTTP surface: plugins (CORS, rate limit, OpenAPI), routes, and the not-found / wrong-method
// answers. Everything the routes need arrives as dependencies; nothing here fetches or parses.
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { namedSchemas } from '../market/models.ts';
import { healthRoutes } from '../routes/health.ts';
import { indexRoutes } from '../routes/indices.ts';
import { marketRoutes } from '../routes/market.ts';
import { marketStatusRoutes } from '../routes/market-status.ts';
import { sectorRoutes } from '../routes/sectors.ts';
import { stockRoutes } from '../routes/stocks.ts';
import type { RouteDeps } from '../routes/deps.ts';
import type { WindowCounter } from '../exchange/budget.ts';
import type { Readiness } from '../service.ts';
import { HitReplayer } from './hit-replay.ts';
import { createStampingServer, EXPOSED_HEADERS, requestIdOf } from './http-server.ts';
import { registerMetrics, type Metrics } from './metrics.ts';
import { BROTLI_OPTIONS } from './respond.ts';
import { registerDashboard } from './dashboard.ts';
import { registerDocs } from './docs.ts';
import { registerErrorHandling, sendError } from './error-handler.ts';
import { registerRateLimit } from './rate-limit.ts';
import { ErrorEnvelope } from './schemas.ts';

export interface AppOptions {
  deps: RouteDeps;
  rateLimitPerMinute: number;
  trustProxy: boolean;
  logger: FastifyServerOptions['loggerInstance'];
  /** Request counts for the rate limit (shared through Redis when replicas run together). */
  counter: WindowCounter;
  metrics: Metrics;
  /** Answer repeats of fresh cached answers below the router (src/server/hit-replay.ts). */
  hitReplay: boolean;
  readiness: () => Readiness;
  onRateLimited?: () => void;
}

export const API_VERSION = '0.1.0';

const IDLE_SWEEP_MS = 50;

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const replayer = opts.hitReplay
    ? new HitReplayer({
        respond: opts.deps.respond,
        metrics: opts.metrics,
        logger: opts.logger,
        rateLimit:
          opts.rateLimitPerMinute > 0
            ? { perMinute: opts.rateLimitPerMinute, counter: opts.counter, trustProxy: opts.trustProxy }
            : undefined,
      })
    : undefined;
  const app = Fastify({
    loggerInstance: opts.logger,
    trustProxy: opts.trustProxy,
    // A caller's X-Request-Id is kept (and echoed) when it is a sane token; otherwise a new one.
    requestIdHeader: false,
    // The server stamps the id (src/server/http-server.ts); requests that never passed through it
    // (inject) get one here.
    genReqId: requestIdOf,
    serverFactory: (handler, options) => createStampingServer(handler, options, replayer),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
  });
  // While shutting down, a keep-alive connection is closed as soon as its answer in flight is done,
  // so a client's idle socket cannot hold the process open past the graceful window. Node closes
  // only the connections idle at close(); sweeping again until the server has closed catches the
  // rest without any per-request work (Fastify answers new requests 503 meanwhile).
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    replayer?.close();
    sweeper = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });

  registerErrorHandling(app);
  for (const schema of [...namedSchemas, ErrorEnvelope]) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PSX market data',
        version: API_VERSION,
        description:
          'Read-only JSON API over the Pakistan Stock Exchange data portal. Every success is {data, meta}; every error is {error:{status, code, message}}.',
      },
      tags: [
        { name: 'stocks' },
        { name: 'indices' },
        { name: 'sectors' },
        { name: 'market' },
        { name: 'service' },
      ],
    },
    // Components keep their schema $id as name instead of def-0, def-1… (stack-notes).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // Preflights only: the plugin sits in a scope of its own, so its hook runs for its OPTIONS route
  // and for nothing else.
  await app.register(async (scope) => {
    await scope.register(cors, { origin: '*', methods: ['GET', 'HEAD'], exposedHeaders: EXPOSED_HEADERS });
  });

  if (opts.rateLimitPerMinute > 0) {
    await registerRateLimit(app, {
      perMinute: opts.rateLimitPerMinute,
      counter: opts.counter,
      onExceeded: opts.onRateLimited,
    });
  }

  const getPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getPaths.add(route.url);
  });

  await registerMetrics(app, opts.metrics);
  await app.register(healthRoutes, { readiness: opts.readiness });
  await app.register(stockRoutes, opts.deps);
  await app.register(indexRoutes, opts.deps);
  await app.register(sectorRoutes, opts.deps);
  await app.register(marketRoutes, opts.deps);
  await app.register(marketStatusRoutes, opts.deps);
  // Data answers compress themselves (gzip made once per data version, src/server/respond.ts); the
  // documents and the dashboard's files go through @fastify/compress, whose hooks stay off the
  // data routes. Brotli at its default quality 11 would cost ~100× gzip's CPU for a few percent.
  await app.register(async (scope) => {
    await scope.register(compress, {
      threshold: 2048,
      encodings: ['br', 'gzip', 'deflate'],
      brotliOptions: BROTLI_OPTIONS,
      zlibOptions: { level: 6 },
      globalDecompression: false,
    });
    await registerDocs(scope);
    await registerDashboard(scope);
    scope.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, (_req, reply) =>
      reply.send(app.swagger()),
    );
  });

  // Every path answers only GET and HEAD; other methods get 405 with Allow (CORS owns OPTIONS).
  await app.register(async (scope) => {
    for (const url of getPaths) {
      scope.route({
        method: ['POST', 'PUT', 'PATCH', 'DELETE'],
        url,
        schema: { hide: true },
        handler: (_req, reply) => {
          reply.header('allow', 'GET, HEAD');
          return sendError(reply, 405, 'method_not_allowed', 'only GET and HEAD are supported');
        },
      });
    }
  });

  app.setNotFoundHandler(
    { preHandler: opts.rateLimitPerMinute > 0 ? app.rateLimit() : undefined },
    (req, reply) =>
      sendError(reply, 404, 'not_found', `no such endpoint: ${req.method} ${req.url.split('?')[0]}`),
  );

  return app;
}
