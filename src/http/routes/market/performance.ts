// An index's or a sector's members ranked by return over a period.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PERIODS, type Period } from '../../../analytics/params.ts';
import { BadRequestError } from '../../../errors.ts';
import { analyticsModules, lazyHistorySource } from '../../../market/analytics/lazy.ts';
import { MemberReturn, PERIOD_DESCRIPTION } from '../../../market/models/analytics.ts';
import { columnsOf, errorResponses, listEnvelope, query } from '../../pipeline/schemas.ts';
import { karachiDate } from '../../../time/market-clock.ts';
import type { RouteDeps } from '../deps.ts';
import { EndParam } from '../stocks/analytics.ts';

export const PeriodParam = Type.Optional(
  Type.Enum([...PERIODS], { description: `the period (default 1M). ${PERIOD_DESCRIPTION}` }),
);
export const coverage = Type.Object(
  {
    members: Type.Integer({ description: 'members asked for' }),
    with_data: Type.Integer({ description: 'members whose daily series could be had' }),
    missing: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
      description: 'members without a series and why (not fetched once the exchange-fetch budget is spent)',
    }),
    raw: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
      description:
        'members with data whose closes are raw, and why: no adjusted series could be had (a right’s ticker has none), so their returns are not adjusted for capital changes',
    }),
    sources: Type.Optional(
      Type.Object(
        {
          archive: Type.Integer({ description: 'members whose adjusted closes came from the archive' }),
          portal: Type.Integer({
            description: 'members whose series came from their own cached history (the portal)',
          }),
        },
        {
          description: 'members with data, by where their series came from (present when the archiver is on)',
        },
      ),
    ),
    membership: Type.Optional(
      Type.Object(
        {
          delisted_included: Type.Boolean({
            description:
              'true: the equities of the period’s start day’s closing file delisted since are among the members (marked delisted: true); false: the members are today’s only, so the answer leans to the survivors (note says why)',
          }),
          delisted: Type.Integer({ description: 'delisted equities included (0 when not included)' }),
          start_day: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
            description: 'the closing file the start day’s equities were read from; null when none was read',
          }),
          note: Type.String({ description: 'the same in a sentence' }),
          unplaced: Type.Optional(
            Type.Array(Type.Object({ symbol: Type.String(), sector_code: Type.String() }), {
              description:
                '/sectors/performance: the delisted equities included whose sector code is no longer on the sector page, so they count in no row',
            }),
          ),
        },
        {
          description:
            'survivorship: whether equities delisted since the period’s start are included. On /market/performance with end= (the sector’s or ALLSHR’s start-day equities are included when the archive holds that day’s file; any other index’s past membership is not published, so its members are today’s); on /sectors/performance always',
        },
      ),
    ),
  },
  {
    description:
      'how many members had data and from where: with the archiver on, each member the archive holds (its bars and corporate actions) is read from it; the rest from its own cached history (fetched within the portal budget). A partial answer is kept only a minute, so the missing members are asked for again',
  },
);

export function marketPerformanceRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf, marketClock } = deps;
  const members = deps.memberSeries ?? lazyHistorySource(datasets);

  r.get(
    '/market/performance',
    {
      schema: {
        operationId: 'listMarketPerformance',
        summary: "An index's or a sector's members ranked by return over a period",
        description:
          'Members of `index` (default KSE100) or of `sector` (a code such as 0801 or a name), ranked by return_pct over `period`, highest first (members without a return last, rank null), each with the shares traded over the period; meta.index_return is the index’s own return over the period (from its daily levels), meta.coverage how many members had data. Returns are on adjusted closes, as /stocks/{symbol}/performance. With `end`, every series is cut there and the period ends on it (today’s members; one without a close by then is in meta.coverage.missing). With `end` and `sector` (or index=ALLSHR, which holds every listed share) and the archive on, the equities of the period’s start day’s closing file (GET /market/universe) of that sector (of every sector) delisted since are ranked too, marked delisted: true, on their raw closes from the start day to their last close. Past membership of any other index (KSE100, the default, included) is not published: its ranking is of today’s members, and meta.coverage.membership says so.',
        tags: ['market'],
        querystring: query({
          period: PeriodParam,
          index: Type.Optional(
            Type.String({ minLength: 1, maxLength: 40, description: 'an index code (default KSE100)' }),
          ),
          sector: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 60,
              description: 'a sector code (0801) or name, instead of index',
            }),
          ),
          end: EndParam,
        }),
        response: {
          200: listEnvelope('MemberReturn', 'members, highest return first', {
            period: Type.String(),
            index_return: Type.Optional(
              Type.Object(
                {
                  index: Type.String(),
                  return_pct: Type.Union([Type.Number(), Type.Null()]),
                  start_date: Type.Union([Type.String(), Type.Null()]),
                  end_date: Type.Union([Type.String(), Type.Null()]),
                  reason: Type.Union([Type.String(), Type.Null()]),
                },
                { description: "the index's own return over the period" },
              ),
            ),
            coverage,
          }),
          ...errorResponses({
            400: 'both index and sector; end after today',
            404: 'unknown index or sector',
          }),
        },
      },
    },
    async (req, reply) => {
      const { index, sector } = req.query;
      if (index !== undefined && sector !== undefined) {
        throw new BadRequestError('give index or sector, not both');
      }
      const period = (req.query.period ?? '1M') as Period;
      const { end } = req.query;
      const { checkEnd, marketPerformance } = await analyticsModules();
      if (end !== undefined) checkEnd(end, karachiDate(marketClock.now()));
      const answer = await marketPerformance(
        datasets,
        members,
        { period, index, sector, end, archive: deps.archive },
        contextOf(req),
      );
      return respond.send(req, reply, answer, {
        filename: `market-performance-${period}`,
        columns: columnsOf(MemberReturn),
      });
    },
  );
}
