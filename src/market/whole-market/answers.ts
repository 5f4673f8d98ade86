// The whole-market answers: a day's bars for every symbol, a panel of many symbols' histories,
// the trading days, and the archive's progress. Served from the archive (src/market/archive/archive.ts);
// a panel takes what the archive lacks from the portal, within the budget, and says so.
import { createHash } from 'node:crypto';
import type { DailyBar } from '../../archive/store.ts';
import { freshNoLaterThan } from '../../cache/types.ts';
import { BadRequestError, invalidValue, NotFoundError, ServiceError } from '../../errors.ts';
import { karachiTime, parseIsoDay, weekdayOf } from '../../time/karachi.ts';
import { closeOf, karachiDate, sessionsOfDate } from '../../time/market-clock.ts';
import { answerKey, type Answer } from '../answer.ts';
import type { ArchiverStatus, MarketArchive, PanelField } from '../archive/archive.ts';
import { widePanel } from '../archive/archive.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { historyRows } from '../history/history.ts';
import { BAR_SECONDS, toBars, type Interval } from '../history/intraday.ts';
import type { IntradayTick } from '../../exchange/types.ts';
import type { IntradayBarT } from '../models/intraday.ts';
import { constituentSymbols } from '../listings/indices.ts';
import type { ArchiveStatusT, DailyBarT, TradingDayT } from '../models/archive.ts';
import { isKnownSymbol } from '../symbols.ts';
import { adjustedHistorical, type AdjustmentMeta } from '../corporate-actions/adjusted-history.ts';
import {
  adjustArchived,
  adjustmentSummary,
  fromHistoryMeta,
  historicalRowOf,
  type SymbolAdjustment,
} from './adjusted.ts';
import type { AdjustedDailyBarT } from '../models/archive.ts';
import type { AdjustedHistoricalRowT, HistoricalRowT } from '../models/resources.ts';
import {
  barsFromFile,
  contractRow,
  fileBars,
  fileKindOf,
  noSession,
  type DailyMarket,
} from '../archive/files.ts';
import type {
  AdjustedMarketDailyBarT,
  ContractDailyRowT,
  MarketDailyBarT,
  UniverseRowT,
} from '../models/files.ts';

/** An archive answer is as fresh as the next write could make it: a minute. */
const ARCHIVE_FRESH_MS = 60_000;

function archiveAnswer<T>(
  key: string,
  data: T,
  now: number,
  asOf: string,
  meta?: Record<string, unknown>,
): Answer<T> {
  // Everything the answer renders is in its version: a view made for one as_of is never served
  // with another (the status's as_of moves while its figures stand still).
  const version = createHash('sha1')
    .update(JSON.stringify([data, meta ?? null, asOf]))
    .digest('base64url')
    .slice(0, 16);
  return {
    key,
    data,
    provenance: { state: 'HIT', fetchedAt: now, freshUntil: now + ARCHIVE_FRESH_MS, version },
    asOf,
    meta,
  };
}

export { closeOf };

/** A kept bar as a whole-market row: the symbol's history row, named. */
const apiBar = (b: DailyBar): DailyBarT => ({ symbol: b.symbol, ...historicalRowOf(b) });

export interface DailyQuery {
  date: string;
  index?: string;
  sector?: string;
  symbols?: string[];
  /** Prices adjusted with the corporate-action factors the archive keeps. */
  adjusted?: boolean;
  /** With adjusted: cash dividends too. */
  dividends?: boolean;
  /** equities (default), futures, index_futures or debt (the closing files' rows). */
  market?: DailyMarket;
}

/** Every symbol's bar on one date (grouped daily), optionally narrowed to an index, a sector or a list. */
export async function marketDaily(
  archive: MarketArchive,
  datasets: Datasets,
  query: DailyQuery,
  ctx: RequestContext,
  now: number,
): Promise<Answer<MarketDailyBarT[] | AdjustedMarketDailyBarT[] | ContractDailyRowT[]>> {
  const { date } = query;
  const today = karachiDate(now);
  if (date > today) throw new BadRequestError(`date ${date} is in the future (today in Karachi is ${today})`);
  const market = query.market ?? 'equities';
  if (market !== 'equities') return contractsDaily(archive, { ...query, market }, now);
  const [held, fileRows] = await Promise.all([
    archive.dailyBars(date),
    archive.dailyFiles((f) => f.fileRows(date, ['equity'])),
  ]);
  if (held.length === 0 && fileRows.length === 0) throw await noSession(archive, date);
  // The history's bar where both have one (the file's differences are in /archive/status).
  const fromHistory = new Set(held.map((b) => b.symbol));
  const markers = new Map(fileRows.map((r) => [r.symbol, r.marker]));
  const ldcps = new Map(fileRows.map((r) => [r.symbol, r.ldcp]));
  const bars = [...held, ...barsFromFile(fileRows.filter((r) => !fromHistory.has(r.symbol)))].sort((a, b) =>
    a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0,
  );
  const extras = (symbol: string) => ({
    marker: markers.get(symbol) ?? null,
    source: fromHistory.has(symbol) ? ('history' as const) : ('file' as const),
  });
  let wanted: Set<string> | undefined;
  let index: string | undefined;
  if (query.index !== undefined) {
    const members = await constituentSymbols(datasets, query.index, ctx);
    wanted = new Set(members.data);
    index = members.key;
  }
  if (query.sector !== undefined) {
    const code = query.sector;
    if (!/^\d{4}$/.test(code)) throw invalidValue('sector', 'a 4-digit sector code such as 0804', code);
    const inSector = new Set(
      (await datasets.screener(ctx)).value.filter((r) => r.sectorCode === code).map((r) => r.symbol),
    );
    // A past day's file names each row's sector: symbols delisted since are in their sector too.
    for (const r of fileRows) if (r.sectorCode === code) inSector.add(r.symbol);
    if (inSector.size === 0) throw new NotFoundError(`sector ${code} not found`);
    wanted = wanted ? new Set([...wanted].filter((s) => inSector.has(s))) : inSector;
  }
  if (query.symbols !== undefined) {
    const listed = new Set(query.symbols);
    wanted = wanted ? new Set([...wanted].filter((s) => listed.has(s))) : listed;
  }
  const kept = wanted ? bars.filter((b) => wanted.has(b.symbol)) : bars;
  const key = answerKey('market-daily', date, {
    index,
    sector: query.sector,
    symbols: query.symbols?.join(','),
    ...(query.adjusted ? { adjusted: true, dividends: query.dividends === true } : {}),
  });
  if (!query.adjusted)
    return archiveAnswer(
      key,
      kept.map((b) => ({ ...apiBar(b), ...extras(b.symbol), ldcp: ldcps.get(b.symbol) ?? null })),
      now,
      closeOf(date),
    );
  const dividends = query.dividends === true;
  const records = await archive.adjustments(wanted ? kept.map((b) => b.symbol) : undefined);
  const parts: SymbolAdjustment[] = [];
  const rows = kept.map((bar) => {
    const one = adjustArchived(bar.symbol, [bar], records.get(bar.symbol), dividends);
    parts.push(one.adjustment);
    return { ...one.rows[0]!, ...extras(bar.symbol) };
  });
  return archiveAnswer(key, rows, now, closeOf(date), { adjustment: adjustmentSummary(parts, dividends) });
}

/** A day's futures, index futures or debt, from the day's closing file. */
async function contractsDaily(
  archive: MarketArchive,
  query: DailyQuery & { market: Exclude<DailyMarket, 'equities'> },
  now: number,
): Promise<Answer<ContractDailyRowT[]>> {
  const { date, market } = query;
  if (query.index !== undefined || query.sector !== undefined || query.adjusted) {
    throw new BadRequestError(`index=, sector= and adjusted= apply to market=equities, not market=${market}`);
  }
  const [rows, days] = await Promise.all([
    archive.dailyFiles((f) => f.fileRows(date, [fileKindOf(market)])),
    archive.dailyFiles((f) => f.fileDates(date, date)),
  ]);
  if (days.length === 0) throw await noSession(archive, date);
  const wanted = query.symbols ? new Set(query.symbols) : undefined;
  const kept = wanted ? rows.filter((r) => wanted.has(r.symbol) || wanted.has(r.underlying ?? '')) : rows;
  const key = answerKey('market-daily', date, { market, symbols: query.symbols?.join(',') });
  return archiveAnswer(key, kept.map(contractRow), now, closeOf(date));
}

export interface PanelQuery {
  symbols: string[];
  start?: string;
  end?: string;
  layout: 'long' | 'wide';
  field: PanelField;
  adjusted?: boolean;
  dividends?: boolean;
}

export interface PanelMeta {
  not_found: string[];
  /** Symbols whose rows are missing or partial, and why. */
  incomplete: Array<{ symbol: string; reason: string }>;
  /** Where each symbol's rows came from (files: symbols no longer listed, from the closing files). */
  sources: { archive: string[]; portal: string[]; files: string[] };
}

export type PanelRow = DailyBarT | AdjustedDailyBarT | Record<string, string | number | null>;

/** Many symbols' daily bars: long rows (symbol, date, OHLCV) or a wide date × symbol table of one field. */
export async function historicalPanel(
  archive: MarketArchive,
  datasets: Datasets,
  query: PanelQuery,
  ctx: RequestContext,
  now: number,
): Promise<Answer<PanelRow[]>> {
  const { start, end } = query;
  if (start && end && start > end) throw new BadRequestError(`start (${start}) is after end (${end})`);
  const known: string[] = [];
  const notFound: string[] = [];
  const unlisted: string[] = [];
  for (const s of query.symbols) ((await isKnownSymbol(datasets, s, ctx)) ? known : unlisted).push(s);
  // A symbol no longer listed is read from the closing files that carried it (raw, never adjusted).
  const inFiles =
    unlisted.length > 0 ? await archive.dailyFiles((f) => f.symbolsInFiles(unlisted)) : new Set();
  const delisted = unlisted.filter((s) => inFiles.has(s));
  notFound.push(...unlisted.filter((s) => !inFiles.has(s)));
  known.push(...delisted);
  const done = await archive.backfilled();
  for (const s of delisted) done.add(s);
  const fromArchive = known.filter((s) => done.has(s));
  const fromPortal = known.filter((s) => !done.has(s));
  if (query.adjusted)
    return adjustedPanel(
      archive,
      datasets,
      query,
      { known, notFound, fromArchive, fromPortal, delisted },
      ctx,
      now,
    );
  const listedArchived = fromArchive.filter((s) => !inFiles.has(s));
  const bars = listedArchived.length > 0 ? await archive.bars(listedArchived, start, end) : [];
  for (const s of delisted) bars.push(...(await fileBars(archive, s, start, end)));
  const incomplete: PanelMeta['incomplete'] = [];
  const portalDone: string[] = [];
  for (const symbol of fromPortal) {
    try {
      const series = await datasets.history(symbol, ctx);
      for (const r of historyRows(series.value.rows)) {
        if ((start && r.date < start) || (end && r.date > end)) continue;
        bars.push({ symbol, ...r, anomaly_reasons: r.anomaly_reasons });
      }
      portalDone.push(symbol);
    } catch (err) {
      // The budget, a 429 or the portal being down costs this symbol, not the panel.
      if (!(err instanceof ServiceError) || !err.staleServable) throw err;
      incomplete.push({ symbol, reason: err.message });
    }
  }
  const order = new Map(known.map((s, i) => [s, i]));
  bars.sort(
    (a, b) => order.get(a.symbol)! - order.get(b.symbol)! || (a.date < b.date ? -1 : a.date > b.date ? 1 : 0),
  );
  const meta: PanelMeta = {
    not_found: notFound,
    incomplete,
    sources: { archive: listedArchived, portal: portalDone, files: delisted },
  };
  const lastDate = bars.reduce((m, b) => (b.date > m ? b.date : m), '');
  const asOf = lastDate ? closeOf(lastDate) : karachiTime(now);
  const key = answerKey('panel', known.join(','), { start, end, layout: query.layout, field: query.field });
  if (query.layout === 'long') return archiveAnswer(key, bars.map(apiBar), now, asOf, { ...meta });
  const present = known.filter((s) => !incomplete.some((i) => i.symbol === s));
  const panel = widePanel(bars, present, query.field);
  const rows = panel.dates.map((date, i) => {
    const row: Record<string, string | number | null> = { date };
    for (const s of present) {
      const v = panel.closes.get(s)![i] ?? null;
      row[s] = query.field === 'volume' && v !== null ? Math.round(v) : v;
    }
    return row;
  });
  return { ...archiveAnswer(key, rows, now, asOf, { ...meta }), columns: ['date', ...present] };
}

/** historicalPanel with adjusted=true: archived symbols with their kept factors, the rest as their own adjusted history. */
async function adjustedPanel(
  archive: MarketArchive,
  datasets: Datasets,
  query: PanelQuery,
  split: {
    known: string[];
    notFound: string[];
    fromArchive: string[];
    fromPortal: string[];
    delisted: string[];
  },
  ctx: RequestContext,
  now: number,
): Promise<Answer<PanelRow[]>> {
  const { start, end } = query;
  const dividends = query.dividends === true;
  const { known, notFound, fromPortal, delisted } = split;
  const fromArchive = split.fromArchive.filter((s) => !delisted.includes(s));
  const bySymbol = new Map<string, AdjustedDailyBarT[]>();
  const parts = new Map<string, SymbolAdjustment>();
  if (fromArchive.length > 0 || delisted.length > 0) {
    const [bars, records] = await Promise.all([
      archive.bars(fromArchive, start, end),
      archive.adjustments(fromArchive),
    ]);
    for (const s of delisted) bars.push(...(await fileBars(archive, s, start, end)));
    // A delisted symbol has no kept factors: its rows stay raw and meta.adjustment says unavailable.
    const grouped = new Map<string, DailyBar[]>([...fromArchive, ...delisted].map((s) => [s, []]));
    for (const b of bars) grouped.get(b.symbol)!.push(b);
    for (const [symbol, held] of grouped) {
      const one = adjustArchived(symbol, held, records.get(symbol), dividends);
      bySymbol.set(symbol, one.rows);
      parts.set(symbol, one.adjustment);
    }
  }
  const incomplete: PanelMeta['incomplete'] = [];
  const portalDone: string[] = [];
  for (const symbol of fromPortal) {
    try {
      const answer = await adjustedHistorical(datasets, symbol, { dividends, start, end }, ctx);
      bySymbol.set(
        symbol,
        answer.data.map((r) => ({ symbol, ...r })),
      );
      parts.set(
        symbol,
        fromHistoryMeta(symbol, answer.meta?.adjustment as AdjustmentMeta | undefined, dividends),
      );
      portalDone.push(symbol);
    } catch (err) {
      if (!(err instanceof ServiceError) || !err.staleServable) throw err;
      incomplete.push({ symbol, reason: err.message });
    }
  }
  const present = known.filter((s) => bySymbol.has(s));
  const rows = present.flatMap((s) => bySymbol.get(s)!);
  const meta = {
    not_found: notFound,
    incomplete,
    sources: { archive: fromArchive, portal: portalDone, files: delisted },
    adjustment: adjustmentSummary(
      present.map((s) => parts.get(s)!),
      dividends,
    ),
  };
  const lastDate = rows.reduce((m, b) => (b.date > m ? b.date : m), '');
  const asOf = lastDate ? closeOf(lastDate) : karachiTime(now);
  const key = answerKey('panel', known.join(','), {
    start,
    end,
    layout: query.layout,
    field: query.field,
    adjusted: true,
    dividends,
  });
  if (query.layout === 'long') return archiveAnswer(key, rows, now, asOf, meta);
  const panel = widePanel(rows, present, query.field);
  const wide = panel.dates.map((date, i) => {
    const row: Record<string, string | number | null> = { date };
    for (const s of present) row[s] = panel.closes.get(s)![i] ?? null;
    return row;
  });
  return { ...archiveAnswer(key, wide, now, asOf, meta), columns: ['date', ...present] };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function hhmm(ms: number): string {
  return karachiTime(ms).slice(11, 16);
}

/** The days the archive has bars for, with the sessions' hours (the exchange's current schedule). */
export async function tradingDays(
  archive: MarketArchive,
  from: string,
  to: string,
  now: number,
): Promise<Answer<TradingDayT[]>> {
  if (from > to) throw new BadRequestError(`from (${from}) is after to (${to})`);
  const [held, files] = await Promise.all([
    archive.tradingDays(from, to),
    archive.dailyFiles((f) => f.fileDates(from, to)),
  ]);
  // A day with bars or a closing file; a weekday with neither is a holiday (or not archived yet).
  const days = [...new Set([...held, ...files])].sort();
  const rows = days.map((date): TradingDayT => {
    const sessions = sessionsOfDate(date);
    const first = sessions[0];
    const last = sessions.at(-1);
    return {
      date,
      weekday: WEEKDAYS[weekdayOf(parseIsoDay(date))]!,
      open: first ? hhmm(first.open) : '',
      close: last ? hhmm(last.close) : '',
      break_start: sessions.length > 1 ? hhmm(sessions[0]!.close) : null,
      break_end: sessions.length > 1 ? hhmm(sessions[1]!.open) : null,
    };
  });
  const asOf = days.length > 0 ? closeOf(days.at(-1)!) : karachiTime(now);
  return archiveAnswer(answerKey('trading-days', { from, to }), rows, now, asOf);
}

/** A day's universe (archive-files.ts), as an answer. */
export function universeAnswer(date: string, rows: UniverseRowT[], now: number): Answer<UniverseRowT[]> {
  return archiveAnswer(answerKey('market-universe', date), rows, now, closeOf(date));
}

/** The file/history disagreements the status lists (newest first); the total is counted. */
const STATUS_DISAGREEMENTS = 100;

/** What the archive holds and how far the backfill is. */
export async function archiveStatus(
  archive: MarketArchive,
  archiver: { status(): ArchiverStatus } | undefined,
  now: number,
): Promise<Answer<ArchiveStatusT>> {
  const [stats, files, disagreements] = await Promise.all([
    archive.stats(),
    archive.dailyFiles((f) => f.stats()),
    archive.dailyFiles((f) => f.disagreements(STATUS_DISAGREEMENTS)),
  ]);
  const s = archiver?.status();
  const data: ArchiveStatusT = {
    backend: archive.backend,
    archiver: s ? s.phase : 'off',
    symbols_done: stats.symbolsBackfilled,
    symbols_total: s && s.symbolsTotal > 0 ? s.symbolsTotal : null,
    rows: stats.rows,
    days: stats.days,
    first_date: stats.firstDate,
    last_date: stats.lastDate,
    rate_per_minute: s?.ratePerMinute ?? null,
    eta_seconds: s?.etaSeconds ?? null,
    actions_left: s?.actionsLeft ?? null,
    fetches_per_minute: s?.perMinute ?? null,
    last_recorded_day: s?.lastRecordedDay ?? null,
    last_error: s?.lastError?.message ?? null,
    last_error_at: s?.lastError ? karachiTime(s.lastError.at) : null,
    files_done: s ? s.filesDone : files.files + files.noSession,
    files_total: s && s.filesTotal > 0 ? s.filesTotal : null,
    files_kept: files.files,
    files_no_session: files.noSession,
    files_first_date: files.firstDate,
    files_last_date: files.lastDate,
    file_rows: files.rows,
    file_disagreements_total: disagreements.total,
    file_disagreements: disagreements.rows,
  };
  const answer = archiveAnswer(answerKey('archive-status'), data, now, karachiTime(now));
  // Progress changes by the second: never a cached answer.
  return { ...answer, provenance: freshNoLaterThan(answer.provenance, now) };
}

/**
 * A past day's intraday record, from what the archive kept: an index's ticks (recorded after the
 * close), or a symbol's prices at each market-watch snapshot the stream poller took that day (a
 * tick per snapshot where its price or volume moved; volume is the shares traded since the
 * previous snapshot).
 */
export async function pastIntraday(
  archive: MarketArchive,
  kind: 'stock' | 'index',
  code: string,
  date: string,
  interval: Interval,
  now: number,
): Promise<Answer<Array<Record<string, string | number>> | IntradayBarT[]>> {
  const ticks: IntradayTick[] = [];
  if (kind === 'index') {
    for (const [epoch, price, volume] of (await archive.intraday(code, date)) ?? [])
      ticks.push({ epoch, price, volume });
  } else {
    let lastPrice: number | null = null;
    let lastVolume = 0;
    for (const { at, rows } of await archive.snapshots(date)) {
      const row = rows.find((r) => r[0] === code);
      if (!row || row[1] === null) continue;
      const volume = row[3] ?? 0;
      if (row[1] !== lastPrice || volume !== lastVolume) {
        ticks.push({ epoch: Math.floor(at / 1000), price: row[1], volume: Math.max(0, volume - lastVolume) });
      }
      lastPrice = row[1];
      lastVolume = volume;
    }
  }
  if (ticks.length === 0) {
    throw new NotFoundError(
      `the archive kept no intraday record of ${code} on ${date} (only days the service recorded are kept)`,
    );
  }
  const valueName = kind === 'index' ? 'value' : 'price';
  const rows =
    interval === 'tick'
      ? ticks.map((t) => ({ time: karachiTime(t.epoch * 1000), [valueName]: t.price, volume: t.volume }))
      : toBars(ticks, BAR_SECONDS[interval]);
  const key = answerKey(`${kind}-intraday-past`, code, { date, interval });
  return archiveAnswer(key, rows, now, closeOf(date));
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
