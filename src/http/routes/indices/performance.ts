// An index's performance: a stock's table (stocks/analytics.ts) over the index's daily levels.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Performance } from '../../../market/models/analytics.ts';
import { analyticsModules } from '../../../market/analytics/lazy.ts';
import { columnsOf, errorResponses, query, singleEnvelope } from '../../pipeline/schemas.ts';
import { karachiDate } from '../../../time/market-clock.ts';
import type { RouteDeps } from '../deps.ts';
import { EndParam, PERFORMANCE_DESCRIPTION } from '../stocks/analytics.ts';

export function indexPerformanceRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, marketClock } = deps;

  r.get(
    '/indices/:name/performance',
    {
      schema: {
        operationId: 'getIndexPerformance',
        summary: "An index's returns, volatility, drawdown and 52-week range",
        description: `The same table as a stock's performance from the index's daily levels (no adjustment, no benchmark; the 52-week range reads closes, as the daily index series has no high or low).\n\n${PERFORMANCE_DESCRIPTION.split(
          '\n\n',
        )
          .filter((p) => !/Benchmark|Total return|beta_1y|Computed/.test(p))
          .join('\n\n')}`,
        tags: ['indices'],
        params: Type.Object({ name: Type.String({ maxLength: 40 }) }),
        querystring: query({ end: EndParam }),
        response: {
          200: singleEnvelope('Performance', 'the performance table'),
          ...errorResponses({
            400: 'end after today',
            404: 'unknown index; no daily level on or before end',
          }),
        },
      },
    },
    async (req, reply) => {
      const { end } = req.query;
      const { checkEnd, indexPerformance } = await analyticsModules();
      if (end !== undefined) checkEnd(end, karachiDate(marketClock.now()));
      const answer = await indexPerformance(datasets, req.params.name, contextOf(req), end);
      return respond.send(req, reply, answer, {
        filename: `index-${answer.data.index}-performance`,
        columns: columnsOf(Performance),
      });
    },
  );
}
