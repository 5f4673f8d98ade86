// The headers every response carries whatever answers it (a route, a replay, an error, a 404, a
// stream): the request id and CORS. The front door (front-door.ts) sets them, once per request.
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// A random prefix per process and a counter: unique across replicas and restarts without a UUID's
// entropy per request.
const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 8);
let requestCount = 0;

function nextRequestId(): string {
  requestCount = (requestCount + 1) % Number.MAX_SAFE_INTEGER;
  return `${REQUEST_ID_PREFIX}-${requestCount.toString(36)}`;
}

const ID = Symbol('requestId');
type Identified = IncomingMessage & { [ID]?: string };

/**
 * The id of `req`, decided on first use: a caller's X-Request-Id when it is a sane token (it is
 * echoed), otherwise a new one. The front door asks first; Fastify's `genReqId` reads the same.
 */
export function requestIdOf(req: IncomingMessage): string {
  const identified = req as Identified;
  if (identified[ID] !== undefined) return identified[ID];
  const given = req.headers['x-request-id'];
  return (identified[ID] = typeof given === 'string' && REQUEST_ID.test(given) ? given : nextRequestId());
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

/** CORS: any origin may read any answer (the API is public and read-only), as name/value pairs. */
export const CORS_HEADERS: readonly string[] = [
  'access-control-allow-origin',
  '*',
  'access-control-expose-headers',
  EXPOSED_HEADERS,
];
