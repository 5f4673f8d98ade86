// The market's payouts and meetings calendar over a date range (docs/market-feeds.md).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { dateRange } from '../../../market/feeds/date-range.ts';
import { FeedDatasets } from '../../../market/feeds/feed-datasets.ts';
import { MAX_PAYOUT_PAGES, marketPayouts } from '../../../market/feeds/market-payouts.ts';
import { meetings } from '../../../market/feeds/meetings.ts';
import {
  MarketPayout,
  Meeting,
  PayoutsFromArchive,
  PayoutsTradingDays,
} from '../../../market/models/feeds.ts';
import { columnsOf, errorResponses, listEnvelope, query } from '../../pipeline/schemas.ts';
import { CalendarParameters, PayoutsCoverage, PayoutsParameters } from '../feed-parameters.ts';
import type { RouteDeps } from '../deps.ts';
import { RANGE_400 } from '../feeds.ts';

export function marketFeedRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { respond, contextOf } = deps;
  const feeds = new FeedDatasets(deps.datasets);
  const now = deps.marketClock.now;

  r.get(
    '/market/payouts',
    {
      schema: {
        operationId: 'listMarketPayouts',
        summary: 'Dividends, bonus and right issues announced across the market',
        description: `Every entitlement the portal's payouts page lists with an announcement day in [from, to] (default: the 30 days to today; at most one year), newest announcement first; one row per entitlement (a cell announcing two gives two rows). ex_date and last_day_to_buy follow the settlement cycle in force (T+1 for trades from 2025-02-10, T+2 before) over the exchange's trading days as the archive knows them (a holiday moves them), weekdays where the archive does not reach (meta.trading_days says how many rows). amount_per_share assumes the face value in meta.coverage.face_value (Rs 10). An announcement the service cannot read keeps its text in raw, with kind and percent null, and is kept whatever kind is asked. At most ${MAX_PAYOUT_PAGES} portal pages per request; meta.coverage says whether every row of the range was read (complete) and, if not, what is missing. Every row read is kept in the archive; rows the portal no longer has (older than its window) or cannot give now (a failure) are served from it, and meta.archive says which.`,
        tags: ['market'],
        querystring: query(PayoutsParameters),
        response: {
          200: listEnvelope('MarketPayout', 'entitlements, newest announcement first', {
            coverage: PayoutsCoverage,
            trading_days: Type.Optional(PayoutsTradingDays),
            archive: Type.Optional(PayoutsFromArchive),
          }),
          ...errorResponses({ 400: RANGE_400 }),
        },
      },
    },
    async (req, reply) => {
      const { from, to, kind, symbol } = req.query;
      const range = dateRange(from, to, now(), 30, 'past');
      const kept = deps.archive ? { archive: deps.archive, now: now() } : undefined;
      const answer = await marketPayouts(feeds, { ...range, kind, symbol }, contextOf(req), kept);
      return respond.send(req, reply, answer, {
        filename: 'market-payouts',
        columns: columnsOf(MarketPayout),
      });
    },
  );

  r.get(
    '/market/calendar',
    {
      schema: {
        operationId: 'listMeetings',
        summary: 'Company meetings (AGM, EOGM)',
        description:
          'Meetings with a date in [from, to] (default: today and the 30 days after; at most one year), in date and time order. One symbol can hold an AGM and an EOGM on the same day.',
        tags: ['market'],
        querystring: query(CalendarParameters),
        response: {
          200: listEnvelope('Meeting', 'meetings in date order'),
          ...errorResponses({ 400: RANGE_400 }),
        },
      },
    },
    async (req, reply) => {
      const { from, to, type, symbol } = req.query;
      const range = dateRange(from, to, now(), 30, 'future');
      const answer = await meetings(feeds, { ...range, type, symbol }, contextOf(req));
      return respond.send(req, reply, answer, { filename: 'calendar', columns: columnsOf(Meeting) });
    },
  );
}
