// Many quotes in one call, and the market at a glance.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BadRequestError } from '../errors.ts';
import { breadth, MOVER_KINDS, movers } from '../market/board.ts';
import { MAX_BATCH_SYMBOLS, quotes } from '../market/quotes.ts';
import { errorResponses, FormatQuery, listEnvelope, singleEnvelope, SymbolParam } from '../server/schemas.ts';
import type { RouteDeps } from './deps.ts';

const SYMBOL = new RegExp((SymbolParam.properties.symbol as unknown as { pattern: string }).pattern);

/**
 * `ENGRO,hbl, ENGRO` → `['ENGRO', 'HBL']`: upper-cased, each once, in the order given. Throws a
 * 400 naming what is wrong: no symbols, too many, or one that cannot be a symbol.
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
    throw new BadRequestError('symbols must name at least one symbol, e.g. symbols=ENGRO,HBL');
  if (symbols.length > MAX_BATCH_SYMBOLS) {
    throw new BadRequestError(`at most ${MAX_BATCH_SYMBOLS} symbols per request, got ${symbols.length}`);
  }
  const bad = symbols.filter((s) => !SYMBOL.test(s));
  if (bad.length > 0) throw new BadRequestError(`not a symbol: ${bad.slice(0, 5).join(', ')}`);
  return symbols;
}

export const SymbolsQuery = Type.Object({
  symbols: Type.String({
    minLength: 1,
    maxLength: 2_700,
    description: `comma-separated symbols, case-insensitive, at most ${MAX_BATCH_SYMBOLS} (duplicates count once), e.g. ENGRO,HBL,LUCK`,
  }),
});

export async function boardRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/quotes',
    {
      schema: {
        summary: 'Quotes of many symbols',
        description:
          'The quote of each symbol asked, in the order asked, each once, built from the same two cached exchange pages as the single quote (one exchange fetch per page however many symbols). Symbols the exchange does not list are named in meta.not_found instead of failing the call.',
        tags: ['stocks'],
        querystring: Type.Object({ ...SymbolsQuery.properties, format: FormatQuery.properties.format }),
        response: {
          200: Type.Object(
            {
              data: Type.Array(Type.Unsafe({ $ref: 'Quote#' })),
              meta: Type.Object({
                timestamp: Type.String({
                  description: 'server time of the response, ISO 8601 with UTC offset',
                }),
                cached: Type.Boolean({ description: 'true when served from cache' }),
                count: Type.Integer({ description: 'number of items in data' }),
                not_found: Type.Array(Type.String(), {
                  description: 'symbols asked for that the exchange does not list',
                }),
              }),
            },
            { description: 'quotes in the order asked' },
          ),
          ...errorResponses({ 400: 'no symbols, more than 100, or a malformed one' }),
        },
      },
    },
    async (req, reply) => {
      const symbols = symbolList(req.query.symbols);
      const answer = await quotes(datasets, symbols, contextOf(req));
      return respond.send(req, reply, answer, `quotes:${symbols.join(',')}`, { filename: 'quotes' });
    },
  );

  r.get(
    '/market/movers',
    {
      schema: {
        summary: 'Top gainers, losers or most active',
        description:
          'From the cached market watch: gainers by change_pct (highest first, only rising symbols), losers by change_pct (lowest first, only falling ones), active by volume. Ties by symbol.',
        tags: ['market'],
        querystring: Type.Object({
          by: Type.Optional(
            Type.Union(
              MOVER_KINDS.map((k) => Type.Literal(k)),
              { description: 'gainers (default), losers or active' },
            ),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 10' })),
          format: FormatQuery.properties.format,
        }),
        response: { 200: listEnvelope('Mover', 'the movers, best first'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const by = req.query.by ?? 'gainers';
      const limit = req.query.limit ?? 10;
      const answer = await movers(datasets, by, limit, contextOf(req));
      return respond.send(req, reply, answer, `movers:${by}:${limit}`, { filename: `movers-${by}` });
    },
  );

  r.get(
    '/market/breadth',
    {
      schema: {
        summary: 'Advances, declines and totals',
        description:
          'Counted over the cached market watch (the regular board): symbols above, below and at LDCP, and the day’s total volume and value (Σ current × volume).',
        tags: ['market'],
        response: { 200: singleEnvelope('Breadth', 'market breadth'), ...errorResponses() },
      },
    },
    async (req, reply) => respond.send(req, reply, await breadth(datasets, contextOf(req)), 'breadth'),
  );
}
