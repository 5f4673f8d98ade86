import type { FastifyInstance } from 'fastify';
import { singleEnvelope } from '../server/schemas.ts';
import { envelope } from '../server/respond.ts';

// Liveness never touches the portal, and is exempt from the rate limit so a load balancer's
// probes cannot starve (or be starved by) clients behind the same address.
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Liveness',
        tags: ['service'],
        response: { 200: singleEnvelope('Health', '`ok` while the service accepts requests') },
      },
    },
    (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.type('application/json; charset=utf-8').send(envelope('{"status":"ok"}', false, -1));
    },
  );
}
