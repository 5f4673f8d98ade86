// The overviews: a symbol's page and the market's page, each in one request (src/market/*-overview.ts).
// As CSV an overview is its main list: a symbol's daily bars, the market's index levels.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HistoricalRow } from '../../../market/models/resources.ts';
import { stockOverview, type StockOverviewT } from '../../../market/overview/stock-overview.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  MissingMeta,
  singleEnvelope,
  SymbolParam,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

export const PARTS =
  'Each part is settled on its own and carries `{data, as_of, error}`: a part that could not be had (this client’s budget of exchange fetches spent, the portal down with nothing cached, a page that could not be read) has `data: null` and an `error` in the envelope’s terms with `retry_at`, when it is worth asking again; the rest is served, so an overview is never refused as a whole for one part (only the request limit itself answers 429). An answer with a missing part is fresh only until its `retry_at`.';

const HISTORY_SOURCE =
  'where `history` came from: `portal` (the symbol’s history page, cached or fetched) or `archive` (ARCHIVE=on: the archive held the symbol’s bars through the last closed session, so no portal fetch was spent; `history.as_of` is that session’s close). When the page cannot be had now (this client’s budget spent, the portal down) and the archive is behind, its older bars are served as `archive` with `X-Cache: STALE`, their own `as_of`, and `meta.missing` naming the sessions not known (docs/archive.md)';

export function stockOverviewRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const clock = deps.marketClock;

  r.get(
    '/stocks/:symbol/overview',
    {
      schema: {
        operationId: 'getStockOverview',
        summary: 'Everything about a symbol in one request',
        description: `The quote (with the company page's circuit breaker, 52-week range and bid/ask: a cold company page is waited for up to 1.5 s), profile, the last 365 days of daily bars, today's 5-minute bars, corporate actions, the newest 10 announcements, annual financials and the filed reports, and the market state. ${PARTS} As CSV: the daily bars (the HistoricalRow columns).`,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('StockOverview', 'the overview; meta.as_of is the oldest of its parts', true, {
            history_source: Type.Union([Type.Literal('portal'), Type.Literal('archive')], {
              description: HISTORY_SOURCE,
            }),
            ...MissingMeta,
          }),
          ...errorResponses({ 404: 'unknown symbol' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await stockOverview(datasets, req.params.symbol, contextOf(req), clock, {
        archive: deps.archive,
      });
      return respond.send(req, reply, answer, {
        filename: `${answer.data.symbol}-overview-history`,
        columns: columnsOf(HistoricalRow),
        rows: (data) => (data as StockOverviewT).history.data ?? [],
      });
    },
  );
}
