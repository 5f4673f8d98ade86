import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { indexHistorical } from '../../../market/history/index-history.ts';
import { constituents, levels } from '../../../market/listings/indices.ts';
import { IndexHistoricalRow } from '../../../market/models/intraday.ts';
import { IndexConstituent, IndexLevel } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  IndexNameParam,
  listEnvelope,
  query,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

const IndexHistoricalQuery = query({
  start: Type.Optional(Type.String({ format: 'date', description: 'first day, inclusive, YYYY-MM-DD' })),
  end: Type.Optional(Type.String({ format: 'date', description: 'last day, inclusive, YYYY-MM-DD' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'asc (default): oldest first' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100_000, description: 'only the newest N rows of the range' }),
  ),
});

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
        params: IndexNameParam,
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

  r.get(
    '/indices/:name/historical',
    {
      schema: {
        operationId: 'listIndexHistory',
        summary: 'Daily index levels',
        description:
          "One row per trading day over [start, end] (both optional; default the whole series, about five years), oldest first unless order=desc, from the exchange's end-of-day series for the index. high and low are always null: that series has none.",
        tags: ['indices'],
        params: IndexNameParam,
        querystring: IndexHistoricalQuery,
        response: {
          200: listEnvelope('IndexHistoricalRow', 'daily levels'),
          ...errorResponses({ 400: 'start is after end', 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const { start, end, order, limit } = req.query;
      const code = req.params.name.toUpperCase();
      const answer = await indexHistorical(
        datasets,
        req.params.name,
        { start, end, order, limit },
        contextOf(req),
      );
      return respond.send(req, reply, answer, {
        filename: `${code}-historical`,
        columns: columnsOf(IndexHistoricalRow),
      });
    },
  );
}
