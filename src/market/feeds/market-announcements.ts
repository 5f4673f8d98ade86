// GET /announcements: the portal's market-wide announcement search (`POST /announcements`), one
// portal page per answer, with a cursor a client follows (`meta.next`).
import { BadRequestError } from '../../errors.ts';
import { answerFrom, answerKey, fetchAsOf, type Answer } from '../answer.ts';
import { karachiDateTimeOf } from '../../time/karachi.ts';
import type { RequestContext } from '../context.ts';
import type { FeedDatasets } from './feed-datasets.ts';
import type { AnnouncementType, MarketAnnouncementT } from '../models/feeds.ts';

/** The portal's type letters. */
const TYPE_LETTER: Record<AnnouncementType, string> = {
  companies: 'C',
  psx: 'E',
  secp: 'B',
  cdc: 'A',
  nccpl: 'D',
};

export const DEFAULT_ANNOUNCEMENTS_LIMIT = 50;
export const MAX_ANNOUNCEMENTS_LIMIT = 100;

export interface AnnouncementsFilter {
  type: AnnouncementType;
  q?: string;
  symbol?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** The cursor is the portal offset, base64url-encoded so that clients treat it as opaque. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o${offset}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^o(\d{1,9})$/.exec(text);
  if (m === null) throw new BadRequestError('cursor is not one this service gave; follow meta.next as given');
  return Number(m[1]);
}

export async function marketAnnouncements(
  feeds: FeedDatasets,
  filter: AnnouncementsFilter,
  ctx: RequestContext,
): Promise<Answer<MarketAnnouncementT[]>> {
  if (filter.symbol !== undefined && filter.type !== 'companies') {
    throw new BadRequestError('symbol applies to type=companies only (the default)');
  }
  const offset = filter.cursor === undefined ? 0 : decodeCursor(filter.cursor);
  const symbol = filter.symbol?.toUpperCase();
  const cached = await feeds.announcements(
    {
      type: TYPE_LETTER[filter.type],
      symbol: symbol ?? '',
      query: filter.q ?? '',
      from: filter.from ?? '',
      to: filter.to ?? '',
      offset,
      count: filter.limit,
    },
    ctx,
  );
  const page = cached.value;
  const data: MarketAnnouncementT[] = page.rows
    // The portal's symbol field prefix-matches.
    .filter((r) => symbol === undefined || r.symbol === symbol)
    .map((r) => ({
      date: r.date,
      time: r.time,
      published_at: r.date !== null && r.time !== null ? karachiDateTimeOf(r.date, r.time) : null,
      symbol: r.symbol,
      company: r.name,
      title: r.title,
      revoked: r.revoked,
      document_url: r.document,
      image_only: r.documentKind === 'image',
      images: [...(r.images ?? [])],
    }));
  const reached = page.paging?.last ?? offset + page.rows.length;
  const total = page.paging?.total ?? reached;
  let next: string | null = null;
  if (page.rows.length > 0 && reached < total) {
    const params = new URLSearchParams();
    params.set('type', filter.type);
    if (filter.q !== undefined) params.set('q', filter.q);
    if (symbol !== undefined) params.set('symbol', symbol);
    if (filter.from !== undefined) params.set('from', filter.from);
    if (filter.to !== undefined) params.set('to', filter.to);
    params.set('limit', String(filter.limit));
    params.set('cursor', encodeCursor(reached));
    next = `/announcements?${params.toString()}`;
  }
  const answer = answerFrom(
    cached,
    data,
    answerKey('announcements', { ...filter, symbol, cursor: String(offset) }),
    fetchAsOf(cached.fetchedAt),
  );
  return { ...answer, meta: { next, total } };
}
