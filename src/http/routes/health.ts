import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotReadyError } from '../../errors.ts';
import type { PageStatus } from '../../exchange/page-health.ts';
import { sendError } from '../pipeline/error-handler.ts';
import { envelope, timestamp } from '../pipeline/envelope.ts';
import { errorRef, singleEnvelope } from '../pipeline/schemas.ts';

// Liveness never touches the portal. It is an API endpoint and counts against the request limit
// like the others (spec); probes should come from an address of their own.
// `?ready=1` is readiness for load balancers: 503 only while the local store is unusable or the
// process is shutting down; a lost Redis is reported as degraded but keeps the replica in rotation.

/** Readiness's answer while the local store is unusable (the OpenAPI examples quote it). */
export const STORE_UNUSABLE = 'not ready: the local store is unusable';

/** What `?ready=1` reports; the composition root (src/service.ts) knows the parts it is made of. */
export interface Readiness {
  ready: boolean;
  store: 'ok' | 'failing';
  redis: 'ok' | 'degraded' | 'disabled';
  /** The archive store (docs/archive.md): reported, never a reason to leave rotation. */
  archive?: 'ok' | 'unavailable';
  shuttingDown: boolean;
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : timestamp(new Date(ms)));

const PortalPage = Type.Object(
  {
    page: Type.String({
      description:
        'the portal page kind: `token` (the home page carrying the request token), `symbols`, `screener`, `market-watch`, `index-constituents`, `index-levels`, `sector-summary`, `history`, `reports`, `company`, `eod`, `payouts`, `intraday`, `index-series`, `market-payouts`, `calendar`, `announcements`, `debt-market`, `trading-board`, `eligible-scrips`, `daily-file` (the exchange’s daily closing file the archiver keeps: its container, `closing11.lis` and the line’s fields `date` … `ldcp`; its 404 no-session page records nothing)',
    }),
    state: Type.Union(
      [Type.Literal('ok'), Type.Literal('changed'), Type.Literal('failing'), Type.Literal('unknown')],
      {
        description:
          '`ok`: the last fetch parsed with every expected field; `changed`: it parsed but lacked a column or label its parser expects (answers keep serving the last complete copy, as stale; without one, what parsed, the missing field null, never 0); `failing`: it could not be parsed (no table, wrong shape, wrong JSON, a 4xx where the page should be; answers keep serving the last good copy, as stale, or fail with 502 upstream_data_error); `unknown`: this process has not fetched it yet',
      },
    ),
    last_fetch: Type.Union([Type.String(), Type.Null()], {
      description:
        'when this process last fetched the page and read it (ISO 8601, UTC offset); null before the first',
    }),
    last_ok: Type.Union([Type.String(), Type.Null()], {
      description: 'when this process last fetched it in state `ok`; null if never',
    }),
    missing_fields: Type.Array(Type.String(), {
      description:
        'the columns (header text as the parser expects it, lowercased) or labels the last fetch did not find; empty when ok or unknown',
    }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'why, in words: the parser’s failure, or the fields not found; null when ok or unknown',
    }),
  },
  { additionalProperties: false },
);

export function healthRoutes(
  app: FastifyInstance,
  opts: { readiness: () => Readiness; now: () => number; portalPages?: () => readonly PageStatus[] },
): void {
  const portalPages = opts.portalPages;
  if (portalPages !== undefined) {
    app.withTypeProvider<TypeBoxTypeProvider>().get(
      '/health/portal',
      {
        schema: {
          operationId: 'getPortalHealth',
          summary: 'The drift alarm: the state of each portal page kind as this replica last read it',
          description:
            'For each page kind the service reads, whether its last fetch parsed with every field its parser expects. Never fetches: it reports the fetches clients caused. State is per process: each replica reports its own fetches (with Redis, a replica that read another’s copy keeps its older state). The same states are the Prometheus series `psxmd_exchange_page_state` and `psxmd_exchange_page_missing_field`; each change of state is logged once as a warning. `npm run canary` checks every kind on demand.',
          tags: ['service'],
          querystring: Type.Object({}, { additionalProperties: false }),
          response: {
            200: Type.Object(
              {
                data: Type.Array(PortalPage),
                meta: Type.Object({
                  timestamp: Type.String({
                    description: 'server time of the response, ISO 8601 with UTC offset',
                  }),
                  cached: Type.Boolean({ description: 'always false' }),
                  count: Type.Integer({ description: 'number of page kinds' }),
                }),
              },
              { description: 'every page kind, ok or not (the answer is 200 whatever the states)' },
            ),
            400: errorRef('a query parameter: this endpoint takes none (bad_request)'),
            429: errorRef('more than the allowed requests a minute from this IP (rate_limited)'),
            503: errorRef('the process is shutting down (not_ready)'),
          },
        },
      },
      (_req, reply) => {
        const pages = portalPages().map((p) => ({
          page: p.page,
          state: p.state,
          last_fetch: isoOrNull(p.lastFetch),
          last_ok: isoOrNull(p.lastOk),
          missing_fields: p.missingFields,
          detail: p.detail,
        }));
        reply.header('cache-control', 'no-store');
        return reply
          .type('application/json; charset=utf-8')
          .send(envelope(JSON.stringify(pages), false, pages.length, opts.now()));
      },
    );
  }

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Liveness, or readiness with ?ready=1',
        tags: ['service'],
        querystring: Type.Object(
          {
            ready: Type.Optional(
              // A boolean like every other flag; 1 and 0 kept for the load balancers configured so.
              Type.Enum(['true', 'false', '1', '0'], {
                description:
                  '`true` (or 1): readiness check (store, shutdown, Redis) instead of liveness; `false` (or 0, default): liveness',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: singleEnvelope('Health', '`ok` while the service accepts requests', false),
          429: errorRef('more than the allowed requests a minute from this IP (rate_limited)'),
          503: errorRef(
            'readiness only: the local store is unusable or the process is shutting down (not_ready)',
          ),
        },
      },
    },
    (req, reply) => {
      reply.header('cache-control', 'no-store');
      if (req.query.ready !== 'true' && req.query.ready !== '1') {
        return reply
          .type('application/json; charset=utf-8')
          .send(envelope('{"status":"ok"}', false, -1, opts.now()));
      }
      const r = opts.readiness();
      if (!r.ready) {
        return sendError(
          reply,
          new NotReadyError(r.shuttingDown ? 'not ready: shutting down' : STORE_UNUSABLE),
        );
      }
      const degraded = r.redis === 'degraded' || r.archive === 'unavailable';
      const body = {
        status: degraded ? 'degraded' : 'ok',
        store: r.store,
        redis: r.redis,
        archive: r.archive,
      };
      return reply
        .type('application/json; charset=utf-8')
        .send(envelope(JSON.stringify(body), false, -1, opts.now()));
    },
  );
}
