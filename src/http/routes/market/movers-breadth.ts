// The market at a glance from the cached market watch: movers and breadth.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { breadth, MOVER_KINDS, movers } from '../../../market/overview/movers-breadth.ts';
import { Breadth, Mover } from '../../../market/models/intraday.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  MissingMeta,
  query,
  singleEnvelope,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function moversBreadthRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/market/movers',
    {
      schema: {
        operationId: 'listMovers',
        summary: 'Top gainers, losers or most active',
        description:
          'From the cached market watch: gainers by change_pct (highest first, only rising symbols), losers by change_pct (lowest first, only falling ones), active by volume. Ties by symbol.',
        tags: ['market'],
        querystring: query({
          by: Type.Optional(
            Type.Enum([...MOVER_KINDS], { description: 'gainers (default), losers or active' }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 10' })),
        }),
        response: { 200: listEnvelope('Mover', 'the movers, best first'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const by = req.query.by ?? 'gainers';
      const limit = req.query.limit ?? 10;
      const answer = await movers(datasets, by, limit, contextOf(req));
      return respond.send(req, reply, answer, { filename: `movers-${by}`, columns: columnsOf(Mover) });
    },
  );

  r.get(
    '/market/breadth',
    {
      schema: {
        operationId: 'getBreadth',
        summary: 'Advances, declines and totals',
        description:
          'Counted over the cached market watch (the regular board): symbols above, below and at LDCP, and the day’s total volume and value (Σ current × volume).',
        tags: ['market'],
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('Breadth', 'market breadth', true, MissingMeta),
          ...errorResponses(),
        },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await breadth(datasets, contextOf(req)), {
        filename: 'breadth',
        columns: columnsOf(Breadth),
      }),
  );
}
