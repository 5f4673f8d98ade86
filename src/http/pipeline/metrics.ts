// Prometheus metrics (prom-client). Labels are bounded: route templates, never raw paths; page
// kinds and outcomes from fixed lists; nothing a caller controls (no IPs, no proxy addresses).
import { UNCOUNTED } from './limit-rules.ts';
import { PAGE_STATES, type PageHealth } from '../../exchange/page-health.ts';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RequestLatency, type LatencySeries } from './request-latency.ts';

interface RequestLabels {
  route: string;
  method: string;
  status: string;
}

/** One (route, method, status) series: its requests since the last scrape, and its latency series. */
interface Counted {
  method: string;
  status: number;
  labels: RequestLabels;
  pending: number;
  latency: LatencySeries;
}

export class Metrics {
  readonly registry = new Registry();

  // Counted per request in plain numbers and handed to prom-client when scraped: its inc() checks
  // and hashes the labels on every call, which showed in the quote path's CPU
  // profile (bench/README.md). By route, then a short list of its (method, status) pairs: no key
  // string is made per request.
  private readonly requestCounts = new Map<string, Counted[]>();

  readonly requests = new Counter({
    name: 'psxmd_http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
    collect: () => {
      for (const series of this.requestCounts.values()) {
        for (const counted of series) {
          if (counted.pending === 0) continue;
          this.requests.inc(counted.labels, counted.pending);
          counted.pending = 0;
        }
      }
    },
  });

  readonly latency = new RequestLatency(
    'psxmd_http_request_duration_seconds',
    'HTTP request latency by route template',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    this.registry,
  );

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
    help: 'Requests refused by a limit: request_rate, budget_ip, budget_global, budget_global_bulk, budget_spare, proxy_ip, proxy_in_flight',
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

  readonly sectionsMissing = new Counter({
    name: 'psxmd_exchange_sections_missing_total',
    help: 'Company page sections that could not be read, by section (each is served as null)',
    labelNames: ['section'],
    registers: [this.registry],
  });

  readonly streamsOpen = new Gauge({
    name: 'psxmd_streams_open',
    help: 'Open quote streams (GET /stream/quotes) on this replica',
    registers: [this.registry],
  });

  readonly streamEvents = new Counter({
    name: 'psxmd_stream_events_total',
    help: 'Quote events written to streams, snapshots and replays included',
    registers: [this.registry],
  });

  readonly streamPolls = new Counter({
    name: 'psxmd_stream_polls_total',
    help: 'Quote-stream poll rounds by outcome: changed, unchanged, failed, follower (another replica polls), closed (market closed), idle (no streams)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly streamDrops = new Counter({
    name: 'psxmd_stream_dropped_total',
    help: 'Streams dropped by the server, by reason (slow: unsent bytes past the bound)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private pageHealth: PageHealth | null = null;

  // The drift alarm (GET /health/portal) as series, read at each scrape: one per page kind and state
  // (1 for the page's current state), and one per expected field the page lacks. Fields come from
  // the parsers' own lists, so the labels stay bounded.
  readonly pageState = new Gauge({
    name: 'psxmd_exchange_page_state',
    help: 'Portal page kinds by drift state (ok, changed, failing, unknown): 1 for the current state',
    labelNames: ['page', 'state'] as const,
    registers: [this.registry],
    collect: () => {
      if (this.pageHealth === null) return;
      for (const status of this.pageHealth.all()) {
        for (const state of PAGE_STATES) {
          this.pageState.set({ page: status.page, state }, status.state === state ? 1 : 0);
        }
      }
    },
  });

  readonly pageMissingFields = new Gauge({
    name: 'psxmd_exchange_page_missing_field',
    help: 'Expected columns or labels the last fetch of a portal page did not find (1 while missing)',
    labelNames: ['page', 'field'] as const,
    registers: [this.registry],
    collect: () => {
      if (this.pageHealth === null) return;
      this.pageMissingFields.reset();
      for (const status of this.pageHealth.all()) {
        for (const field of status.missingFields) this.pageMissingFields.set({ page: status.page, field }, 1);
      }
    },
  });

  private readonly cacheReadChildren = new Map<string, Counter.Internal>();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'psxmd_' });
  }

  /** The page states to expose (the exchange client's PageHealth). */
  watchPages(health: PageHealth): void {
    this.pageHealth = health;
  }

  /** One answered request (the front door's); route is the template, never the raw path. */
  countRequest(route: string, method: string, status: number, seconds: number): void {
    let series = this.requestCounts.get(route);
    if (series === undefined) this.requestCounts.set(route, (series = []));
    let counted: Counted | undefined;
    for (const c of series) if (c.status === status && c.method === method) counted = c;
    if (counted === undefined) {
      const latency = this.latency.seriesOf(route, method);
      counted = { method, status, labels: { route, method, status: String(status) }, pending: 0, latency };
      series.push(counted);
    }
    counted.pending++;
    this.latency.observe(counted.latency, seconds);
  }

  /** Every API request reads one or more datasets: the label child is bound once per pair. */
  countCacheRead(state: string, tier: string): void {
    const key = `${state} ${tier}`;
    let child = this.cacheReadChildren.get(key);
    if (child === undefined) {
      child = this.cacheReads.labels({ state, tier });
      this.cacheReadChildren.set(key, child);
    }
    child.inc();
  }
}

/** GET /metrics: the Prometheus exposition (the front door counts the requests). */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', { schema: { hide: true }, config: UNCOUNTED }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
