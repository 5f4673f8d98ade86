// GET /stocks/{symbol}/historical: a symbol's daily rows, raw or adjusted; a symbol no longer
// listed from the exchange's closing files.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  adjustedHistorical,
  parseAdjustedFlags,
} from '../../../market/corporate-actions/adjusted-history.ts';
import { historical } from '../../../market/history/history.ts';
import { delistedHistorical } from '../../../market/whole-market/answers.ts';
import { NotFoundError } from '../../../errors.ts';
import { AdjustmentMeta } from '../../../market/models/resources.ts';
import { AdjustedHistoricalRow, HistoricalRow } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  listEnvelope,
  MissingMeta,
  query,
  SymbolParam,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

const HistoricalQuery = query({
  start: Type.Optional(Type.String({ format: 'date', description: 'first day, inclusive, YYYY-MM-DD' })),
  end: Type.Optional(Type.String({ format: 'date', description: 'last day, inclusive, YYYY-MM-DD' })),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'asc (default): oldest first' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100_000, description: 'only the newest N rows of the range' }),
  ),
  adjusted: Type.Optional(
    Type.Boolean({
      description:
        '`true`: prices adjusted for the capital changes (bonus, right, split) the portal records and the raw prices confirm; each row gains adjustment_factor and meta.adjustment says how far the adjustment reaches. `false` (default): raw prices, as traded',
      examples: [true],
    }),
  ),
  dividends: Type.Optional(
    Type.Boolean({
      description:
        '`true` (with adjusted=true): also adjust for the cash dividends on the payouts page (about the last 17–18 months; meta.adjustment.dividends_from). `false` (default)',
    }),
  ),
});

export function stockHistoryRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/stocks/:symbol/historical',
    {
      schema: {
        operationId: 'listHistory',
        summary: 'Daily history',
        description:
          'One row per trading day over [start, end] (both optional; default: the whole history), oldest first unless order=desc. By default prices are as traded, not adjusted for corporate actions; is_anomaly flags suspect rows. With adjusted=true every row is an AdjustedHistoricalRow: open/high/low/close × adjustment_factor, volume ÷ adjustment_factor (rounded), ex-dates of confirmed capital changes carry the anomaly reason corporate_action, and meta.adjustment = {status: full|partial|unavailable, series_start: first day of the portal’s adjusted series, partial_before: rows before this date carry the factor known at series_start (capital changes before it are unknown), dividends: whether cash dividends are in the factors, dividends_from: oldest payouts announcement, reason: why the adjustment is unavailable or dividends are missing}. When the adjusted series is missing, empty or unreadable the rows stay raw with adjustment_factor null and the reason in meta (503 when nothing is cached and the exchange is down). When the adjusted series or (with dividends=true) the payouts page cannot be had, meta.missing also names the part left out (adjustment or dividends) and why.',
        tags: ['stocks'],
        params: SymbolParam,
        querystring: HistoricalQuery,
        response: {
          200: listEnvelope(
            Type.Union([
              Type.Unsafe({ $ref: 'HistoricalRow#' }),
              Type.Unsafe({ $ref: 'AdjustedHistoricalRow#' }),
            ]),
            'daily rows: HistoricalRow, or AdjustedHistoricalRow with adjusted=true',
            {
              adjustment: Type.Optional(AdjustmentMeta),
              ...MissingMeta,
              delisted: Type.Optional(
                Type.Boolean({
                  description:
                    "true: the exchange no longer lists the symbol; the rows are its bars in the exchange's daily closing files (raw: adjusted prices are unavailable)",
                }),
              ),
              source: Type.Optional(Type.Literal('daily_files')),
              last_traded: Type.Optional(
                Type.Union([Type.String({ format: 'date' }), Type.Null()], {
                  description: 'a delisted symbol: the last day a closing file carried it',
                }),
              ),
            },
          ),
          ...errorResponses({
            400: 'start is after end; dividends=true without adjusted=true',
            404: 'a symbol neither listed nor in any archived closing file',
          }),
        },
      },
    },
    async (req, reply) => {
      const { start, end, order, limit } = req.query;
      const symbol = req.params.symbol.toUpperCase();
      const flags = parseAdjustedFlags(req.query.adjusted, req.query.dividends);
      const range = { start, end, order, limit };
      const answer = await (
        flags.adjusted
          ? adjustedHistorical(datasets, symbol, { ...range, dividends: flags.dividends }, contextOf(req))
          : historical(datasets, symbol, range, contextOf(req))
      ).catch(async (err: unknown) => {
        // A symbol no longer listed: its rows from the exchange's closing files (docs/archive.md).
        const delisted =
          err instanceof NotFoundError && deps.archive
            ? await delistedHistorical(
                deps.archive,
                symbol,
                { ...range, adjusted: flags.adjusted },
                deps.marketClock.now(),
              )
            : undefined;
        if (delisted === undefined) throw err;
        return delisted;
      });
      return respond.send(req, reply, answer, {
        filename: `${symbol}-historical`,
        columns: columnsOf(flags.adjusted ? AdjustedHistoricalRow : HistoricalRow),
      });
    },
  );
}
