// Fastify behind the front door: the server is the door's (Fastify's serverFactory), with the
// timeouts Fastify would give a server of its own; every failure answered in the envelope; the
// route that answers named to the door for its metrics label.
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ClientAddress } from './pipeline/client-address.ts';
import { requestIdOf } from './pipeline/common-headers.ts';
import { frameworkErrors, registerErrorHandling } from './pipeline/error-handler.ts';
import { answeredBy, type FrontDoor } from './pipeline/front-door.ts';
import { clientErrorHandler } from './pipeline/raw-errors.ts';

export function createFastify(
  door: FrontDoor,
  logger: Logger,
  clientAddress: ClientAddress,
): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
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
    trustProxy: clientAddress.trust,
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

  // The route that answers names itself to the front door (its metrics label); the 404 handler has
  // no template and leaves the door's own label.
  app.addHook('onRequest', (req, reply, done) => {
    const route = req.routeOptions.url;
    if (route !== undefined) answeredBy(reply.raw, route);
    done();
  });
  registerErrorHandling(app);

  return app;
}
