// Many quotes in one call.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { emptyParameter, invalidValue, ValidationError } from '../../errors.ts';
import { MAX_BATCH_SYMBOLS, quotes } from '../../market/quotes/quotes.ts';
import {
  columnsOf,
  errorResponses,
  listEnvelope,
  MissingMeta,
  query,
  SymbolParam,
} from '../pipeline/schemas.ts';
import { Quote } from '../../market/models/resources.ts';
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

export function quoteRoutes(app: FastifyInstance, deps: RouteDeps): void {
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
}
