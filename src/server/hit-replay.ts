// Cache hits answered below the router. A cached quote costs Fastify more than the answer itself:
// a plugin-less Fastify reaches ~60 % of a bare node:http server's requests/s on it (bench/README.md),
// for routing, request/reply objects, hooks and schema work that a repeat of an already answered
// URL does not need. While the answer that URL got is still fresh, its repeat gets the same bytes
// and headers here (the responder builds them: src/server/respond.ts), with the same request id,
// CORS and rate-limit headers, metrics and log line as through the routes. Anything else — another
// method, a conditional or CSV request, a caller proxy, a client over its limit, a closing server —
// goes to Fastify unchanged.
//
// Requests for a URL that the routes are answering right now (a cold burst: 1,000 clients asking
// for one uncached history) wait here, behind that first request, instead of each waiting inside
// Fastify on the same portal fetch: they are answered the moment it is, from the same bytes (as
// MISS, like the single flight's waiters), or with the same failure when the portal fetch failed
// (shared-failure.ts), or else sent on to the routes. In Fastify each waiter cost ~200 µs to route
// and ~100 µs to answer, and held a request context through the fetch (bench/README.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import type { WindowCounter } from '../exchange/budget.ts';
import { EXPOSED_HEADERS } from './http-server.ts';
import type { Metrics } from './metrics.ts';
import { PROXY_HEADERS } from './request-context.ts';
import type { Replay, Responder } from './respond.ts';
import { sharedFailureOf, type SharedFailure } from './shared-failure.ts';

export interface ReplayRateLimit {
  perMinute: number;
  /** The counter @fastify/rate-limit uses (src/server/rate-limit-store.ts), so both count alike. */
  counter: WindowCounter;
  /** As Fastify's `trustProxy`: the client key is then taken from X-Forwarded-For. */
  trustProxy: boolean;
}

export interface HitReplayOptions {
  respond: Pick<Responder, 'replay' | 'onReplayable'>;
  metrics: Metrics;
  /** Replayed requests are logged as Fastify logs routed ones (at info). */
  logger?: FastifyBaseLogger;
  /** Absent when the request limit is off. */
  rateLimit?: ReplayRateLimit;
}

/** Hands a request to Fastify, with the request id already chosen. */
export type ToRouter = (req: IncomingMessage, res: ServerResponse, requestId: string) => void;

/** A request answered below the router, now or once the request it waits behind has been. */
interface Held {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  toRouter: ToRouter;
  /** performance.now() at arrival, for the latency metric. */
  started: number;
  /** It waited behind a request the routes were answering (logged as such). */
  waited: boolean;
}

/** The first request for a URL, being answered by the routes, and the requests waiting behind it. */
interface InFlight {
  leader: ServerResponse;
  waiting: Held[];
}

const RATE_WINDOW_MS = 60_000;
const trustAll = (): boolean => true;
const LOGS_INFO = new Set(['trace', 'debug', 'info']);

export class HitReplayer {
  private closing = false;
  /** By raw URL, as the responder remembers answers. */
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly opts: HitReplayOptions) {
    opts.respond.onReplayable((url) => this.release(url));
  }

  /**
   * From now on every new request goes to Fastify (which answers 503 while closing); requests
   * already waiting are answered with the request they wait behind, which Fastify lets finish.
   */
  close(): void {
    this.closing = true;
  }

  /**
   * Takes `req` and returns true when it repeats a fresh cached answer (answered now) or asks for a
   * URL the routes are answering already (answered with it); `toRouter` may still be called later.
   * False when Fastify must answer it.
   */
  take(req: IncomingMessage, res: ServerResponse, requestId: string, toRouter: ToRouter): boolean {
    if (this.closing || req.method !== 'GET' || !replayable(req)) return false;
    const held: Held = { req, res, requestId, toRouter, started: performance.now(), waited: false };
    const replay = this.opts.respond.replay(req, Date.now());
    if (replay !== undefined) {
      this.answer(held, replay);
      return true;
    }
    const url = req.url as string;
    const flight = this.inFlight.get(url);
    if (flight !== undefined) {
      held.waited = true;
      flight.waiting.push(held);
      return true;
    }
    // This request leads: the routes answer it, and whatever they answer releases the waiters
    // (the answer's bytes, its failure, or the routes for each of them when neither applies).
    this.inFlight.set(url, { leader: res, waiting: [] });
    res.once('close', () => this.release(url, res));
    return false;
  }

  /** Answers the requests waiting on `url`; with `leader`, only if they wait behind that one. */
  private release(url: string, leader?: ServerResponse): void {
    const flight = this.inFlight.get(url);
    if (flight === undefined || (leader !== undefined && flight.leader !== leader)) return;
    this.inFlight.delete(url);
    if (flight.waiting.length === 0) return;
    const now = Date.now();
    // They waited for what the leader got: the portal's page (MISS) or a copy already held (HIT).
    const state = flight.leader.getHeader('x-cache') === 'MISS' ? 'MISS' : 'HIT';
    const failure = sharedFailureOf(flight.leader);
    // Through the routes they would have waited in the single flight, which counts its waiters.
    if (state === 'MISS' || failure !== undefined) {
      this.opts.metrics.flightWaits.inc({ scope: 'local' }, flight.waiting.length);
    }
    for (const held of flight.waiting) {
      // A client that gave up waiting has nothing left to answer.
      if (held.res.destroyed) continue;
      const replay = this.opts.respond.replay(held.req, now, state) ?? failureReplay(failure);
      if (replay !== undefined) this.answer(held, replay);
      else held.toRouter(held.req, held.res, held.requestId);
    }
  }

  /** Counts the request against its client's limit, then writes `replay` (or routes a 429). */
  private answer(held: Held, replay: Replay): void {
    const limit = this.opts.rateLimit;
    if (limit === undefined) return this.write(held, replay);
    const { req, res, requestId, toRouter } = held;
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
        this.write(held, replay);
      },
      () => toRouter(req, res, requestId),
    );
  }

  private write({ req, res, requestId, started, waited }: Held, replay: Replay): void {
    const { headers, status } = replay;
    headers['x-request-id'] = requestId;
    headers['access-control-allow-origin'] = '*';
    headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    res.writeHead(status, headers);
    res.end(replay.body);
    const seconds = (performance.now() - started) / 1000;
    this.opts.metrics.countRequest(replay.route, 'GET', status, seconds);
    const { logger } = this.opts;
    // Fastify logs a request's start and end at info; a replayed one is a single line.
    if (logger !== undefined && LOGS_INFO.has(logger.level)) {
      logger.info(
        {
          reqId: requestId,
          req: { method: 'GET', url: req.url, remoteAddress: req.socket.remoteAddress },
          res: { statusCode: status },
          responseTime: seconds * 1000,
          replayed: true,
          waited,
        },
        'request completed',
      );
    }
  }
}

/** The error response the routes gave the leader, as a fresh object per waiter (headers are added). */
function failureReplay(failure: SharedFailure | undefined): Replay | undefined {
  if (failure === undefined) return undefined;
  const body = Buffer.from(failure.body);
  const headers: Record<string, string | number> = { 'cache-control': 'no-store' };
  if (failure.retryAfter !== undefined) headers['retry-after'] = String(failure.retryAfter);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = body.length;
  return { status: failure.status, route: failure.route, headers, body };
}

/** Requests whose answer could depend on more than the URL and Accept-Encoding go to the routes. */
function replayable(req: IncomingMessage): boolean {
  const { headers } = req;
  // A stream is never answered, so nothing could ever release requests waiting behind it.
  if (req.url?.startsWith('/stream/')) return false;
  if (headers['if-none-match'] !== undefined) return false;
  if (headers.accept?.includes('text/csv')) return false;
  for (const name of PROXY_HEADERS) if (headers[name] !== undefined) return false;
  return true;
}
