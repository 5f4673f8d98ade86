// Cache hits answered below the router. A cached quote costs Fastify more than the answer itself:
// a plugin-less Fastify reaches ~60 % of a bare node:http server's requests/s on it (bench/README.md),
// for routing, request/reply objects, hooks and schema work that a repeat of an already answered
// URL does not need. While the answer that URL got is still fresh, its repeat gets the same bytes
// and headers here (the responder builds them: src/server/respond.ts), with the same request id,
// CORS and rate-limit headers, metrics and log line as through the routes. Anything else — another
// method, a conditional or CSV request, a caller proxy, a client over its limit, a closing server —
// goes to Fastify unchanged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import type { WindowCounter } from '../exchange/budget.ts';
import { EXPOSED_HEADERS } from './http-server.ts';
import type { Metrics } from './metrics.ts';
import { PROXY_HEADERS } from './request-context.ts';
import type { Replay, Responder } from './respond.ts';

export interface ReplayRateLimit {
  perMinute: number;
  /** The counter @fastify/rate-limit uses (src/server/rate-limit-store.ts), so both count alike. */
  counter: WindowCounter;
  /** As Fastify's `trustProxy`: the client key is then taken from X-Forwarded-For. */
  trustProxy: boolean;
}

export interface HitReplayOptions {
  respond: Pick<Responder, 'replay'>;
  metrics: Metrics;
  /** Replayed requests are logged as Fastify logs routed ones (at info). */
  logger?: FastifyBaseLogger;
  /** Absent when the request limit is off. */
  rateLimit?: ReplayRateLimit;
}

/** Hands a request to Fastify, with the request id already chosen. */
export type ToRouter = (req: IncomingMessage, res: ServerResponse, requestId: string) => void;

const RATE_WINDOW_MS = 60_000;
const trustAll = (): boolean => true;
const LOGS_INFO = new Set(['trace', 'debug', 'info']);

export class HitReplayer {
  private closing = false;

  constructor(private readonly opts: HitReplayOptions) {}

  /** From now on every request goes to Fastify (which answers 503 while closing). */
  close(): void {
    this.closing = true;
  }

  /**
   * Answers `req` when it repeats a fresh cached answer and returns true (then `toRouter` may still
   * be called, once the rate limit has been counted); false when Fastify must answer it.
   */
  take(req: IncomingMessage, res: ServerResponse, requestId: string, toRouter: ToRouter): boolean {
    if (this.closing || req.method !== 'GET' || !replayable(req)) return false;
    const started = performance.now();
    const replay = this.opts.respond.replay(req, Date.now());
    if (replay === undefined) return false;
    const limit = this.opts.rateLimit;
    if (limit === undefined) {
      this.write(req, res, requestId, replay, started);
      return true;
    }
    const ip = limit.trustProxy ? proxyAddr(req, trustAll) : req.socket.remoteAddress;
    // @fastify/rate-limit's key is `req.ip`; its store counts under `rl:` (rate-limit-store.ts).
    limit.counter.hit(`rl:${ip}`, RATE_WINDOW_MS).then(
      ({ count, resetMs }) => {
        // Over the limit: the routes answer the 429 (and count the request again, which changes
        // nothing for a client already refused until the window resets).
        if (count > limit.perMinute) return toRouter(req, res, requestId);
        replay.headers['ratelimit-limit'] = limit.perMinute;
        replay.headers['ratelimit-remaining'] = limit.perMinute - count;
        replay.headers['ratelimit-reset'] = Math.ceil(resetMs / 1000);
        this.write(req, res, requestId, replay, started);
      },
      () => toRouter(req, res, requestId),
    );
    return true;
  }

  private write(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    replay: Replay,
    started: number,
  ): void {
    const { headers } = replay;
    headers['x-request-id'] = requestId;
    headers['access-control-allow-origin'] = '*';
    headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    res.writeHead(200, headers);
    res.end(replay.body);
    const seconds = (performance.now() - started) / 1000;
    this.opts.metrics.countRequest(replay.route, 'GET', 200, seconds);
    const { logger } = this.opts;
    // Fastify logs a request's start and end at info; a replayed one is a single line.
    if (logger !== undefined && LOGS_INFO.has(logger.level)) {
      logger.info(
        {
          reqId: requestId,
          req: { method: 'GET', url: req.url, remoteAddress: req.socket.remoteAddress },
          res: { statusCode: 200 },
          responseTime: seconds * 1000,
          replayed: true,
        },
        'request completed',
      );
    }
  }
}

/** Requests whose answer could depend on more than the URL and Accept-Encoding go to the routes. */
function replayable(req: IncomingMessage): boolean {
  const { headers } = req;
  if (headers['if-none-match'] !== undefined) return false;
  if (headers.accept?.includes('text/csv')) return false;
  for (const name of PROXY_HEADERS) if (headers[name] !== undefined) return false;
  return true;
}
