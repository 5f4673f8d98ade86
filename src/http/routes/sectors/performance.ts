// Each sector's cap-weighted return over a period.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Period } from '../../../analytics/params.ts';
import { analyticsModules, lazyHistorySource } from '../../../market/analytics/lazy.ts';
import { SectorReturn } from '../../../market/models/analytics.ts';
import { columnsOf, errorResponses, listEnvelope, MissingMeta, query } from '../../pipeline/schemas.ts';
import { karachiDate } from '../../../time/market-clock.ts';
import type { RouteDeps } from '../deps.ts';
import { EndParam } from '../stocks/analytics.ts';
import { coverage, PeriodParam } from '../market/performance.ts';

export function sectorPerformanceRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, marketClock } = deps;
  const members = deps.memberSeries ?? lazyHistorySource(datasets);

  r.get(
    '/sectors/performance',
    {
      schema: {
        operationId: 'listSectorPerformance',
        summary: "Each sector's cap-weighted return over a period",
        description:
          'One row per sector of the sector page, ranked by its cap-weighted return over `period`: (Σ cap_i / Σ (cap_i / (1 + r_i)) − 1) × 100, r_i each member’s return on adjusted closes, cap_i its market cap today from the screener, over the members with both. meta.coverage says how many members had data. With `end`, each member’s series is cut there, the period ends on it and cap_i is its cap at end in today’s shares (today’s cap × its adjusted close at end ÷ its last). A delisted equity has no cap, so return_pct is over listed members only; beside it, with the archive on, each row counts the members that traded at the period’s start with the sector’s equities of the start day’s closing file delisted since (members_at_start, delisted_members) and gives their equal-weighted and median returns (delisted ones on raw closes to their last close); meta.coverage.membership says whether the delisted are included.',
        tags: ['sectors'],
        querystring: query({ period: PeriodParam, end: EndParam }),
        response: {
          200: listEnvelope('SectorReturn', 'sectors, highest return first', {
            period: Type.String(),
            coverage,
            ...MissingMeta,
          }),
          ...errorResponses({ 400: 'end after today' }),
        },
      },
    },
    async (req, reply) => {
      const period = (req.query.period ?? '1M') as Period;
      const { end } = req.query;
      const { checkEnd, sectorPerformance } = await analyticsModules();
      if (end !== undefined) checkEnd(end, karachiDate(marketClock.now()));
      const answer = await sectorPerformance(datasets, members, period, contextOf(req), end, deps.archive);
      return respond.send(req, reply, answer, {
        filename: `sectors-performance-${period}`,
        columns: columnsOf(SectorReturn),
      });
    },
  );
}
