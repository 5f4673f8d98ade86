// Resources of the intraday, batch and market-at-a-glance endpoints. Kept beside
// models.ts so the schemas of each feature stay together; registered with Fastify the same way.
import { Type, type Static } from 'typebox';

const NullableNum = (description?: string) =>
  Type.Union([Type.Number(), Type.Null()], description ? { description } : {});

const Time = Type.String({
  format: 'date-time',
  description: 'ISO 8601 with the Karachi offset, e.g. 2026-11-20T09:35:12+05:00',
});

export const StockTick = Type.Object(
  {
    time: Time,
    price: Type.Number({ description: 'PKR' }),
    volume: Type.Number({ description: 'shares in this print (may be 0)' }),
  },
  { $id: 'StockTick', description: "one of today's prints, as the exchange lists them" },
);

export const IndexTick = Type.Object(
  {
    time: Time,
    value: Type.Number({ description: 'index points' }),
    volume: Type.Number({ description: 'shares traded in the index since the previous tick' }),
  },
  { $id: 'IndexTick', description: "one of today's index ticks (about every 15 s)" },
);

export const IntradayBar = Type.Object(
  {
    time: Type.String({
      format: 'date-time',
      description: 'start of the bar on the Karachi clock (bars cover [time, time + interval)), +05:00',
    }),
    open: Type.Number({ description: 'first print of the bar (PKR, or points for an index)' }),
    high: Type.Number(),
    low: Type.Number(),
    close: Type.Number({ description: 'last print of the bar' }),
    volume: Type.Number({ description: 'sum of the prints’ volumes' }),
    trades: Type.Integer({ description: 'prints in the bar (a print may carry volume 0)' }),
  },
  { $id: 'IntradayBar', description: 'one bar; intervals without a print have no bar' },
);

export const IndexHistoricalRow = Type.Object(
  {
    date: Type.String({ format: 'date', description: 'trading day, YYYY-MM-DD (Asia/Karachi)' }),
    open: NullableNum('points; the series’ fourth column, the open [upstream: probable for indices]'),
    high: Type.Null({ description: 'always null: the exchange’s daily index series has no high' }),
    low: Type.Null({ description: 'always null: the exchange’s daily index series has no low' }),
    close: Type.Number({ description: 'points' }),
    volume: NullableNum('shares'),
  },
  { $id: 'IndexHistoricalRow' },
);

export const Mover = Type.Object(
  {
    symbol: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    price: Type.Number({ description: 'PKR; market-watch CURRENT' }),
    change: Type.Number({ description: 'PKR, against LDCP' }),
    change_pct: Type.Number({ description: 'percent, against LDCP' }),
    volume: Type.Number({ description: 'shares traded today' }),
  },
  { $id: 'Mover' },
);

export const Breadth = Type.Object(
  {
    advances: Type.Integer({ description: 'symbols trading above LDCP' }),
    declines: Type.Integer({ description: 'symbols trading below LDCP' }),
    unchanged: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'symbols at LDCP, including those not traded today (on the screener, not on the market watch), as the portal’s sector table counts them: the sum of /sectors’ `unchanged`; null when the screener could not be had (meta.missing says so)',
    }),
    total: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'advances + declines + unchanged: the symbols on the market watch plus the equities not traded today; null when the screener could not be had',
    }),
    total_volume: Type.Number({ description: 'shares traded today across the market watch' }),
    total_value: Type.Number({
      description:
        'PKR; Σ CURRENT × VOLUME over the market watch (an estimate: the portal gives no turnover value)',
    }),
  },
  { $id: 'Breadth' },
);

export type StockTickT = Static<typeof StockTick>;
export type IndexTickT = Static<typeof IndexTick>;
export type IntradayBarT = Static<typeof IntradayBar>;
export type IndexHistoricalRowT = Static<typeof IndexHistoricalRow>;
export type MoverT = Static<typeof Mover>;
export type BreadthT = Static<typeof Breadth>;

export const liveSchemas = [StockTick, IndexTick, IntradayBar, IndexHistoricalRow, Mover, Breadth];
