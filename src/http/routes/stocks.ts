import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fundamentals } from '../../market/fundamentals.ts';
import { historical } from '../../market/history.ts';
import { quote } from '../../market/quotes.ts';
import { listStocks } from '../../market/stocks.ts';
import { errorResponses, FormatQuery, listEnvelope, singleEnvelope, SymbolParam } from '../schemas.ts';
import type { RouteDeps } from './deps.ts';

const HistoricalQuery = Type.Object({
  start: Type.Optional(Type.String({ format: 'date', description: 'first day, inclusive, YYYY-MM-DD' })),
  end: Type.Optional(Type.String({ format: 'date', description: 'last day, inclusive, YYYY-MM-DD' })),
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc (default): oldest first' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100_000, description: 'only the newest N rows of the range' }),
  ),
  format: FormatQuery.properties.format,
});

export async function stockRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/stocks',
    {
      schema: {
        summary: 'Listed symbols',
        tags: ['stocks'],
        querystring: Type.Object({
          index: Type.Optional(Type.String({ description: "only this index's constituents, e.g. KSE100" })),
          format: FormatQuery.properties.format,
        }),
        response: {
          200: listEnvelope(Type.String(), 'symbols (tickers)'),
          ...errorResponses({ 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const { index } = req.query;
      const answer = await listStocks(datasets, contextOf(req), index);
      return respond.send(req, reply, answer, {
        filename: index ? `stocks-${index.toUpperCase()}` : 'stocks',
      });
    },
  );

  r.get(
    '/stocks/:symbol/quote',
    {
      schema: {
        summary: "A symbol's quote",
        tags: ['stocks'],
        params: SymbolParam,
        response: {
          200: singleEnvelope('Quote', 'the quote'),
          ...errorResponses({ 404: 'SYMBOL not found' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await quote(datasets, req.params.symbol, contextOf(req));
      return respond.send(req, reply, answer);
    },
  );

  r.get(
    '/stocks/:symbol/historical',
    {
      schema: {
        summary: 'Daily history',
        description:
          'One row per trading day over [start, end] (both optional; default: the whole history), oldest first unless order=desc. Prices are as traded, not adjusted for corporate actions; is_anomaly flags suspect rows.',
        tags: ['stocks'],
        params: SymbolParam,
        querystring: HistoricalQuery,
        response: {
          200: listEnvelope('HistoricalRow', 'daily rows'),
          ...errorResponses({ 400: 'start is after end', 404: 'unknown symbol' }),
        },
      },
    },
    async (req, reply) => {
      const { start, end, order, limit } = req.query;
      const symbol = req.params.symbol.toUpperCase();
      const answer = await historical(datasets, symbol, { start, end, order, limit }, contextOf(req));
      return respond.send(req, reply, answer, { filename: `${symbol}-historical` });
    },
  );

  r.get(
    '/stocks/:symbol/fundamentals',
    {
      schema: {
        summary: 'Financial reports filed',
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FormatQuery,
        response: {
          200: listEnvelope('FundamentalsRow', 'reports, as the portal lists them'),
          ...errorResponses({ 404: 'unknown symbol' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await fundamentals(datasets, req.params.symbol, contextOf(req));
      const symbol = req.params.symbol.toUpperCase();
      return respond.send(req, reply, answer, {
        filename: `${symbol}-fundamentals`,
      });
    },
  );
}
