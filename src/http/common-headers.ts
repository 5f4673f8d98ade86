// The headers every response carries whatever answers it (a route, a replay, an error, a 404):
// the request id and CORS, set once by the app's first onRequest hook. They go into Fastify's own
// header list, not onto the raw response: headers set on the raw response before writeHead() make
// Node merge the two lists header by header instead of writing them in one pass.
import type { IncomingMessage } from 'node:http';
import type { onRequestHookHandler } from 'fastify';

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

/** The app's first onRequest hook (a callback hook: an async one costs a promise per request). */
export const stampCommonHeaders: onRequestHookHandler = (req, reply, done) => {
  reply.header('x-request-id', req.id);
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  done();
};
