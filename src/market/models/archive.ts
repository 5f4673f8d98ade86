// Resources of the whole-market endpoints served from the archive (docs/archive.md).
import { FileDisagreementRow } from './files.ts';
import { Type, type Static } from 'typebox';
import { AdjustedHistoricalRow, HistoricalRow } from './resources.ts';

export const DailyBar = Type.Object(
  {
    symbol: Type.String(),
    ...HistoricalRow.properties,
  },
  { $id: 'DailyBar', description: "one symbol's raw daily bar (as traded), with its anomaly flags" },
);

export const AdjustedDailyBar = Type.Object(
  {
    symbol: Type.String(),
    ...AdjustedHistoricalRow.properties,
  },
  {
    $id: 'AdjustedDailyBar',
    description:
      "one symbol's daily bar adjusted with the corporate-action factors the archive keeps (adjusted=true)",
  },
);

/** `meta.adjustment` of the whole-market endpoints with adjusted=true. */
export const ArchiveAdjustmentMeta = Type.Object(
  {
    status: Type.Union([Type.Literal('full'), Type.Literal('partial'), Type.Literal('unavailable')], {
      description:
        'full: every symbol fully adjusted; unavailable: none could be (raw prices, adjustment_factor null); partial: anything between',
    }),
    dividends: Type.Boolean({ description: 'whether cash dividends were asked for (dividends=true)' }),
    full: Type.Array(Type.String(), { description: 'symbols adjusted over every row served' }),
    partial: Type.Array(
      Type.Object({
        symbol: Type.String(),
        partial_before: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
          description:
            'rows before this date (the oldest adjusted series seen) carry the factor known then: older capital changes are unknown',
        }),
        checked_through: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
          description:
            'the actions were last checked through this date: later rows may lack an action taken since',
        }),
        reason: Type.String(),
      }),
      { description: 'symbols adjusted over part of the rows, and why not all' },
    ),
    unavailable: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() }), {
      description: 'symbols served raw (adjustment_factor null), and why',
    }),
  },
  { description: 'per symbol, how far the prices could be adjusted' },
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
      description:
        'estimated seconds until the backfill is done: the histories left, then two fetches for each symbol’s corporate actions, at the pace the archiver has fetched so far',
    }),
    actions_left: Type.Union([Type.Integer(), Type.Null()], {
      description:
        'backfilled symbols whose corporate actions (adjusted series and payouts) are still to be fetched; null before the archiver has looked',
    }),
    fetches_per_minute: Type.Union([Type.Integer(), Type.Null()], {
      description: "the archiver's share of the portal budget",
    }),
    last_recorded_day: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'the last closing record',
    }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    last_error_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    files_done: Type.Integer({
      description:
        "daily closing files settled: kept, or the portal's no-session page (weekdays since ARCHIVE_FILES_FROM)",
    }),
    files_total: Type.Union([Type.Integer(), Type.Null()], {
      description: 'weekdays whose file the archiver asks for (null before it has looked)',
    }),
    files_kept: Type.Integer({ description: 'days with a kept closing file' }),
    files_no_session: Type.Integer({ description: 'weekdays the portal has no file for (holidays)' }),
    files_first_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'the oldest kept closing file',
    }),
    files_last_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'the newest kept closing file',
    }),
    file_rows: Type.Integer({ description: 'rows kept from the closing files (every kind)' }),
    file_disagreements_total: Type.Integer({
      description: "bars where a closing file and the symbol's portal history differ (both kept)",
    }),
    file_disagreements: Type.Array(FileDisagreementRow, {
      description:
        'the newest 100 of them, field by field; the answers serve the history value (the closing file fills in only where the history has no bar)',
    }),
  },
  { $id: 'ArchiveStatus' },
);

export const archiveModelSchemas = [DailyBar, AdjustedDailyBar, TradingDay, ArchiveStatus];

export type DailyBarT = Static<typeof DailyBar>;
export type AdjustedDailyBarT = Static<typeof AdjustedDailyBar>;
export type ArchiveAdjustmentMetaT = Static<typeof ArchiveAdjustmentMeta>;
export type TradingDayT = Static<typeof TradingDay>;
export type ArchiveStatusT = Static<typeof ArchiveStatus>;
