import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { constituents, levels } from '../../market/indices.ts';
import { errorResponses, FormatQuery, listEnvelope } from '../schemas.ts';
import type { RouteDeps } from './deps.ts';

export async function indexRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/indices',
    {
      schema: {
        summary: 'Index levels',
        tags: ['indices'],
        querystring: FormatQuery,
        response: { 200: listEnvelope('IndexLevel', 'every index'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await levels(datasets, contextOf(req)), { filename: 'indices' }),
  );

  r.get(
    '/indices/:name',
    {
      schema: {
        summary: 'Index constituents',
        description:
          'name: an index code, case- and punctuation-insensitive (KSE100, kse-100, KMI30, ALLSHR, KMIALLSHR, …).',
        tags: ['indices'],
        params: Type.Object({ name: Type.String({ maxLength: 40 }) }),
        querystring: FormatQuery,
        response: {
          200: listEnvelope('IndexConstituent', 'constituents'),
          ...errorResponses({ 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await constituents(datasets, req.params.name, contextOf(req));
      return respond.send(req, reply, answer, { filename: `index-${req.params.name.toUpperCase()}` });
    },
  );
}
