// The node:http server under Fastify (its `serverFactory`). The headers every response carries
// whatever answers it (a route, a replay, an error, a 404, Fastify's own 503 while closing) are set
// here, once, on the raw response before Fastify sees the request: the request id and CORS. As
// Fastify hooks they cost a measurable share of a cached answer's throughput (bench/README.md).
// Nothing else happens here: routing, limits, logging and metrics are Fastify's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

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
 * genReqId finds it) and the CORS headers for `origin: *`, then hands over to Fastify.
 */
export function createStampingServer(handler: Handler, options: FastifyServerOptions): Server {
  const server = createServer((req, res) => {
    const id = requestIdOf(req);
    req.headers['x-request-id'] = id;
    res.setHeader('x-request-id', id);
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    handler(req, res);
  });
  // What Fastify sets on a server it creates itself.
  if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
  return server;
}
