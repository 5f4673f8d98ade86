// The market-wide feeds outside /market: announcements, the debt market and the other boards
// (docs/market-feeds.md; payouts and the calendar: market/feeds.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { checkRange } from '../../market/feeds/date-range.ts';
import { board } from '../../market/feeds/boards.ts';
import { debtInstruments, debtQuote } from '../../market/feeds/debt.ts';
import { FeedDatasets } from '../../market/feeds/feed-datasets.ts';
import { DEFAULT_ANNOUNCEMENTS_LIMIT, marketAnnouncements } from '../../market/feeds/market-announcements.ts';
import { BOARD_NAMES, BoardQuote, DebtInstrument, MarketAnnouncement } from '../../market/models/feeds.ts';
import {
  columnsOf,
  errorResponses,
  listEnvelope,
  MissingMeta,
  query,
  singleEnvelope,
  SymbolParam,
} from '../pipeline/schemas.ts';
import { AnnouncementParameters } from './feed-parameters.ts';
import type { RouteDeps } from './deps.ts';

export const RANGE_400 = 'from is after to, or the range is longer than one year (366 days)';

export function feedRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { respond, contextOf } = deps;
  const feeds = new FeedDatasets(deps.datasets);

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
