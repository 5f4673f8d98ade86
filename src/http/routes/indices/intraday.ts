// An index's series today (or a past day's, from the archive), as a stock's (stocks/intraday.ts).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pastIntraday } from '../../../market/whole-market/answers.ts';
import { resolveIndexCode } from '../../../market/listings/indices.ts';
import { clientText, NotFoundError } from '../../../errors.ts';
import { indexIntraday } from '../../../market/history/intraday.ts';
import { IntradayBar } from '../../../market/models/intraday.ts';
import { columnsOf, errorResponses, IndexNameParam, listEnvelope } from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';
import { IntradayQuery, pastDay, ref } from '../stocks/intraday.ts';

export function indexIntradayRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;
  const now = deps.marketClock.now;
  const past = pastDay(deps);

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
