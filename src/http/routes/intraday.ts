// Today's series for a stock or an index (or a past day's, from the archive).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pastIntraday } from '../../market/archive-answers.ts';
import { resolveIndexCode } from '../../market/indices.ts';
import { clientText, NotFoundError } from '../../errors.ts';
import { karachiDate } from '../../time/market-clock.ts';
import { indexIntraday, INTERVALS, stockIntraday } from '../../market/intraday.ts';
import { columnsOf, errorResponses, IndexNameParam, listEnvelope, query, SymbolParam } from '../schemas.ts';
import { IntradayBar } from '../../market/models-intraday.ts';
import type { RouteDeps } from './deps.ts';

const IntradayQuery = query({
  date: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'a past day, YYYY-MM-DD: what the archive kept of it (docs/archive.md): 404 for a day it did not record. Absent or today: today from the exchange',
    }),
  ),
  interval: Type.Optional(
    Type.Enum([...INTERVALS], {
      description:
        'tick: every print, oldest first; 1m…60m: OHLCV bars on the Karachi clock (a 60m bar starts on the hour), only for intervals with prints. Default 5m.',
    }),
  ),
});

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

export function intradayRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const now = deps.marketClock.now;
  /** A date before today reads the archive; today (or none) the exchange's series. */
  const past = (date: string | undefined): string | undefined =>
    date !== undefined && deps.archive !== undefined && date < karachiDate(now()) ? date : undefined;

  r.get(
    '/stocks/:symbol/intraday',
    {
      schema: {
        operationId: 'listIntraday',
        summary: "Today's prints or bars",
        description:
          "Today's trades from the exchange's intraday series: with interval=tick one row per print {time, price, volume}, oldest first; otherwise {time, open, high, low, close, volume, trades} bars. Fresh for CACHE_INTRADAY_TTL (15 minutes) while the market is open, until the next open when it is closed; an empty list before the first print of the day.",
        tags: ['stocks'],
        params: SymbolParam,
        querystring: IntradayQuery,
        response: {
          200: listEnvelope(
            Type.Union([ref('StockTick'), ref('IntradayBar')]),
            'prints (interval=tick) or bars, oldest first',
          ),
          ...errorResponses({ 404: 'unknown symbol' }),
        },
      },
    },
    async (req, reply) => {
      const interval = req.query.interval ?? '5m';
      const symbol = req.params.symbol.toUpperCase();
      const day = past(req.query.date);
      const answer = day
        ? await pastIntraday(deps.archive!, 'stock', symbol, day, interval, now())
        : await stockIntraday(datasets, symbol, interval, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `${symbol}-intraday-${interval}`,
        columns: interval === 'tick' ? ['time', 'price', 'volume'] : columnsOf(IntradayBar),
      });
    },
  );

  r.get(
    '/indices/:name/intraday',
    {
      schema: {
        operationId: 'listIndexIntraday',
        summary: "An index's ticks or bars today",
        description:
          'The exchange serves an intraday series for index codes (about one tick every 15 s): interval=tick gives {time, value, volume}; bars as for a stock. 404 for an unknown index, or one the exchange has no series for.',
        tags: ['indices'],
        params: IndexNameParam,
        querystring: IntradayQuery,
        response: {
          200: listEnvelope(
            Type.Union([ref('IndexTick'), ref('IntradayBar')]),
            'ticks (interval=tick) or bars, oldest first',
          ),
          ...errorResponses({ 404: 'unknown index, or no intraday series for it' }),
        },
      },
    },
    async (req, reply) => {
      const interval = req.query.interval ?? '5m';
      const code = req.params.name.toUpperCase();
      const day = past(req.query.date);
      const resolved = day ? resolveIndexCode(req.params.name) : undefined;
      if (day && !resolved) throw new NotFoundError(`index ${clientText(req.params.name)} not found`);
      const answer = day
        ? await pastIntraday(deps.archive!, 'index', resolved!, day, interval, now())
        : await indexIntraday(datasets, req.params.name, interval, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `${code}-intraday-${interval}`,
        columns: interval === 'tick' ? ['time', 'value', 'volume'] : columnsOf(IntradayBar),
      });
    },
  );
}
