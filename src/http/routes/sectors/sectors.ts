import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sectorMembers, sectorSummary } from '../../../market/listings/sectors.ts';
import { SectorSummary } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  SYMBOL_COLUMNS,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function sectorRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/sectors',
    {
      schema: {
        operationId: 'listSectors',
        summary: 'Sector summary',
        tags: ['sectors'],
        querystring: FormatQuery,
        response: { 200: listEnvelope('SectorSummary', 'one row per sector'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await sectorSummary(datasets, contextOf(req)), {
        filename: 'sectors',
        columns: columnsOf(SectorSummary),
      }),
  );

  r.get(
    '/sectors/:name/stocks',
    {
      schema: {
        operationId: 'listSectorStocks',
        summary: "A sector's symbols",
        description:
          'name: a sector code (0801) or name, case-, space- and punctuation-insensitive (automobile-assembler).',
        tags: ['sectors'],
        params: Type.Object({ name: Type.String({ maxLength: 100 }) }),
        querystring: FormatQuery,
        response: {
          200: listEnvelope(Type.String(), 'member symbols'),
          ...errorResponses({ 404: 'unknown sector' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await sectorMembers(datasets, req.params.name, contextOf(req));
      const key = req.params.name.toLowerCase();
      return respond.send(req, reply, answer, {
        filename: `sector-${key.replace(/[^a-z0-9]+/g, '-')}`,
        columns: SYMBOL_COLUMNS,
      });
    },
  );
}
