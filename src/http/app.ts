// The HTTP surface: the front door every request passes first (front-door.ts), then Fastify's
// plugins (CORS preflights, OpenAPI), routes, and the not-found / wrong-method answers. Everything
// the routes need arrives as dependencies; nothing here fetches or parses.
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { companySchemas, namedSchemas } from '../market/models.ts';
import { liveSchemas } from '../market/models-intraday.ts';
import { feedSchemas } from '../market/models-feeds.ts';
import { feedRoutes } from './routes/feeds.ts';
import { analyticsSchemas } from '../market/models-analytics.ts';
import type { LiveQuotes } from '../stream/live-quotes.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { boardRoutes } from './routes/board.ts';
import { intradayRoutes } from './routes/intraday.ts';
import { streamRoutes } from './routes/stream.ts';
import { companyRoutes } from './routes/company.ts';
import { corporateActionRoutes } from './routes/corporate-actions.ts';
import { healthRoutes } from './routes/health.ts';
import { marketStatusRoutes } from './routes/market-status.ts';
import { indexRoutes } from './routes/indices.ts';
import { marketRoutes } from './routes/market.ts';
import { overviewRoutes } from './routes/overview.ts';
import { overviewSchemas } from '../market/models-overview.ts';
import { sectorRoutes } from './routes/sectors.ts';
import { stockRoutes } from './routes/stocks.ts';
import { archiveRoutes, archiveSchemas, type ArchiveDeps } from './routes/archive.ts';
import type { RouteDeps } from './routes/deps.ts';
import type { Readiness } from './routes/health.ts';
import { EXPOSED_HEADERS, requestIdOf } from './common-headers.ts';
import type { ClientAddress } from './client-address.ts';
import { FrontDoor, answeredBy } from './front-door.ts';
import { registerMetrics, type Metrics } from './metrics.ts';
import { BROTLI_OPTIONS } from './respond.ts';
import { registerDashboard } from './dashboard.ts';
import { registerDocs } from './docs.ts';
import type { RequestLimit } from '../limits/request-limit.ts';
import { frameworkErrors, registerErrorHandling, sendError } from './error-handler.ts';
import { BadRequestError, MethodNotAllowedError, NotFoundError, clientText } from '../errors.ts';
import { clientErrorHandler } from './raw-errors.ts';
import { ErrorEnvelope } from './schemas.ts';
import type { Logger } from 'pino';
import { mcpAccess, type McpAccess } from '../mcp/access.ts';
import { mcpRoutes } from '../mcp/route.ts';

export interface AppOptions {
  deps: RouteDeps;
  /** The request limit (off when its `perMinute` is 0). */
  requestLimit: RequestLimit;
  clientAddress: ClientAddress;
  logger: Logger;
  metrics: Metrics;
  /** Repeats of fresh cached answers get the responder's prepared bytes (front-door.ts). */
  hitReplay: boolean;
  readiness: () => Readiness;
  onRateLimited?: () => void;
  /** Live quotes for GET /stream/quotes (absent: no stream route). */
  live?: LiveQuotes;
  /** POST /mcp's allowed hosts and origins (absent: loopback only). */
  mcpAccess?: McpAccess;
  /** The market's archive for the whole-market endpoints (absent: no archive routes). */
  archive?: ArchiveDeps;
}

export const API_VERSION = '0.1.0';

// The project's licence (LICENSE), as an SPDX identifier (OpenAPI 3.1).
const OPENAPI_LICENSE = { name: 'MIT', identifier: 'MIT' };
const OPENAPI_CONTACT = { name: 'PSX market data maintainers' };

const IDLE_SWEEP_MS = 50;

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const limit = opts.requestLimit;
  // Every request passes the front door first: its id, CORS, the limit, the replay of fresh
  // answers, the access log and the metrics are the door's; Fastify answers what it hands on.
  const door = new FrontDoor({
    logger: opts.logger,
    metrics: opts.metrics,
    limit,
    clientAddress: opts.clientAddress,
    replay: opts.hitReplay ? (req) => opts.deps.respond.replay(req) : undefined,
    onRateLimited: opts.onRateLimited,
  });
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    // The access log line is the front door's, one per request.
    logController: new LogController({ disableRequestLogging: true }),
    serverFactory: (handler, options) => {
      door.behind(handler);
      // What Fastify does with a server of its own (lib/server.js): its timeouts, on this one.
      const timeouts = options as {
        keepAliveTimeout: number;
        requestTimeout: number;
        connectionTimeout: number;
      };
      const server = createServer(door.handle);
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      return server;
    },
    trustProxy: opts.clientAddress.trust,
    requestIdHeader: false,
    genReqId: requestIdOf,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
    // Every failure in the envelope, including the router's own and Node's HTTP parser's.
    frameworkErrors,
    clientErrorHandler,
    // Each path parameter's schema (its maxLength) decides how long it may be, not the router's
    // default of 100; beyond this the router still refuses, with the same 422.
    routerOptions: { maxParamLength: 1000 },
    // Fastify's own closing answer has a body of its own shape; the hook below answers in the
    // envelope instead (and with the request id and CORS headers every answer carries).
    return503OnClosing: false,
  });
  // While shutting down, a keep-alive connection is closed as soon as its answer in flight is done,
  // so a client's idle socket cannot hold the process open past the graceful window. Node closes
  // only the connections idle at close(); sweeping again until the server has closed catches the
  // rest without any per-request work (Fastify answers new requests 503 meanwhile).
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    door.closing = true;
    sweeper = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });

  // The route that answers names itself to the front door (its metrics label); the 404 handler has
  // no template and leaves the door's own label.
  app.addHook('onRequest', (req, reply, done) => {
    const route = req.routeOptions.url;
    if (route !== undefined) answeredBy(reply.raw, route);
    done();
  });
  registerErrorHandling(app);
  // Every answer leaves as bytes made by the responder or the error handler, so the response
  // schemas are documentation only: compiling a fast-json-stringify serializer for each of them
  // would cost start-up time and memory for code that never runs.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of [
    ...namedSchemas,
    ...companySchemas,
    ...liveSchemas,
    ...overviewSchemas,
    ...feedSchemas,
    ...archiveSchemas,
    ErrorEnvelope,
  ])
    app.addSchema(schema);
  for (const schema of analyticsSchemas) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PSX market data',
        version: API_VERSION,
        description:
          'Read-only JSON API over the Pakistan Stock Exchange data portal. Every success is {data, meta}; every error is {error:{status, code, message}}. Other methods than GET and HEAD answer 405 method_not_allowed with Allow; an OPTIONS without Access-Control-Request-Method answers 400 (a CORS preflight answers 204). The same data is served to agents over the Model Context Protocol at POST /mcp (Streamable HTTP, JSON-RPC 2.0, stateless; tools, resources and a prompt), which this document does not describe: see the README, section Agents (MCP).',
        license: OPENAPI_LICENSE,
        contact: OPENAPI_CONTACT,
      },
      // Relative: the document describes whichever server serves it.
      servers: [{ url: '/', description: 'the server that serves this document' }],
      // Public by design (spec: Authentication): no scheme, no credentials.
      security: [],
      tags: [
        { name: 'stocks', description: 'listed symbols, quotes, daily history and filed reports' },
        { name: 'indices', description: 'index levels and index constituents' },
        { name: 'sectors', description: 'sector summary and sector members' },
        { name: 'market', description: 'the screener table and the market summary' },
        { name: 'service', description: 'liveness and readiness' },
      ],
    },
    // Components keep their schema $id as name instead of def-0, def-1… (stack-notes).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // Preflights only: the plugin sits in a scope of its own, so its hook runs for its OPTIONS route
  // and for nothing else.
  // An OPTIONS without Access-Control-Request-Method is not a preflight: it gets the envelope, not
  // the plugin's text/plain (its strict check is off so that this hook, added first, decides).
  await app.register(async (scope) => {
    scope.addHook('onRequest', (req, reply, done) => {
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined) {
        reply.header('allow', 'GET, HEAD, OPTIONS');
        void sendError(
          reply,
          new BadRequestError(
            'OPTIONS is answered only as a CORS preflight (with Access-Control-Request-Method); this API takes GET and HEAD',
          ),
        );
        return;
      }
      done();
    });
    await scope.register(cors, {
      origin: '*',
      methods: ['GET', 'HEAD'],
      exposedHeaders: EXPOSED_HEADERS,
      strictPreflight: false,
    });
  });

  const getPaths = new Set<string>();
  // Routes registered before the API endpoints (below) are not counted by the request limit.
  let api = false;
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getPaths.add(route.url);
    if (!api) door.exempt(route.url);
  });

  // Not API endpoints, registered before them so that the request limit never counts them (the
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
  // replayed when it repeats a fresh answer. So is any path no route matches.
  api = true;

  await app.register(healthRoutes, { readiness: opts.readiness });
  await app.register(stockRoutes, opts.deps);
  await app.register(companyRoutes, opts.deps);
  await app.register(corporateActionRoutes, opts.deps);
  await app.register(intradayRoutes, opts.deps);
  await app.register(boardRoutes, opts.deps);
  await app.register(marketStatusRoutes, opts.deps);
  if (opts.live) await app.register(streamRoutes, { ...opts.deps, live: opts.live });
  await app.register(indexRoutes, opts.deps);
  await app.register(sectorRoutes, opts.deps);
  await app.register(marketRoutes, opts.deps);
  await app.register(feedRoutes, opts.deps);
  await app.register(analyticsRoutes, opts.deps);
  await app.register(overviewRoutes, opts.deps);
  if (opts.archive) await app.register(archiveRoutes, { ...opts.deps, ...opts.archive });

  // Every path answers only GET and HEAD; other methods get 405 with Allow (CORS owns OPTIONS).
  await app.register(async (scope) => {
    for (const url of getPaths) {
      scope.route({
        method: ['POST', 'PUT', 'PATCH', 'DELETE'],
        url,
        schema: { hide: true },
        handler: (_req, reply) => {
          reply.header('allow', 'GET, HEAD');
          return sendError(reply, new MethodNotAllowedError());
        },
      });
    }
  });

  // The Model Context Protocol over HTTP; after the 405 routes above, which it answers itself.
  door.countedBy('/mcp');
  await app.register(mcpRoutes, {
    deps: opts.deps,
    archive: opts.archive,
    limit,
    clientAddress: opts.clientAddress,
    access: opts.mcpAccess ?? mcpAccess('', [], []),
    version: API_VERSION,
    openapi: () => app.swagger(),
    onRateLimited: opts.onRateLimited,
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(
      reply,
      new NotFoundError(`no such endpoint: ${req.method} ${clientText(req.url.split('?')[0] ?? '', 64)}`),
    ),
  );

  return app;
}
