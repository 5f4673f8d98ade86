// The market's page in one request (src/market/overview/market-overview.ts). As CSV: the index levels.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  DEFAULT_OVERVIEW_INDEX,
  DEFAULT_OVERVIEW_MOVERS,
  marketOverview,
  MAX_OVERVIEW_MOVERS,
  type MarketOverviewT,
} from '../../../market/overview/market-overview.ts';
import { IndexLevel } from '../../../market/models/resources.ts';
import { columnsOf, errorResponses, query, singleEnvelope } from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';
import { PARTS } from '../stocks/overview.ts';

export function marketOverviewRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const clock = deps.marketClock;

  r.get(
    '/market/overview',
    {
      schema: {
        operationId: 'getMarketOverview',
        summary: 'The market at a glance in one request',
        description: `Index levels, breadth, the top gainers, losers and most active, the sector summary, the market state, and one index's 5-minute bars and constituents. ${PARTS} As CSV: the index levels (the IndexLevel columns).`,
        tags: ['market'],
        querystring: query({
          index: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 32,
              description: `the index whose intraday bars and constituents are included; default ${DEFAULT_OVERVIEW_INDEX}`,
            }),
          ),
          movers: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: MAX_OVERVIEW_MOVERS,
              description: `rows in each mover list; default ${DEFAULT_OVERVIEW_MOVERS}`,
            }),
          ),
        }),
        response: {
          200: singleEnvelope('MarketOverview', 'the overview; meta.as_of is the oldest of its parts'),
          ...errorResponses({ 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await marketOverview(
        datasets,
        { index: req.query.index, movers: req.query.movers },
        contextOf(req),
        clock,
      );
      return respond.send(req, reply, answer, {
        filename: 'market-overview-indices',
        columns: columnsOf(IndexLevel),
        rows: (data) => ((data as MarketOverviewT).indices.data as unknown[]) ?? [],
      });
    },
  );
}
