import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { constituents, levels } from '../../market/indices.ts';
import { IndexConstituent, IndexLevel } from '../../market/models.ts';
import { columnsOf, errorResponses, FormatQuery, listEnvelope } from '../schemas.ts';
import type { RouteDeps } from './deps.ts';

export function indexRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/indices',
    {
      schema: {
        operationId: 'listIndexLevels',
        summary: 'Index levels',
        tags: ['indices'],
        querystring: FormatQuery,
        response: { 200: listEnvelope('IndexLevel', 'every index'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await levels(datasets, contextOf(req)), {
        filename: 'indices',
        columns: columnsOf(IndexLevel),
      }),
  );

  r.get(
    '/indices/:name',
    {
      schema: {
        operationId: 'listIndexConstituents',
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
      const code = req.params.name.toUpperCase();
      return respond.send(req, reply, answer, {
        filename: `index-${code.replace(/[^A-Z0-9]+/g, '-')}`,
        columns: columnsOf(IndexConstituent),
      });
    },
  );
}
