// The parameters of the market-wide feeds, one table per feature: the REST routes (routes/feeds.ts)
// take them as query parameters and the MCP tools (src/mcp/tools.ts) as tool arguments, so a bound
// or a description is written once and the two cannot drift apart.
import { Type } from 'typebox';
import {
  DEFAULT_ANNOUNCEMENTS_LIMIT,
  MAX_ANNOUNCEMENTS_LIMIT,
} from '../../market/feeds/market-announcements.ts';
import { ANNOUNCEMENT_TYPES, MEETING_TYPES, PAYOUT_KINDS } from '../../market/models/feeds.ts';
import { SymbolParam } from '../pipeline/schemas.ts';

const symbolSchema = SymbolParam.properties.symbol;
const day = (description: string) => Type.Optional(Type.String({ format: 'date', description }));

/** Market payouts: /market/payouts and get_market_payouts. */
export const PayoutsParameters = {
  from: day('first announcement day, inclusive, YYYY-MM-DD (default: to − 30 days)'),
  to: day('last announcement day, inclusive, YYYY-MM-DD (default: today, Karachi)'),
  kind: Type.Optional(Type.Enum([...PAYOUT_KINDS], { description: 'only this kind' })),
  symbol: Type.Optional({
    ...symbolSchema,
    description: 'only this symbol (exact; the portal prefix-matches, the service does not)',
  }),
};

/** What a payouts answer says it read of the portal (meta.coverage; the tool's coverage). */
export const PayoutsCoverage = Type.Object({
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  face_value: Type.Number({ description: 'PKR, the face value amount_per_share assumes' }),
  portal_rows: Type.Integer({
    description: 'rows the portal has for the range (before the symbol and kind filters)',
  }),
  complete: Type.Boolean({ description: 'every portal row of the range was read' }),
  missing: Type.Union([Type.String(), Type.Null()], { description: 'which rows were not read, and why' }),
});

/** Company meetings: /market/calendar and get_market_calendar. */
export const CalendarParameters = {
  from: day('first day, inclusive, YYYY-MM-DD (default: today, Karachi)'),
  to: day('last day, inclusive, YYYY-MM-DD (default: from + 30 days)'),
  type: Type.Optional(Type.Enum([...MEETING_TYPES], { description: 'only this kind of meeting' })),
  symbol: Type.Optional({ ...symbolSchema, description: 'only this symbol' }),
};

/**
 * The announcement search: /announcements and search_announcements (which names `q` `query`, and
 * whose cursor is the previous page's next_cursor rather than a path's).
 */
export const AnnouncementParameters = {
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'words in the title' })),
  symbol: Type.Optional({ ...symbolSchema, description: 'only this company (type=companies)' }),
  type: Type.Optional(
    Type.Enum([...ANNOUNCEMENT_TYPES], { description: 'who announced (default companies)' }),
  ),
  from: day('first day, inclusive, YYYY-MM-DD'),
  to: day('last day, inclusive, YYYY-MM-DD'),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ANNOUNCEMENTS_LIMIT,
      description: `rows per page, at most ${MAX_ANNOUNCEMENTS_LIMIT} (default ${DEFAULT_ANNOUNCEMENTS_LIMIT}); the portal may give fewer`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{1,24}$', description: 'from meta.next; opaque' }),
  ),
};
