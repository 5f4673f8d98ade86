import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ANNOUNCEMENT_CATEGORIES,
  announcements,
  FINANCIAL_PERIODS,
  financials,
  parseCategory,
  parsePeriod,
  profile,
} from '../../../market/company/company.ts';
import { Announcement, Profile } from '../../../market/models/resources.ts';
import {
  columnsOf,
  errorResponses,
  FormatQuery,
  listEnvelope,
  query,
  singleEnvelope,
  SymbolParam,
} from '../../pipeline/schemas.ts';
import type { RouteDeps } from '../deps.ts';

const FinancialsQuery = query({
  period: Type.Optional(
    Type.Enum([...FINANCIAL_PERIODS], { description: `${FINANCIAL_PERIODS.join(' or ')}; default annual` }),
  ),
});

const AnnouncementsQuery = query({
  category: Type.Optional(
    Type.Enum([...ANNOUNCEMENT_CATEGORIES], {
      description: `${ANNOUNCEMENT_CATEGORIES.join(', ')}; default all, newest first`,
    }),
  ),
});

const SOURCE =
  "From the portal's company page (GET /company/{SYM}), fetched once per symbol per freshness window for this endpoint, its siblings and the quote's extras.";

export function companyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, respond, contextOf } = deps;

  r.get(
    '/stocks/:symbol/profile',
    {
      schema: {
        operationId: 'getProfile',
        summary: 'Company profile',
        description: `${SOURCE} Market cap is converted from the page's thousands to PKR.`,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FormatQuery,
        response: {
          200: singleEnvelope('Profile', 'the profile'),
          ...errorResponses({
            404: 'unknown symbol, or the exchange has no company page for it',
            502: 'the company page could not be read (upstream_data_error)',
          }),
        },
      },
    },
    async (req, reply) => {
      const answer = await profile(datasets, req.params.symbol, contextOf(req));
      return respond.send(req, reply, answer, {
        filename: `${answer.data.symbol}-profile`,
        columns: columnsOf(Profile),
      });
    },
  );

  r.get(
    '/stocks/:symbol/financials',
    {
      schema: {
        operationId: 'listFinancials',
        summary: 'Annual or quarterly financials',
        description: `${SOURCE} One row per period as the page shows them, newest first; amounts in PKR (the page prints thousands), EPS in PKR a share; annual rows include the ratios. A listed symbol without financials gives an empty list.`,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: FinancialsQuery,
        response: {
          200: listEnvelope('FinancialsRow', 'periods'),
          ...errorResponses({
            400: `period is not one of ${FINANCIAL_PERIODS.join(', ')}`,
            404: 'unknown symbol, or the exchange has no company page for it',
            502: "the company page's financials could not be read (upstream_data_error)",
          }),
        },
      },
    },
    async (req, reply) => {
      const period = parsePeriod(req.query.period);
      const answer = await financials(datasets, req.params.symbol, period, contextOf(req));
      const symbol = req.params.symbol.toUpperCase();
      return respond.send(req, reply, answer, {
        filename: `${symbol}-financials-${period}`,
        // The lines are the page's own, so an empty list's header names only the period.
        columns: ['period'],
      });
    },
  );

  r.get(
    '/stocks/:symbol/announcements',
    {
      schema: {
        operationId: 'listAnnouncements',
        summary: 'Company announcements',
        description: `${SOURCE} The page keeps the latest few of each category.`,
        tags: ['stocks'],
        params: SymbolParam,
        querystring: AnnouncementsQuery,
        response: {
          200: listEnvelope('Announcement', 'announcements'),
          ...errorResponses({
            400: `category is not one of ${ANNOUNCEMENT_CATEGORIES.join(', ')}`,
            404: 'unknown symbol, or the exchange has no company page for it',
            502: "the company page's announcements could not be read (upstream_data_error)",
          }),
        },
      },
    },
    async (req, reply) => {
      const category = parseCategory(req.query.category);
      const answer = await announcements(datasets, req.params.symbol, category, contextOf(req));
      const symbol = req.params.symbol.toUpperCase();
      return respond.send(req, reply, answer, {
        filename: `${symbol}-announcements`,
        columns: columnsOf(Announcement),
      });
    },
  );
}
