// The node:http server under Fastify (its `serverFactory`). Headers that every response carries
// whatever answers it (a route, an error, a 404, Fastify's own 503 while closing) are set here on
// the raw response, before Fastify sees the request: as a Fastify onRequest hook they cost ~20 %
// of a cached answer's throughput together with the onSend hook this replaced (bench/README.md).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { HitReplayer } from './hit-replay.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// A random prefix per process and a counter: unique across replicas and restarts without a UUID's
// entropy per request.
const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 8);
let requestCount = 0;

function nextRequestId(): string {
  requestCount = (requestCount + 1) % Number.MAX_SAFE_INTEGER;
  return `${REQUEST_ID_PREFIX}-${requestCount.toString(36)}`;
}

/** A caller's X-Request-Id is kept (and echoed) when it is a sane token; otherwise a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : nextRequestId();
}

/** Response headers a browser script may read (CORS). */
export const EXPOSED_HEADERS = [
  'etag',
  'x-cache',
  'age',
  'last-modified',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-request-id',
].join(', ');

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * For Fastify's `serverFactory`: stamps the request id (into the request too, where Fastify's
 * genReqId finds it) and the CORS headers for `origin: *`, then hands over to Fastify — unless the
 * replayer answers the request from the cache first (src/server/hit-replay.ts).
 */
export function createStampingServer(
  handler: Handler,
  options: FastifyServerOptions,
  replayer?: HitReplayer,
): Server {
  const toRouter = (req: IncomingMessage, res: ServerResponse, id: string): void => {
    req.headers['x-request-id'] = id;
    res.setHeader('x-request-id', id);
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    handler(req, res);
  };
  const server = createServer((req, res) => {
    const id = requestIdOf(req);
    if (replayer === undefined || !replayer.take(req, res, id, toRouter)) toRouter(req, res, id);
  });
  // What Fastify sets on a server it creates itself.
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  return server;
}
