// GET /market/summary: the index levels at a glance.
import type { FastifyInstance } from 'fastify';
import { marketSummary } from '../../../market/listings/indices.ts';
import { errorResponses, FormatQuery, singleEnvelope } from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function marketSummaryRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { datasets, respond, contextOf } = deps;

  app.get(
    '/market/summary',
    {
      schema: {
        operationId: 'getMarketSummary',
        summary: 'Index levels at a glance',
        tags: ['market'],
        querystring: FormatQuery,
        response: { 200: singleEnvelope('MarketSummary', 'index levels'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await marketSummary(datasets, contextOf(req)), {
        filename: 'market-summary',
        columns: [],
      }),
  );
}
