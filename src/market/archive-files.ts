// Answers from the exchange's daily closing files kept in the archive (docs/archive.md): a day's
// futures, index futures or debt; the day's universe of equities (delisted ones included); a
// delisted symbol's history; the days with a file. Where a file and a symbol's portal history
// disagree on a bar, the answers serve the history's bar (the one /stocks/{symbol}/historical
// serves) and /archive/status lists the difference.
import type { DailyFileKind, DailyFileRow } from '../archive/daily-files.ts';
import type { DailyBar } from '../archive/store.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { HistoryRow } from '../exchange/types.ts';
import { flagAnomalies } from './anomalies.ts';
import type { MarketArchive } from './archive.ts';
import type { RequestContext } from './context.ts';
import type { Datasets } from './datasets.ts';
import type { ContractDailyRowT, UniverseRowT } from './models-files.ts';
import type { AdjustedHistoricalRowT, HistoricalRowT } from './models.ts';
import { answerKey, type Answer } from './answer.ts';
import { historicalRowOf } from './archive-adjusted.ts';
import { closeOf } from './archive-answers.ts';
import { karachiTime } from '../time/karachi.ts';

export type DailyMarket = 'equities' | 'futures' | 'index_futures' | 'debt';

export const DAILY_MARKETS: readonly DailyMarket[] = ['equities', 'futures', 'index_futures', 'debt'];

const KIND_OF: Record<DailyMarket, DailyFileKind> = {
  equities: 'equity',
  futures: 'futures',
  index_futures: 'index_futures',
  debt: 'debt',
};

export function fileKindOf(market: DailyMarket): DailyFileKind {
  return KIND_OF[market];
}

/** A file's equity rows as kept bars, flagged as a history's rows are (each alone: LDCP from the file). */
export function barsFromFile(rows: readonly DailyFileRow[]): DailyBar[] {
  return rows.map((r) => {
    const history: HistoryRow[] = [
      { date: r.date, open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume },
    ];
    const [flagged] = flagAnomalies(history);
    return {
      symbol: r.symbol,
      date: r.date,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      anomaly_reasons: flagged ? [...flagged.anomaly_reasons] : [],
    };
  });
}

/** A symbol's bars from the files, oldest first. */
export async function fileBars(archive: MarketArchive, symbol: string, start?: string, end?: string) {
  const rows = await archive.dailyFiles((f) => f.symbolRows(symbol, start, end));
  return barsFromFile(rows);
}

export function contractRow(r: DailyFileRow): ContractDailyRowT {
  return {
    symbol: r.symbol,
    date: r.date,
    sector_code: r.sectorCode,
    name: r.name,
    marker: r.marker,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    ldcp: r.ldcp,
    underlying: r.underlying,
    contract_month: r.contractMonth,
    cash_settled: r.cashSettled,
    series: r.series,
  };
}

/** The day with a file or bars nearest before and after `date` (either source). */
export async function neighboursWithFiles(
  archive: MarketArchive,
  date: string,
): Promise<{ previous: string | null; next: string | null }> {
  const [bars, files] = await Promise.all([
    archive.neighbours(date),
    archive.dailyFiles((f) => f.fileDays()),
  ]);
  let previous = bars.previous;
  let next = bars.next;
  for (const d of files) {
    if (!d.found) continue;
    if (d.date < date && (previous === null || d.date > previous)) previous = d.date;
    if (d.date > date && (next === null || d.date < next)) next = d.date;
  }
  return { previous, next };
}

/** The 404 of a date without a session, naming its neighbours. */
export async function noSession(archive: MarketArchive, date: string): Promise<NotFoundError> {
  const { previous, next } = await neighboursWithFiles(archive, date);
  if (previous === null && next === null)
    return new NotFoundError(`the archive holds no trading day yet (see GET /archive/status)`);
  if (previous === null)
    return new NotFoundError(`${date} is before the archive's first trading day, ${next}`);
  return new NotFoundError(
    `no session on ${date} in the archive: the previous trading day is ${previous}, the next ${next ?? 'not yet archived'}`,
  );
}

/** Every equity of `date`'s file: what was listed and traded that day, delisted or not. */
export async function universe(
  archive: MarketArchive,
  datasets: Datasets,
  date: string,
  ctx: RequestContext,
  today: string,
): Promise<UniverseRowT[]> {
  if (date > today) throw new BadRequestError(`date ${date} is in the future (today in Karachi is ${today})`);
  const rows = await archive.dailyFiles((f) => f.fileRows(date, ['equity']));
  if (rows.length === 0) throw await noSession(archive, date);
  const listed = new Set((await datasets.symbols(ctx)).value.map((s) => s.symbol));
  return rows.map((r) => ({
    symbol: r.symbol,
    name: r.name,
    sector_code: r.sectorCode,
    marker: r.marker,
    listed_today: listed.has(r.symbol),
  }));
}

/**
 * `/stocks/{symbol}/historical` of a symbol the exchange no longer lists: its rows from the closing
 * files that carried it (raw; adjusted prices are unavailable: no adjusted series or payouts page
 * exists for it any more). Undefined when no file carried it (the caller's 404 stands).
 */
export async function delistedHistorical(
  archive: MarketArchive,
  symbol: string,
  query: { start?: string; end?: string; order?: 'asc' | 'desc'; limit?: number; adjusted: boolean },
  now: number,
): Promise<Answer<Array<HistoricalRowT | AdjustedHistoricalRowT>> | undefined> {
  const bars = await fileBars(archive, symbol, query.start, query.end);
  if (bars.length === 0) {
    const anywhere = await archive.dailyFiles((f) => f.symbolsInFiles([symbol]));
    if (!anywhere.has(symbol)) return undefined;
  }
  let rows: Array<HistoricalRowT | AdjustedHistoricalRowT> = bars.map((b) => {
    const row = historicalRowOf(b);
    return query.adjusted ? { ...row, adjustment_factor: null } : row;
  });
  if (query.limit !== undefined && rows.length > query.limit) rows = rows.slice(rows.length - query.limit);
  if (query.order === 'desc') rows.reverse();
  const last = bars.at(-1)?.date;
  const meta: Record<string, unknown> = {
    delisted: true,
    source: 'daily_files',
    last_traded: (await archive.dailyFiles((f) => f.symbolRows(symbol))).at(-1)?.date ?? null,
  };
  if (query.adjusted) {
    meta.adjustment = {
      status: 'unavailable',
      series_start: null,
      partial_before: null,
      dividends: false,
      dividends_from: null,
      reason: `${symbol} is no longer listed: the exchange publishes no adjusted series or payouts for it, so prices are raw (from its closing files)`,
    };
  }
  return {
    key: answerKey('historical-delisted', symbol, { ...query }),
    data: rows,
    provenance: {
      state: 'HIT',
      fetchedAt: now,
      freshUntil: now + 3_600_000,
      version: `${symbol}:${rows.length}:${last ?? ''}`,
    },
    asOf: last ? closeOf(last) : karachiTime(now),
    meta,
  };
}
