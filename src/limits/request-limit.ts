// The spec's request limit: N requests a minute per client IP across all endpoints, 429
// rate_limited beyond it, and RateLimit-* headers on every response.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { RateLimitedError } from '../errors.ts';
import type { WindowCounter } from './portal-budget.ts';
import { rateLimitStore } from './request-limit-store.ts';

export interface RateLimitOptions {
  perMinute: number;
  /** Where requests are counted: in-process, or shared through Redis by several replicas. */
  counter: WindowCounter;
  onExceeded?: () => void;
}

export async function registerRateLimit(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: opts.perMinute,
    timeWindow: 60_000,
    hook: 'onRequest',
    enableDraftSpec: true,
    keyGenerator: (req) => req.ip,
    store: rateLimitStore(opts.counter),
    onExceeded: () => opts.onExceeded?.(),
    errorResponseBuilder: (_req, context) =>
      new RateLimitedError('Rate limit exceeded', Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}
