// GET /screener: the portal's screener table.
import type { FastifyInstance } from 'fastify';
import { screener } from '../../market/quotes/screener.ts';
import { ScreenerRow } from '../../market/models/resources.ts';
import { columnsOf, errorResponses, FormatQuery, listEnvelope, ProxyHeaders } from '../pipeline/schemas.ts';
import type { RouteDeps } from './deps.ts';

export function screenerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { datasets, respond, contextOf } = deps;

  app.get(
    '/screener',
    {
      schema: {
        operationId: 'listScreener',
        summary: 'Screener table',
        description:
          'Optional header X-Exchange-Proxy (or X-PSX-Proxy): http://, socks5:// or socks5h:// proxy for this request’s exchange traffic, honoured only when the server enables passthrough; never contacted when the answer is cached.',
        tags: ['market'],
        querystring: FormatQuery,
        headers: ProxyHeaders,
        response: {
          200: listEnvelope('ScreenerRow', 'one row per symbol'),
          ...errorResponses({ 400: 'bad proxy header' }),
        },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await screener(datasets, contextOf(req)), {
        filename: 'screener',
        columns: columnsOf(ScreenerRow),
      }),
  );
}
