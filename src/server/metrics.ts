// Prometheus metrics (prom-client). Labels are bounded: route templates, never raw paths; page
// kinds and outcomes from fixed lists; nothing a caller controls (no IPs, no proxy addresses).
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'psxmd_http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'psxmd_http_request_duration_seconds',
    help: 'HTTP request latency by route template',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [this.registry],
  });

  readonly portalFetches = new Counter({
    name: 'psxmd_exchange_fetches_total',
    help: 'Requests to the exchange portal by page kind and outcome',
    labelNames: ['page', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly portalLatency = new Histogram({
    name: 'psxmd_exchange_fetch_duration_seconds',
    help: 'Exchange portal response time by page kind',
    labelNames: ['page'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20],
    registers: [this.registry],
  });

  readonly cacheReads = new Counter({
    name: 'psxmd_cache_reads_total',
    help: 'Dataset reads by result (HIT, MISS, STALE) and the tier that answered',
    labelNames: ['state', 'tier'] as const,
    registers: [this.registry],
  });

  readonly rejections = new Counter({
    name: 'psxmd_limit_rejections_total',
    help: 'Requests refused by a limit: request_rate, budget_ip, budget_global, proxy_ip, proxy_in_flight',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly tokenRefreshes = new Counter({
    name: 'psxmd_exchange_token_refreshes_total',
    help: 'Exchange request-token fetches by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly flightWaits = new Counter({
    name: 'psxmd_single_flight_waits_total',
    help: 'Requests that waited for a fetch already in flight (scope: local or cluster)',
    labelNames: ['scope'] as const,
    registers: [this.registry],
  });

  readonly redisErrors = new Counter({
    name: 'psxmd_redis_errors_total',
    help: 'Failed or slow Redis calls (each one falls back to local tiers)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'psxmd_' });
  }
}

export async function registerMetrics(app: FastifyInstance, metrics: Metrics): Promise<void> {
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ route, method: req.method, status: String(reply.statusCode) });
    metrics.latency.observe({ route, method: req.method }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
