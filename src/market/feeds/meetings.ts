// GET /market/calendar: company meetings (AGM, EOGM) in a date range, from `POST /calendar`.
import { answerFrom, answerKey, fetchAsOf, type Answer } from '../answer.ts';
import type { RequestContext } from '../context.ts';
import type { DateRange } from './date-range.ts';
import type { FeedDatasets } from './feed-datasets.ts';
import type { MeetingT } from '../models/feeds.ts';

export interface MeetingsFilter extends DateRange {
  type?: string;
  symbol?: string;
}

/** Meetings in date and time order (a calendar reads forward; the portal lists newest first). */
export async function meetings(
  feeds: FeedDatasets,
  filter: MeetingsFilter,
  ctx: RequestContext,
): Promise<Answer<MeetingT[]>> {
  const cached = await feeds.calendar(filter.from, filter.to, ctx);
  const symbol = filter.symbol?.toUpperCase();
  const data = cached.value
    .filter(
      (m) =>
        (filter.type === undefined || m.type === filter.type) &&
        (symbol === undefined || m.symbol === symbol),
    )
    .map((m) => ({
      symbol: m.symbol,
      company: m.name,
      type: m.type,
      date: m.date,
      time: m.time,
      city: m.city,
      period_end: m.periodEnd,
    }))
    .sort((a, b) => {
      const ka = `${a.date ?? ''} ${a.time ?? ''}`;
      const kb = `${b.date ?? ''} ${b.time ?? ''}`;
      return ka < kb ? -1 : ka > kb ? 1 : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0;
    });
  return answerFrom(cached, data, answerKey('meetings', { ...filter, symbol }), fetchAsOf(cached.fetchedAt));
}
