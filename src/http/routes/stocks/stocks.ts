import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fundamentals } from '../../../market/company/fundamentals.ts';
import { quote } from '../../../market/quotes/quotes.ts';
import { SEARCH_LIMIT, searchStocks } from '../../../market/listings/search.ts';
import { listStocks } from '../../../market/listings/stocks.ts';
import { FundamentalsRow, Quote, StockMatch } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  MissingMeta,
  query,
  singleEnvelope,
  SymbolParam,
  SYMBOL_COLUMNS,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export function stockRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/stocks',
    {
      schema: {
        operationId: 'listStocks',
        summary: 'Listed symbols',
        tags: ['stocks'],
        querystring: query({
          index: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 40,
              description: "only this index's constituents, e.g. KSE100 (not empty)",
            }),
          ),
          q: Type.Optional(
            Type.String({
              maxLength: 50,
              description: `search symbols and company names (case-insensitive): then the list is {symbol, name, sector} objects, best matches first (exact symbol, symbol prefix, name prefix, name word prefix, substrings), at most ${SEARCH_LIMIT}`,
            }),
          ),
        }),
        response: {
          200: listEnvelope(
            Type.Union([Type.String(), Type.Unsafe({ $ref: 'StockMatch#' })]),
            'symbols (tickers); with q, matches as {symbol, name, sector}',
          ),
          ...errorResponses({ 400: 'q is empty', 404: 'unknown index' }),
        },
      },
    },
    async (req, reply) => {
      const { index, q } = req.query;
      if (q !== undefined) {
        const found = await searchStocks(datasets, q, contextOf(req));
        return respond.send(req, reply, found, {
          filename: 'stocks-search',
          columns: columnsOf(StockMatch),
        });
      }
      const answer = await listStocks(datasets, contextOf(req), index);
      return respond.send(req, reply, answer, {
        filename: index ? `stocks-${index.toUpperCase().replace(/[^A-Z0-9]+/g, '-')}` : 'stocks',
        columns: SYMBOL_COLUMNS,
      });
    },
  );

  r.get(
    '/stocks/:symbol/quote',
    {
      schema: {
        operationId: 'getQuote',
        summary: "A symbol's quote",
        description:
          'Joins the screener and the market watch; the extras (circuit breaker, ranges, bid/ask, VaR, haircut, YTD change) come from the company page, fetched in the background and null until it arrives. When that fetch failed, meta.missing names `extras` and why.',
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('Quote', 'the quote', true, MissingMeta),
          ...errorResponses({ 404: 'SYMBOL not found' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await quote(datasets, req.params.symbol, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `${answer.data.symbol}-quote`,
        columns: columnsOf(Quote),
      });
    },
  );

  r.get(
    '/stocks/:symbol/fundamentals',
    {
      schema: {
        operationId: 'listFundamentals',
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
        columns: columnsOf(FundamentalsRow),
      });
    },
  );
}
