// The HTTP surface: plugins (CORS, request limit, OpenAPI), routes, and the not-found / wrong-method
// answers. Everything the routes need arrives as dependencies; nothing here fetches or parses.
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type onRequestHookHandler } from 'fastify';
import { namedSchemas } from '../market/models.ts';
import { healthRoutes } from './routes/health.ts';
import { indexRoutes } from './routes/indices.ts';
import { marketRoutes } from './routes/market.ts';
import { sectorRoutes } from './routes/sectors.ts';
import { stockRoutes } from './routes/stocks.ts';
import type { RouteDeps } from './routes/deps.ts';
import type { Readiness } from './routes/health.ts';
import { EXPOSED_HEADERS, requestIdOf, stampCommonHeaders } from './common-headers.ts';
import { registerMetrics, type Metrics } from './metrics.ts';
import { BROTLI_OPTIONS, type Responder } from './respond.ts';
import { registerDashboard } from './dashboard.ts';
import { registerDocs } from './docs.ts';
import { registerErrorHandling, sendError } from './error-handler.ts';
import { enforceRequestLimit, type RequestLimit } from '../limits/request-limit.ts';
import { ErrorEnvelope } from './schemas.ts';

export interface AppOptions {
  deps: RouteDeps;
  /** The request limit (off when its `perMinute` is 0). */
  requestLimit: RequestLimit;
  trustProxy: boolean;
  logger: FastifyServerOptions['loggerInstance'];
  metrics: Metrics;
  /** Repeats of fresh cached answers get the responder's prepared bytes (see registerReplay). */
  hitReplay: boolean;
  readiness: () => Readiness;
  onRateLimited?: () => void;
}

export const API_VERSION = '0.1.0';

const IDLE_SWEEP_MS = 50;

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger,
    trustProxy: opts.trustProxy,
    // A caller's X-Request-Id is kept (and echoed) when it is a sane token; otherwise a new one.
    requestIdHeader: false,
    genReqId: requestIdOf,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
  });
  // While shutting down, a keep-alive connection is closed as soon as its answer in flight is done,
  // so a client's idle socket cannot hold the process open past the graceful window. Node closes
  // only the connections idle at close(); sweeping again until the server has closed catches the
  // rest without any per-request work (Fastify answers new requests 503 meanwhile).
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    sweeper = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });

  app.addHook('onRequest', stampCommonHeaders);
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

  const getPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getPaths.add(route.url);
  });

  // Not API endpoints, registered before the request limit so that it never counts them (the
  // limit's own file says why). Data answers compress themselves (gzip made once per data
  // version, src/http/respond.ts); the documents and the dashboard's files go through
  // @fastify/compress, whose hooks stay off the data routes. Brotli at its default quality 11
  // would cost far more CPU than gzip for a few percent.
  await registerMetrics(app, opts.metrics);
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
    scope.get('/openapi.json', { schema: { hide: true } }, (_req, reply) => reply.send(app.swagger()));
  });

  // Every route registered from here on is an API endpoint: counted by the request limit, and
  // replayed when it repeats a fresh answer.
  const limit = opts.requestLimit;
  if (limit.enabled) await enforceRequestLimit(app, limit, opts.onRateLimited);
  if (opts.hitReplay) registerReplay(app, opts.deps.respond);

  await app.register(healthRoutes, { readiness: opts.readiness });
  await app.register(stockRoutes, opts.deps);
  await app.register(indexRoutes, opts.deps);
  await app.register(sectorRoutes, opts.deps);
  await app.register(marketRoutes, opts.deps);

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

  app.setNotFoundHandler({ preHandler: limit.enabled ? app.rateLimit() : undefined }, (req, reply) =>
    sendError(reply, 404, 'not_found', `no such endpoint: ${req.method} ${req.url.split('?')[0]}`),
  );

  return app;
}

/**
 * A GET that repeats a URL whose answer is still fresh gets the responder's prepared bytes from an
 * onRequest hook of its route, after every hook before it (the request limit among them) and
 * before validation and the handler: a repeat of an answered URL validates the same and reads the
 * same fresh datasets, so it would get the same view. The request is Fastify's like any other:
 * its id, CORS headers, limit, access log, metrics and error handling are the ones every request
 * gets. Cold requests are not held here; concurrent misses share the cache's single flight.
 */
function registerReplay(app: FastifyInstance, respond: Responder): void {
  const replayHook: onRequestHookHandler = (req, reply, done) => {
    const replay = req.method === 'GET' ? respond.replay(req) : undefined;
    if (replay === undefined) return done();
    req.log.debug('replayed a fresh answer');
    reply.headers(replay.headers).send(replay.body);
  };
  // A route's own onRequest hooks run after the app's: appending the replay to each route's
  // list, as @fastify/rate-limit adds its check (registered before this), keeps the check first.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    const own =
      route.onRequest === undefined
        ? []
        : Array.isArray(route.onRequest)
          ? route.onRequest
          : [route.onRequest];
    route.onRequest = [...own, replayHook];
  });
}
