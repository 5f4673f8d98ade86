// The spec's request limit: N requests a minute per client IP across every API endpoint, 429
// rate_limited beyond it, and RateLimit-* headers on every counted response. One object says what
// is counted (the key), over which window, and where (the store); @fastify/rate-limit enforces it.
// What is not an API endpoint is not counted: /metrics, /openapi.json, /docs and the dashboard's
// files cost the portal nothing, and a page load is several of them (src/http/app.ts registers
// them before the limit, so its per-route hook never reaches them).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RateLimitedError } from '../errors.ts';
import type { WindowCounter } from './window-counter.ts';

interface IncrResult {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, result?: IncrResult) => void;

export class RequestLimit {
  readonly windowMs = 60_000;

  /**
   * @param perMinute requests a minute per client; 0 = off.
   * @param counter where requests are counted: in-process, or shared through Redis by replicas.
   */
  constructor(
    readonly perMinute: number,
    private readonly counter: WindowCounter,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** The client a request counts against: its address, as Fastify's trust-proxy rule gives it. */
  keyOf(req: FastifyRequest): string {
    return req.ip;
  }

  /** Counts one request of `key` in the current window. */
  hit(key: string): Promise<{ count: number; resetMs: number }> {
    return this.counter.hit(`rl:${key}`, this.windowMs);
  }

  /** The limit as @fastify/rate-limit's store (its `incr` callback shape). */
  store(): new () => { incr(key: string, cb: Callback): void; child(): unknown } {
    const hit = (key: string) => this.hit(key);
    return class RequestLimitStore {
      incr(key: string, cb: Callback): void {
        hit(key).then(
          ({ count, resetMs }) => cb(null, { current: count, ttl: resetMs }),
          (err: Error) => cb(err),
        );
      }

      child(): RequestLimitStore {
        return new RequestLimitStore();
      }
    };
  }
}

/**
 * Enforces `limit` on every route registered after this call (and on unmatched paths through
 * `app.rateLimit()`): @fastify/rate-limit adds its check to each route's onRequest hooks.
 */
export async function enforceRequestLimit(
  app: FastifyInstance,
  limit: RequestLimit,
  onExceeded?: () => void,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: limit.perMinute,
    timeWindow: limit.windowMs,
    hook: 'onRequest',
    enableDraftSpec: true,
    keyGenerator: (req) => limit.keyOf(req),
    store: limit.store() as never,
    onExceeded: () => onExceeded?.(),
    errorResponseBuilder: (_req, context) =>
      new RateLimitedError('Rate limit exceeded', Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
