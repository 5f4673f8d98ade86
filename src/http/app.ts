// The HTTP surface: the front door every request passes first (front-door.ts), then Fastify
// (app-server.ts) with its plugins (CORS preflights, OpenAPI), routes, and the not-found /
// wrong-method answers. Everything the routes need arrives as dependencies; nothing here fetches
// or parses.
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import type { LiveQuotes } from '../stream/live-quotes.ts';
import { streamRoutes } from './routes/stream.ts';
import { feedRoutes } from './routes/feeds.ts';
import { indicesFamilyRoutes } from './routes/indices/index.ts';
import { marketFamilyRoutes } from './routes/market/index.ts';
import { quoteRoutes } from './routes/quotes.ts';
import { screenerRoutes } from './routes/screener.ts';
import { sectorsFamilyRoutes } from './routes/sectors/index.ts';
import { stocksFamilyRoutes } from './routes/stocks/index.ts';
import { healthRoutes } from './routes/health.ts';
import { archiveRoutes, type ArchiveDeps } from './routes/archive.ts';
import type { RouteDeps } from './routes/deps.ts';
import type { Readiness } from './routes/health.ts';
import type { PageStatus } from '../exchange/page-health.ts';
import type { ClientAddress } from './pipeline/client-address.ts';
import { createFastify } from './app-server.ts';
import { FrontDoor } from './pipeline/front-door.ts';
import { limitRules, uncountedByDefault } from './pipeline/limit-rules.ts';
import { registerMetrics, type Metrics } from './pipeline/metrics.ts';
import { API_VERSION, registerOpenApi } from './openapi/document.ts';
import { registerPreflights } from './pipeline/preflight.ts';
import { BROTLI_OPTIONS } from './pipeline/respond.ts';
import { registerDashboard } from './dashboard.ts';
import { registerDocs } from './openapi/docs.ts';
import { closeConnectionsOnShutdown, Shutdown } from './pipeline/shutdown.ts';
import type { RequestLimit } from '../limits/request-limit.ts';
import { sendError } from './pipeline/error-handler.ts';
import { MethodNotAllowedError, NotFoundError, clientText } from '../errors.ts';
import type { Logger } from 'pino';
import { mcpAccess, type McpAccess } from '../mcp/access.ts';
import type { ToolSet } from '../mcp/tool-kit.ts';
import { lazyDirectToolCall, mcpRoutes, mcpTools } from '../mcp/route.ts';

export { API_VERSION };

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
  /** The exchange client's page states, for GET /health/portal (absent: no such route). */
  portalPages?: () => readonly PageStatus[];
  onRateLimited?: () => void;
  /** Live quotes for GET /stream/quotes (absent: no stream route). */
  live?: LiveQuotes;
  /** POST /mcp's allowed hosts and origins (absent: loopback only). */
  mcpAccess?: McpAccess;
  /** The MCP tools offered (MCP_TOOLS; absent: all). */
  mcpTools?: ToolSet;
  /** The market's archive for the whole-market endpoints (absent: no archive routes). */
  archive?: ArchiveDeps;
  /** The service's shutdown state (absent: the app's own, begun by app.close()). */
  shutdown?: Shutdown;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const limit = opts.requestLimit;
  const shutdown = opts.shutdown ?? new Shutdown();
  // Every request passes the front door first: its id, CORS, the limit, the replay of fresh
  // answers, the access log and the metrics are the door's; Fastify answers what it hands on.
  const door = new FrontDoor({
    logger: opts.logger,
    metrics: opts.metrics,
    limit,
    clientAddress: opts.clientAddress,
    shutdown,
    replay: opts.hitReplay ? (req) => opts.deps.respond.replay(req) : undefined,
    onRateLimited: opts.onRateLimited,
  });
  const app = createFastify(door, opts.logger, opts.clientAddress);
  closeConnectionsOnShutdown(app, shutdown);
  const rules = limitRules(app);
  await registerOpenApi(app);
  await registerPreflights(app);

  // Not API endpoints: the request limit never counts them (the limit's own file says why). Data
  // answers compress themselves (gzip made once per data version, src/http/pipeline/respond.ts); the
  // documents and the dashboard's files go through @fastify/compress, whose hooks stay off the
  // data routes. Brotli at its default quality 11 would cost far more CPU than gzip for a few
  // percent.
  await app.register(async (scope) => {
    uncountedByDefault(scope);
    await registerMetrics(scope, opts.metrics);
    await scope.register(async (compressed) => {
      await compressed.register(compress, {
        threshold: 2048,
        encodings: ['br', 'gzip', 'deflate'],
        brotliOptions: BROTLI_OPTIONS,
        zlibOptions: { level: 6 },
        globalDecompression: false,
      });
      await registerDocs(compressed);
      await registerDashboard(compressed);
      compressed.get('/openapi.json', { schema: { hide: true } }, (_req, reply) => reply.send(app.swagger()));
    });
  });

  // The API endpoints: counted by the request limit, and replayed when they repeat a fresh answer.
  await app.register(healthRoutes, {
    readiness: opts.readiness,
    now: opts.deps.marketClock.now,
    portalPages: opts.portalPages,
  });
  // One plugin per family of URLs (src/http/routes/README.md).
  await app.register(stocksFamilyRoutes, opts.deps);
  await app.register(quoteRoutes, opts.deps);
  if (opts.live) await app.register(streamRoutes, { ...opts.deps, live: opts.live });
  await app.register(indicesFamilyRoutes, opts.deps);
  await app.register(sectorsFamilyRoutes, opts.deps);
  await app.register(screenerRoutes, opts.deps);
  await app.register(marketFamilyRoutes, opts.deps);
  await app.register(feedRoutes, opts.deps);
  if (opts.archive) await app.register(archiveRoutes, { ...opts.deps, ...opts.archive });

  // Every path answers only GET and HEAD; other methods get 405 with Allow (CORS owns OPTIONS).
  const getPaths = rules.getPaths();
  await app.register((scope) => {
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
  // A cached tools/call is answered by the front door, as a repeated GET is replayed.
  const tools = mcpTools(opts.deps, opts.archive, opts.mcpTools);
  const access = opts.mcpAccess ?? mcpAccess('', [], []);
  if (opts.hitReplay) {
    door.answerBodies(
      '/mcp',
      lazyDirectToolCall({
        tools,
        limit,
        clientAddress: opts.clientAddress,
        access,
        logger: opts.logger,
        onRateLimited: opts.onRateLimited,
      }),
    );
  }
  await app.register(mcpRoutes, {
    deps: opts.deps,
    tools,
    limit,
    clientAddress: opts.clientAddress,
    access,
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
  rules.apply(door);

  return app;
}
