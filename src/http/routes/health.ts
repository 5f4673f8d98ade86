import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NotReadyError } from '../../errors.ts';
import { sendError } from '../error-handler.ts';
import { envelope } from '../envelope.ts';
import { errorRef, singleEnvelope } from '../schemas.ts';

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

export function healthRoutes(
  app: FastifyInstance,
  opts: { readiness: () => Readiness; now: () => number },
): void {
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
