// Answers from the exchange's daily closing files kept in the archive (docs/archive.md): a day's
// futures, index futures or debt; the day's universe of equities (delisted ones included); a
// delisted symbol's history; the days with a file. Where a file and a symbol's portal history
// disagree on a bar, the answers serve the history's bar (the one /stocks/{symbol}/historical
// serves) and /archive/status lists the difference.
import type { DailyFileKind, DailyFileRow } from '../../archive/daily-files.ts';
import type { DailyBar } from '../../archive/store.ts';
import { BadRequestError, NotFoundError } from '../../errors.ts';
import type { HistoryRow } from '../../exchange/types.ts';
import { flagAnomalies } from '../anomalies.ts';
import type { MarketArchive } from './archive.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import type { ContractDailyRowT, UniverseRowT } from '../models/files.ts';

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
