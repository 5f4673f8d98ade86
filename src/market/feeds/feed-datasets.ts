// The market-wide pages as datasets: each a cache read through Datasets,
// whose miss fetches the page within the caller's budget. Keys carry every form field sent.
import type { Cached } from '../../cache/types.ts';
import type {
  AnnouncementsPage,
  BoardRow,
  DebtInstrumentRow,
  EligibleMarket,
  MarketPayoutsPage,
  MeetingRow,
} from '../../exchange/feed-types.ts';
import {
  parseAnnouncements,
  parseCalendar,
  parseDebtMarket,
  parseEligibleScrips,
  parseMarketPayouts,
  parseTradingBoard,
} from '../../exchange/parsers/index.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';

/** Rows asked of the portal per page of its searchable lists: its cap. */
export const PORTAL_PAGE_ROWS = 100;

export interface PayoutsQuery {
  from: string;
  to: string;
  /** Sent as is: the portal prefix-matches it. */
  symbol: string;
  offset: number;
}

export interface AnnouncementsQuery {
  /** The portal's type letter: A CDC, B SECP, C companies, D NCCPL, E PSX. */
  type: string;
  symbol: string;
  query: string;
  from: string;
  to: string;
  offset: number;
  count: number;
}

const formKey = (form: Record<string, string>): string =>
  Object.keys(form)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(form[k] as string)}`)
    .join('&');

export class FeedDatasets {
  constructor(private readonly datasets: Datasets) {}

  /** One page of `POST /payouts`; announcements are not tied to trading hours: filings' freshness. */
  payouts(q: PayoutsQuery, ctx: RequestContext): Promise<Cached<MarketPayoutsPage>> {
    const form = {
      symbol: q.symbol,
      count: String(PORTAL_PAGE_ROWS),
      offset: String(q.offset),
      date_from: q.from,
      date_to: q.to,
    };
    return this.datasets.readPage(
      `market-payouts?${formKey(form)}`,
      'reports',
      { kind: 'market-payouts', method: 'POST', path: '/payouts', form },
      parseMarketPayouts,
      ctx,
    );
  }

  calendar(from: string, to: string, ctx: RequestContext): Promise<Cached<MeetingRow[]>> {
    const form = { from, to };
    return this.datasets.readPage(
      `calendar?${formKey(form)}`,
      'reports',
      { kind: 'calendar', method: 'POST', path: '/calendar', form },
      parseCalendar,
      ctx,
    );
  }

  /** Announcements arrive through the trading day: the intraday freshness. */
  announcements(q: AnnouncementsQuery, ctx: RequestContext): Promise<Cached<AnnouncementsPage>> {
    const form = {
      type: q.type,
      symbol: q.symbol,
      query: q.query,
      count: String(q.count),
      offset: String(q.offset),
      date_from: q.from,
      date_to: q.to,
      page: 'annc',
    };
    return this.datasets.readPage(
      `announcements?${formKey(form)}`,
      'intraday',
      { kind: 'announcements', method: 'POST', path: '/announcements', form },
      parseAnnouncements,
      ctx,
    );
  }

  /** Listings change between sessions, like the symbol list. */
  debtMarket(ctx: RequestContext): Promise<Cached<DebtInstrumentRow[]>> {
    return this.datasets.readPage(
      'debt-market',
      'symbols',
      { kind: 'debt-market', method: 'GET', path: '/debt-market' },
      parseDebtMarket,
      ctx,
    );
  }

  /** `path` is one of the known boards' paths (models-feeds.ts BOARDS), never client text. */
  board(path: string, ctx: RequestContext): Promise<Cached<BoardRow[]>> {
    return this.datasets.readPage(
      `board:${path}`,
      'intraday',
      { kind: 'trading-board', method: 'GET', path },
      parseTradingBoard,
      ctx,
    );
  }

  eligibleScrips(ctx: RequestContext): Promise<Cached<EligibleMarket[]>> {
    return this.datasets.readPage(
      'eligible-scrips',
      'symbols',
      { kind: 'eligible-scrips', method: 'GET', path: '/eligible-scrips' },
      parseEligibleScrips,
      ctx,
    );
  }
}
