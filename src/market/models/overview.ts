// The overview resources: one request for everything a symbol's page or the market's page shows,
// each part with its own as_of and its own error (src/market/overview/parts.ts).
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CODES } from '../../errors.ts';

const ref = (id: string) => Type.Unsafe({ $ref: `${id}#` });
const NullableStr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const OverviewPartError = Type.Object(
  {
    status: Type.Integer({ description: 'the HTTP status this part alone would have been answered with' }),
    code: Type.Unsafe<string>({
      type: 'string',
      enum: [...ERROR_CODES],
      description: 'as in the error envelope',
    }),
    message: Type.String(),
    retry_at: NullableStr(
      'when this part is worth asking for again (e.g. when this client’s budget of exchange fetches has room again), ISO 8601 with +05:00; null when the failure gave no time',
    ),
  },
  {
    $id: 'OverviewPartError',
    additionalProperties: false,
    description:
      'Why a part of an overview is missing. A part that could not be fetched yet (`rate_limited`, `exchange_unavailable`) says when to try again; the other parts are still served.',
  },
);
export type OverviewPartErrorT = Static<typeof OverviewPartError>;

/** A part: its data (null when it failed), its own as_of, and its error (null when it was served). */
function part(data: TSchema, description: string): TSchema {
  return Type.Object(
    {
      data: Type.Union([data, Type.Null()]),
      as_of: NullableStr("when this part's data is from, ISO 8601 with +05:00; null when it failed"),
      error: Type.Union([ref('OverviewPartError'), Type.Null()]),
    },
    { description, additionalProperties: false },
  );
}

export const MarketState = Type.Object(
  {
    state: Type.Union(
      [Type.Literal('pre_open'), Type.Literal('open'), Type.Literal('break'), Type.Literal('closed')],
      { description: 'as GET /market/status gives it' },
    ),
    next_open: Type.String({ format: 'date-time', description: 'the next session open, +05:00' }),
    next_close: Type.String({
      format: 'date-time',
      description: 'the current or next trading day’s close, +05:00',
    }),
    session: Type.Union([
      Type.Object({
        open: Type.String({ format: 'date-time' }),
        close: Type.String({ format: 'date-time' }),
      }),
      Type.Null(),
    ]),
    clock_followed: Type.Boolean({ description: 'false when the service treats the market as always open' }),
  },
  {
    $id: 'MarketState',
    additionalProperties: false,
    description: 'GET /market/status without `now`: the market clock when the overview was made',
  },
);
export type MarketStateT = Static<typeof MarketState>;

export const StockOverview = Type.Object(
  {
    symbol: Type.String(),
    market: ref('MarketState'),
    quote: part(
      ref('Quote'),
      "GET /stocks/{symbol}/quote, with the company page's extras (circuit breaker, 52-week range, bid/ask) when that page could be had within 1.5 s",
    ),
    profile: part(ref('Profile'), 'GET /stocks/{symbol}/profile'),
    history: part(
      Type.Array(ref('HistoricalRow')),
      'daily bars of the last 365 days, oldest first, flagged as GET /stocks/{symbol}/historical',
    ),
    intraday: part(
      Type.Array(ref('IntradayBar')),
      "today's 5-minute bars, as GET /stocks/{symbol}/intraday?interval=5m",
    ),
    corporate_actions: part(Type.Array(ref('CorporateAction')), 'GET /stocks/{symbol}/corporate-actions'),
    announcements: part(Type.Array(ref('Announcement')), 'the newest 10 announcements, newest first'),
    financials: part(
      Type.Array(ref('FinancialsRow')),
      'annual financials, as GET /stocks/{symbol}/financials',
    ),
    reports: part(
      Type.Array(ref('FundamentalsRow')),
      'the filed reports, as GET /stocks/{symbol}/fundamentals',
    ),
  },
  {
    $id: 'StockOverview',
    additionalProperties: false,
    description:
      'Everything about one symbol in one request. Each part is settled on its own: a part that failed has `data: null` and its `error` (with `retry_at` when it is worth asking again); the others are served.',
  },
);

export const MoverLists = Type.Object(
  {
    gainers: Type.Array(ref('Mover')),
    losers: Type.Array(ref('Mover')),
    active: Type.Array(ref('Mover')),
  },
  { additionalProperties: false },
);

export const MarketOverview = Type.Object(
  {
    market: ref('MarketState'),
    indices: part(Type.Array(ref('IndexLevel')), 'GET /indices'),
    breadth: part(ref('Breadth'), 'GET /market/breadth'),
    movers: part(MoverLists, 'GET /market/movers for gainers, losers and active, `movers` rows each'),
    sectors: part(Type.Array(ref('SectorSummary')), 'GET /sectors'),
    index: Type.Object(
      {
        code: Type.String({ description: 'the index asked for with `index` (default KSE100)' }),
        intraday: part(Type.Array(ref('IntradayBar')), "the index's 5-minute bars today"),
        constituents: part(Type.Array(ref('IndexConstituent')), 'GET /indices/{name}'),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'MarketOverview',
    additionalProperties: false,
    description:
      'The market at a glance in one request. Each part is settled on its own: a part that failed has `data: null` and its `error` (with `retry_at` when it is worth asking again); the others are served.',
  },
);

export const overviewSchemas = [OverviewPartError, MarketState, StockOverview, MarketOverview];
