// Today's series for a stock or an index (or a past day's, from the archive).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pastIntraday } from '../../../market/whole-market/answers.ts';
import { karachiDate } from '../../../time/market-clock.ts';
import { INTERVALS, stockIntraday } from '../../../market/history/intraday.ts';
import { columnsOf, errorResponses, listEnvelope, query, SymbolParam } from '../../pipeline/schemas.ts';
import { IntradayBar } from '../../../market/models/intraday.ts';
import type { RouteDeps } from '../deps.ts';

export const IntradayQuery = query({
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

export const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });

/** A date before today reads the archive; today (or none) the exchange's series. */
export function pastDay(deps: RouteDeps): (date: string | undefined) => string | undefined {
  const now = deps.marketClock.now;
  return (date) =>
    date !== undefined && deps.archive !== undefined && date < karachiDate(now()) ? date : undefined;
}

export function stockIntradayRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const now = deps.marketClock.now;
  const past = pastDay(deps);

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
}
