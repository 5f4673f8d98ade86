// Resources of the whole-market endpoints served from the archive (docs/archive.md).
import { Type, type Static } from 'typebox';
import { HistoricalRow } from './models.ts';

export const DailyBar = Type.Object(
  {
    symbol: Type.String(),
    ...HistoricalRow.properties,
  },
  { $id: 'DailyBar', description: "one symbol's raw daily bar (as traded), with its anomaly flags" },
);

export const TradingDay = Type.Object(
  {
    date: Type.String({
      format: 'date',
      description: 'a day the exchange traded (Asia/Karachi), YYYY-MM-DD',
    }),
    weekday: Type.String({ description: 'Monday … Friday' }),
    open: Type.String({ description: 'first session opens, HH:MM Karachi (the current schedule)' }),
    close: Type.String({ description: 'last session closes, HH:MM Karachi' }),
    break_start: Type.Union([Type.String(), Type.Null()], {
      description: "Friday's break, HH:MM; null without one",
    }),
    break_end: Type.Union([Type.String(), Type.Null()], {
      description: "Friday's break ends, HH:MM; null without one",
    }),
  },
  { $id: 'TradingDay' },
);

export const ArchiveStatus = Type.Object(
  {
    backend: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    archiver: Type.Union(
      [
        Type.Literal('off'),
        Type.Literal('starting'),
        Type.Literal('backfill'),
        Type.Literal('idle'),
        Type.Literal('backoff'),
        Type.Literal('follower'),
        Type.Literal('stopped'),
      ],
      { description: 'off: ARCHIVE is not on here; follower: another replica archives' },
    ),
    symbols_done: Type.Integer({ description: 'symbols whose whole history is archived' }),
    symbols_total: Type.Union([Type.Integer(), Type.Null()], {
      description: 'listed symbols to backfill (null before the archiver has listed them)',
    }),
    rows: Type.Integer({ description: 'daily bars held' }),
    days: Type.Integer({ description: 'trading days with at least one bar' }),
    first_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    last_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    rate_per_minute: Type.Union([Type.Number(), Type.Null()], {
      description: 'symbols backfilled a minute in this run',
    }),
    eta_seconds: Type.Union([Type.Integer(), Type.Null()], {
      description: 'estimated seconds until the backfill is done',
    }),
    fetches_per_minute: Type.Union([Type.Integer(), Type.Null()], {
      description: "the archiver's share of the portal budget",
    }),
    last_recorded_day: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'the last closing record',
    }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    last_error_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'ArchiveStatus' },
);

export const archiveModelSchemas = [DailyBar, TradingDay, ArchiveStatus];

export type DailyBarT = Static<typeof DailyBar>;
export type TradingDayT = Static<typeof TradingDay>;
export type ArchiveStatusT = Static<typeof ArchiveStatus>;
