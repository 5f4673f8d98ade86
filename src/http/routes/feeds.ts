// The market-wide feeds: payouts, meetings, announcements, the debt market and the other boards
// (docs/market-feeds.md).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { dateRange, checkRange } from '../../market/date-range.ts';
import { board } from '../../market/boards.ts';
import { debtInstruments, debtQuote } from '../../market/debt.ts';
import { FeedDatasets } from '../../market/feed-datasets.ts';
import { DEFAULT_ANNOUNCEMENTS_LIMIT, marketAnnouncements } from '../../market/market-announcements.ts';
import { MAX_PAYOUT_PAGES, marketPayouts } from '../../market/market-payouts.ts';
import { meetings } from '../../market/meetings.ts';
import {
  BOARD_NAMES,
  BoardQuote,
  DebtInstrument,
  MarketAnnouncement,
  MarketPayout,
  Meeting,
  PayoutsFromArchive,
  PayoutsTradingDays,
} from '../../market/models-feeds.ts';
import {
  columnsOf,
  errorResponses,
  listEnvelope,
  MissingMeta,
  query,
  singleEnvelope,
  SymbolParam,
} from '../schemas.ts';
import {
  AnnouncementParameters,
  CalendarParameters,
  PayoutsCoverage,
  PayoutsParameters,
} from '../feed-parameters.ts';
import type { RouteDeps } from './deps.ts';

const RANGE_400 = 'from is after to, or the range is longer than one year (366 days)';

export function feedRoutes(app: FastifyInstance, deps: RouteDeps): void {
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

  r.get(
    '/announcements',
    {
      schema: {
        operationId: 'listMarketAnnouncements',
        summary: 'Announcements across the exchange',
        description:
          'The portal’s announcement search, newest first: companies (default), psx, secp, cdc or nccpl notices; q searches titles. One page per request: meta.next is the path of the next page (with an opaque cursor), null on the last; meta.total is the number of matches the portal reports. The portal may give fewer rows than limit. document_url is absolute; image_only marks announcements with images and no PDF; revoked marks those the portal tags REVOKED.',
        tags: ['market'],
        querystring: query(AnnouncementParameters),
        response: {
          200: listEnvelope('MarketAnnouncement', 'announcements, newest first', {
            next: Type.Union([Type.String(), Type.Null()], {
              description: 'path of the next page, null on the last',
            }),
            total: Type.Integer({ description: 'matches the portal reports' }),
          }),
          ...errorResponses({
            400: `${RANGE_400}; symbol with a type other than companies; a cursor this service did not give`,
          }),
        },
      },
    },
    async (req, reply) => {
      const { q, symbol, type, from, to, limit, cursor } = req.query;
      if (from !== undefined && to !== undefined) checkRange(from, to);
      const answer = await marketAnnouncements(
        feeds,
        {
          type: type ?? 'companies',
          q,
          symbol,
          from,
          to,
          limit: limit ?? DEFAULT_ANNOUNCEMENTS_LIMIT,
          cursor,
        },
        contextOf(req),
      );
      return respond.send(req, reply, answer, {
        filename: 'announcements',
        columns: columnsOf(MarketAnnouncement),
      });
    },
  );

  r.get(
    '/debt',
    {
      schema: {
        operationId: 'listDebtInstruments',
        summary: 'The debt market: government securities, corporate TFCs and sukuks',
        description:
          'Every instrument of the portal’s debt-market page in page order: its four tables, government securities first, then corporate issues (table 1–4). Issue sizes in PKR (the page prints 53.71B), coupon rates in percent; names as printed (the portal cuts some short).',
        tags: ['market'],
        querystring: query({}),
        response: { 200: listEnvelope('DebtInstrument', 'instruments in page order'), ...errorResponses() },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await debtInstruments(feeds, contextOf(req)), {
        filename: 'debt',
        columns: columnsOf(DebtInstrument),
      }),
  );

  r.get(
    '/debt/:code/quote',
    {
      schema: {
        operationId: 'getDebtQuote',
        summary: 'A debt instrument’s quote on the bills and bonds board',
        description:
          'The bills-and-bonds board’s row for the code (bid, offer, yields, last price and yield, LDCP, LDCY, volume; zeros where nothing is bid, offered or traded), named from the debt-market page (when that page cannot be had, the board’s name and meta.missing `debt_market`). 404 when the code is not on the debt market, or the board has no row for it today (the message says which). A debt symbol’s /stocks/{symbol}/quote 404 points here.',
        tags: ['market'],
        params: Type.Object({
          code: Type.String({
            ...SymbolParam.properties.symbol,
            description: 'security code as GET /debt lists it (e.g. BAFLTFC8)',
          }),
        }),
        querystring: query({}),
        response: {
          200: singleEnvelope('DebtQuote', 'the board’s row', true, MissingMeta),
          ...errorResponses({ 404: 'not on the debt market, or no quote on the board today' }),
        },
      },
    },
    async (req, reply) => {
      const answer = await debtQuote(feeds, req.params.code, contextOf(req));
      return respond.send(req, reply, answer, { filename: `${answer.data.code}-debt-quote`, columns: [] });
    },
  );

  r.get(
    '/boards/:board',
    {
      schema: {
        operationId: 'getBoard',
        summary:
          'The other markets’ boards: futures, cash-settled futures, index futures, odd lot, bills and bonds',
        description:
          'Every symbol the eligible-scrips page lists for the board’s market (eligible=true), with the board’s row when it has one today (on_board), then any board row the eligible list does not name (eligible=false). Futures symbols carry their contract month (`ENGRO-DEC`). Either page may fail alone: without the board page the eligible symbols are served with null prices and on_board null (meta.missing `board`); without the eligible-scrips page the board’s rows are served with eligible null (meta.missing `eligible_scrips`). Only when both fail does the request fail.',
        tags: ['market'],
        params: Type.Object({ board: Type.Enum(BOARD_NAMES, { description: 'which board' }) }),
        querystring: query({}),
        response: {
          200: listEnvelope('BoardQuote', 'eligible symbols, then other rows', MissingMeta),
          ...errorResponses(),
        },
      },
    },
    async (req, reply) =>
      respond.send(req, reply, await board(feeds, req.params.board, contextOf(req)), {
        filename: `board-${req.params.board}`,
        columns: columnsOf(BoardQuote),
      }),
  );
}
