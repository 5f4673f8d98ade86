// GET /market/status: open, pre-open, Friday's break or closed, by the service's own market clock.
// Nothing is fetched from the portal, so the answer is never cached and costs no exchange budget.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { marketStatus } from '../../../market/quotes/market-status.ts';
import { metaTail } from '../../pipeline/envelope.ts';
import { errorResponses, singleEnvelope } from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function marketStatusRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const clock = deps.marketClock;
  const now = clock.now;
  const { 400: badRequest, 429: rateLimited, 500: internal } = errorResponses();
  app.get(
    '/market/status',
    {
      schema: {
        operationId: 'getMarketStatus',
        summary: 'Market state: pre-open, open, Friday break or closed',
        description:
          'From the Karachi market clock the service uses for cache freshness (Mon–Thu 09:30–15:30, Fri 09:15–12:00 and 14:30–16:30; no holiday calendar is published, so a holiday reads as a normal day). With `CACHE_FOLLOW_MARKET_CLOCK=false` the service treats the market as open around the clock and says so with `clock_followed: false`.',
        tags: ['market'],
        // No parameters: one it does not take is refused like on every other endpoint.
        querystring: Type.Object({}, { additionalProperties: false }),
        response: {
          200: singleEnvelope('MarketStatus', 'the market state now'),
          400: badRequest!,
          429: rateLimited!,
          500: internal!,
        },
      },
    },
    (_req, reply) => {
      const at = now();
      const status = marketStatus(at, { followMarketClock: clock.followMarketClock });
      // The state changes with the clock, not with any data: never reuse an earlier answer.
      reply.header('cache-control', 'no-store');
      // The state is the clock's at this moment, so the answer is as of its own `now`.
      const meta = metaTail(false, -1, at, `,"as_of":${JSON.stringify(status.now)}`);
      return reply.type('application/json; charset=utf-8').send(`{"data":${JSON.stringify(status)}${meta}`);
    },
  );
}
