// Many quotes in one call, and the market at a glance.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { emptyParameter, invalidValue, ValidationError } from '../../errors.ts';
import { breadth, MOVER_KINDS, movers } from '../../market/movers-breadth.ts';
import { MAX_BATCH_SYMBOLS, quotes } from '../../market/quotes.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  query,
  singleEnvelope,
  SymbolParam,
  MissingMeta,
} from '../schemas.ts';
import { Quote } from '../../market/models.ts';
import { Breadth, Mover } from '../../market/models-intraday.ts';
import type { RouteDeps } from './deps.ts';

const SYMBOL = new RegExp((SymbolParam.properties.symbol as unknown as { pattern: string }).pattern);

/**
 * `ENGRO,hbl, ENGRO` → `['ENGRO', 'HBL']`: upper-cased, each once, in the order given. No symbols
 * is an empty parameter (400); too many, or one that cannot be a symbol, a wrong value (422).
 */
export function symbolList(raw: string): string[] {
  const symbols = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter((s) => s !== ''),
    ),
  ];
  if (symbols.length === 0)
    throw emptyParameter('symbols', 'give at least one symbol, e.g. symbols=ENGRO,HBL');
  if (symbols.length > MAX_BATCH_SYMBOLS) {
    throw new ValidationError(
      `symbols must name at most ${MAX_BATCH_SYMBOLS} symbols per request (got ${symbols.length})`,
    );
  }
  const bad = symbols.find((s) => !SYMBOL.test(s));
  if (bad !== undefined) {
    throw invalidValue('symbols', 'symbols of 1–25 letters, digits, ".", "&" or "-", comma-separated', bad);
  }
  return symbols;
}

export const SymbolsQuery = Type.Object(
  {
    symbols: Type.String({
      minLength: 1,
      maxLength: 2_700,
      description: `a comma-separated list of up to ${MAX_BATCH_SYMBOLS} symbols, case-insensitive (duplicates count once), e.g. symbols=ENGRO,HBL`,
    }),
  },
  { additionalProperties: false },
);

export function boardRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/quotes',
    {
      schema: {
        operationId: 'listQuotes',
        summary: 'Quotes of many symbols',
        description:
          'The quote of each symbol asked, in the order asked, each once, built from the same two cached exchange pages as the single quote (one exchange fetch per page however many symbols). Symbols the exchange does not list are named in meta.not_found instead of failing the call. The extras follow the single quote: null while a symbol’s company page is on its way (the batch is then cacheable for seconds only), and meta.missing names `extras` with the symbol and why when its fetch failed.',
        tags: ['stocks'],
        querystring: query(SymbolsQuery.properties),
        response: {
          200: listEnvelope('Quote', 'quotes in the order asked', {
            not_found: Type.Array(Type.String(), {
              description: 'symbols asked for that the exchange does not list',
            }),
            ...MissingMeta,
          }),
          ...errorResponses(),
        },
      },
    },
    async (req, reply) => {
      const symbols = symbolList(req.query.symbols);
      const answer = await quotes(datasets, symbols, contextOf(req));
      return respond.send(req, reply, answer, { filename: 'quotes', columns: columnsOf(Quote) });
    },
  );

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
        response: { 200: singleEnvelope('Breadth', 'market breadth'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await breadth(datasets, contextOf(req)), {
        filename: 'breadth',
        columns: columnsOf(Breadth),
      }),
  );
}
