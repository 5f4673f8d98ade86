// Members of an index or a sector ranked by their return over a period, and each sector's
// cap-weighted return, from the members' adjusted daily series (member-series.ts). An answer says
// how many members had data and which did not (meta.coverage); a partial answer is kept only
// briefly, so the missing members are asked for again soon.
import { createHash } from 'node:crypto';
import { lastOnOrBefore, minusDays } from '../../analytics/dates.ts';
import { periodTarget, type Period } from '../../analytics/periods.ts';
import { periodReturn, type PeriodReturn } from '../../analytics/returns.ts';
import type { Provenance } from '../../cache/types.ts';
import { combine, freshNoLaterThan } from '../../cache/types.ts';
import { denoise } from '../../exchange/parsers/cells.ts';
import { answerKey, marketAsOf, type Answer } from '../answer.ts';
import type { Series } from './analytics-rows.ts';
import { cutAt, indexSeriesOf } from './analytics-rows.ts';
import type { MarketArchive } from '../archive/archive.ts';
import { fileBars } from '../archive/files.ts';
import { withClose } from '../../analytics/series.ts';
import { closeOf } from '../../time/market-clock.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { constituentSymbols, resolveIndexCode } from '../listings/indices.ts';
import type { MemberSeries, MemberSeriesSource } from './member-series.ts';
import type { MemberReturnT, SectorReturnT } from '../models/analytics.ts';
import { sectorMembers } from '../listings/sectors.ts';
import { degraded, had, lacking, Missing, missingMeta, secondary } from '../partial.ts';

export interface Coverage {
  members: number;
  with_data: number;
  missing: { symbol: string; reason: string }[];
  /** Members with data whose closes are raw: their adjustment was unavailable, and why. */
  raw: { symbol: string; reason: string }[];
  /** Members with data by where their series came from (when the source can read the archive). */
  sources?: { archive: number; portal: number };
  /** Whose membership the answer ranks: today's, or with the equities delisted since added. */
  membership?: Membership;
}

/**
 * Survivorship, said once per answer: whether the equities that traded on the period's start day
 * and are delisted since are among the members, and if not, why.
 */
export interface Membership {
  delisted_included: boolean;
  /** Delisted equities added (0 when not included). */
  delisted: number;
  /** The closing file the start-day equities were read from; null when none was read. */
  start_day: string | null;
  note: string;
  /** Sectors: delisted equities whose sector is no longer on the sector page, so in no row. */
  unplaced?: { symbol: string; sector_code: string }[];
}

/**
 * Whether a member's closes are adjusted: an archived series carries its kept factors; a portal
 * one says so in its adjustment meta (`unavailable`: raw prices).
 */
function rawReason(s: Series): string | null {
  if (s.adjustment === null || s.adjustment.status !== 'unavailable') return null;
  return s.adjustment.reason ?? 'no adjustment could be made; the closes are raw';
}

function countRaw(coverage: Coverage, symbol: string, s: Series): void {
  const reason = rawReason(s);
  if (reason !== null) coverage.raw.push({ symbol, reason });
}

function countSource(coverage: Coverage, m: MemberSeries): void {
  if (m.source === undefined) return;
  coverage.sources ??= { archive: 0, portal: 0 };
  coverage.sources[m.source]++;
}

// How long a partial ranking is cached: a cache lifetime, not a limit (nothing is counted or
// refused): asked again after it, the missing members are fetched again.
const PARTIAL_FRESH_MS = 60_000;

/** The all-share index: every listed share is a member, so every equity of a day's file was one. */
const ALL_SHARE = 'ALLSHR';

const pct = (fraction: number): number => denoise(fraction * 100);

function memberReturn(symbol: string, s: Series, r: PeriodReturn): MemberReturnT {
  const end = s.bars.length - 1;
  const row: MemberReturnT = {
    rank: null,
    symbol,
    adjusted: rawReason(s) === null,
    return_pct: null,
    start_date: null,
    start_close: null,
    end_date: end >= 0 ? s.dates[end]! : null,
    end_close: end >= 0 ? s.bars[end]!.close : null,
    volume: null,
    reason: null,
  };
  if (r.value === null) {
    row.reason = r.reason;
    return row;
  }
  let volume = 0;
  for (let t = r.start + 1; t <= end; t++) volume += s.bars[t]!.volume ?? 0;
  row.return_pct = pct(r.value);
  row.start_date = s.dates[r.start]!;
  row.start_close = s.bars[r.start]!.close;
  row.volume = volume;
  return row;
}

/**
 * A member's return over the period. A delisted one runs from the period's start day (the closing
 * file it was found in) to its last close by the end, which may be its last day of trading:
 * measured back from its own last day, the period would start before the others' start.
 */
function returnOf(s: Series, period: Period, delistedFrom: string | null): PeriodReturn {
  if (delistedFrom === null) return periodReturn(s.bars, s.dates, period);
  const end = s.bars.length - 1;
  const start = lastOnOrBefore(s.dates, delistedFrom);
  if (start < 0 || start >= end) {
    const reason =
      start < 0
        ? `no close on or before the period's start day, ${delistedFrom}`
        : `no trade after the period's start day (${delistedFrom}): its last close is on ${s.dates[end]}`;
    return { period, start: null, end, target: null, value: null, reason };
  }
  return { period, start, end, target: delistedFrom, value: s.bars[end]!.close / s.bars[start]!.close - 1 };
}

/** Highest return first, rows without one last (rank null); ranks from 1. */
function rankByReturn<T extends { rank: number | null; return_pct: number | null }>(rows: T[]): void {
  rows.sort((a, b) =>
    a.return_pct === null
      ? b.return_pct === null
        ? 0
        : 1
      : b.return_pct === null
        ? -1
        : b.return_pct - a.return_pct,
  );
  rows.forEach((r, k) => {
    if (r.return_pct !== null) r.rank = k + 1;
  });
}

/** One short version for an answer built from many datasets. */
function provenanceOf(parts: Provenance[], partial: boolean): Provenance {
  const combined = combine(parts);
  const p = { ...combined, version: createHash('sha1').update(combined.version).digest('base64url') };
  return partial ? freshNoLaterThan(p, p.fetchedAt + PARTIAL_FRESH_MS, '-partial') : p;
}

export interface MarketPerformanceQuery {
  period: Period;
  index?: string;
  sector?: string;
  /** YYYY-MM-DD, checked (checkEnd): each series cut there, the period ending on it. */
  end?: string;
  /** With `end` and `sector`: the closing files, for the equities of the period's start day. */
  archive?: MarketArchive;
}

/** Calendar days the exchange's longest closures (Eid) fit in. */
const CLOSURE_DAYS = 14;

/**
 * The period's start day: the last closing file on or before the period's calendar start,
 * measured back from the last file on or before `end` (1D: the file before that one); null when
 * the files do not reach back to it, or for ALL (each member's own first row, no common day).
 */
async function startDayOf(archive: MarketArchive, period: Period, end: string): Promise<string | null> {
  if (period === 'ALL') return null;
  const days = (await archive.dailyFiles((f) => f.fileDays()))
    .filter((d) => d.found)
    .map((d) => d.date)
    .sort();
  const e = lastOnOrBefore(days, end);
  // A file further back than the longest closure is not that day's: the files stop before it.
  if (e < 0 || days[e]! < minusDays(end, CLOSURE_DAYS)) return null;
  if (period === '1D') return e > 0 ? days[e - 1]! : null;
  const target = periodTarget(period, days[e]!)!;
  const at = lastOnOrBefore(days, target);
  return at < 0 || days[at]! < minusDays(target, CLOSURE_DAYS) ? null : days[at]!;
}

/** The equities of a start day's file the exchange no longer lists, with their sector codes. */
interface DelistedAtStart {
  day: string | null;
  symbols: { symbol: string; sectorCode: string }[];
}

/**
 * The equities of the period's start day's closing file that the exchange no longer lists
 * (`sectorCode` null: of every sector): a ranking of a past period without them would rank only
 * the survivors.
 */
async function delistedAtStart(
  archive: MarketArchive,
  datasets: Datasets,
  ctx: RequestContext,
  period: Period,
  end: string,
  sectorCode: string | null,
): Promise<DelistedAtStart> {
  const day = await startDayOf(archive, period, end);
  if (day === null) return { day, symbols: [] };
  const [rows, listedNow] = await Promise.all([
    archive.dailyFiles((f) => f.fileRows(day, ['equity'])),
    datasets.symbols(ctx),
  ]);
  const listed = new Set(listedNow.value.map((s) => s.symbol));
  const symbols = rows
    .filter((r) => (sectorCode === null || r.sectorCode === sectorCode) && !listed.has(r.symbol))
    .map((r) => ({ symbol: r.symbol, sectorCode: r.sectorCode }));
  return { day, symbols };
}

const NO_FILES = 'the archive’s closing files do not reach back to the period’s start day';

/**
 * An index other than the all-share one: its past membership is not published, so a past ranking
 * ranks today's members.
 */
function todaysIndexMembership(code: string): Membership {
  return {
    delisted_included: false,
    delisted: 0,
    start_day: null,
    note: `${code}’s members are today’s: the exchange publishes no past membership of ${code}, so former members delisted or dropped since are not included and later entrants are ranked (the answer leans to the survivors); ALLSHR (every listed share) and sector rankings include the equities delisted since`,
  };
}

/** What the membership of a ranking is, for meta.coverage.membership. */
function membershipOf(who: string, delisted: DelistedAtStart | null, period: Period): Membership {
  if (delisted !== null && delisted.day !== null) {
    return {
      delisted_included: true,
      delisted: delisted.symbols.length,
      start_day: delisted.day,
      note: `${who}: today’s, and the equities of the period’s start day’s closing file (${delisted.day}) delisted since (${delisted.symbols.length}, marked delisted: true, on raw closes)`,
    };
  }
  const why =
    period === 'ALL'
      ? 'ALL starts on each member’s own first row, so no one start day’s closing file says who traded'
      : delisted === null
        ? 'the archive, which reads the exchange’s closing files, is off (ARCHIVE=on)'
        : NO_FILES;
  return {
    delisted_included: false,
    delisted: 0,
    start_day: null,
    note: `${who}: today’s only; equities delisted since are not included, so the answer leans to the survivors: ${why}`,
  };
}

/**
 * A delisted equity's series from the closing files that carried it, raw: the exchange publishes
 * no adjusted series or payouts for it any more (as its /stocks/{symbol}/historical says).
 */
async function delistedSeries(archive: MarketArchive, symbol: string, at: Provenance): Promise<MemberSeries> {
  const bars = withClose(await fileBars(archive, symbol));
  const dates = bars.map((b) => b.date);
  return {
    symbol,
    source: 'archive',
    series: {
      bars,
      dates,
      adjustment: {
        status: 'unavailable',
        series_start: null,
        partial_before: null,
        dividends: false,
        dividends_from: null,
        reason: `${symbol} is no longer listed: the exchange publishes no adjusted series for it, so its closes are raw (from its closing files)`,
      },
      answer: {
        key: `delisted-series:${symbol}`,
        data: null,
        asOf: marketAsOf(at.fetchedAt),
        provenance: { ...at, version: `${symbol}@${dates.at(-1) ?? ''}/${dates.length}` },
      },
    },
  };
}

/** The code of the sector `members` (one sector's list, non-empty) belong to, from the sector page. */
async function sectorCodeOf(datasets: Datasets, members: readonly string[], ctx: RequestContext) {
  const page = await datasets.sectors(ctx);
  return page.value.members.find((m) => m.symbols.includes(members[0]!))?.sectorCode ?? null;
}

/**
 * A member's series as of `end` (itself without one), or why it has none then. A source may leave
 * out rows older than the period reaches from today, so with `end` the whole series is asked for.
 */
function asOfEnd(s: Series, end: string | undefined): Series | string {
  const cut = cutAt(s, end);
  if (cut.at >= 0) return cut;
  return s.bars.length === 0
    ? 'no daily history'
    : `no close on or before ${end}: its daily history starts on ${s.dates[0]}`;
}

/** When a ranking as of `end` is from: the close of the latest day a series reached, if any. */
function endAsOf(latest: string | null, fallback: string): string {
  return latest === null ? fallback : closeOf(latest);
}

export async function marketPerformance(
  datasets: Datasets,
  source: MemberSeriesSource,
  query: MarketPerformanceQuery,
  ctx: RequestContext,
): Promise<Answer<MemberReturnT[]>> {
  const indexName = query.sector === undefined ? (query.index ?? 'KSE100') : undefined;
  const members = indexName
    ? await constituentSymbols(datasets, indexName, ctx)
    : await sectorMembers(datasets, query.sector!, ctx);
  const code = indexName ? resolveIndexCode(indexName)! : null;
  // Who traded at a past period's start is known for a sector (its code in the closing file) and
  // for the all-share index, which holds every listed share: every equity of the file.
  const { archive, end } = query;
  const knowable = end !== undefined && (code === null || code === ALL_SHARE);
  const sectorCode =
    knowable && archive && query.sector !== undefined && members.data.length > 0
      ? await sectorCodeOf(datasets, members.data, ctx)
      : null;
  // null: not knowable here; no day: the sector's code (so its start-day equities) is not known.
  let delisted: DelistedAtStart | null = null;
  if (knowable && archive) {
    delisted =
      code !== null || sectorCode !== null
        ? await delistedAtStart(archive, datasets, ctx, query.period, end, sectorCode)
        : { day: null, symbols: [] };
  }
  const gone = new Map((delisted?.symbols ?? []).map((d) => [d.symbol, delisted!.day!]));
  const [listed, gonePart, index] = await Promise.all([
    source.load(members.data, ctx, end === undefined ? query.period : undefined),
    Promise.all([...gone.keys()].map((s) => delistedSeries(archive!, s, members.provenance))),
    code ? indexSeriesOf(datasets, code, ctx).catch(() => null) : Promise.resolve(null),
  ]);
  const loaded = [...listed, ...gonePart];
  const rows: MemberReturnT[] = [];
  const coverage: Coverage = {
    members: loaded.length,
    with_data: 0,
    missing: [],
    raw: [],
  };
  const parts: Provenance[] = [members.provenance];
  let latest: string | null = null;
  for (const m of loaded) {
    if ('reason' in m) {
      coverage.missing.push({ symbol: m.symbol, reason: m.reason });
      continue;
    }
    const series = asOfEnd(m.series, query.end);
    if (typeof series === 'string') {
      coverage.missing.push({ symbol: m.symbol, reason: series });
      continue;
    }
    coverage.with_data++;
    countSource(coverage, m);
    countRaw(coverage, m.symbol, series);
    parts.push(series.answer.provenance);
    const from = gone.get(m.symbol) ?? null;
    const row = memberReturn(m.symbol, series, returnOf(series, query.period, from));
    if (from !== null) row.delisted = true;
    if (latest === null || row.end_date! > latest) latest = row.end_date;
    rows.push(row);
  }
  rankByReturn(rows);
  if (end !== undefined) {
    coverage.membership =
      code !== null && code !== ALL_SHARE
        ? todaysIndexMembership(code)
        : membershipOf(
            code === null ? 'The sector’s members' : `${ALL_SHARE}’s members (every listed share)`,
            delisted,
            query.period,
          );
  }
  let indexReturn: Record<string, unknown> | null = null;
  if (index) {
    parts.push(index.answer.provenance);
    const levels = cutAt(index, query.end);
    const r = periodReturn(levels.bars, levels.dates, query.period);
    indexReturn =
      r.value === null
        ? { index: code, return_pct: null, start_date: null, end_date: null, reason: r.reason }
        : {
            index: code,
            return_pct: pct(r.value),
            start_date: levels.dates[r.start]!,
            end_date: levels.dates[r.end]!,
            reason: null,
          };
  } else if (code) {
    indexReturn = {
      index: code,
      return_pct: null,
      start_date: null,
      end_date: null,
      reason: `${code}'s daily levels could not be had`,
    };
  }
  return {
    key: answerKey('market-performance', {
      period: query.period,
      index: code ?? undefined,
      sector: query.sector === undefined ? undefined : members.key,
      end: query.end,
    }),
    asOf: query.end === undefined ? members.asOf : endAsOf(latest, members.asOf),
    provenance: provenanceOf(parts, coverage.missing.length > 0 || (code !== null && index === null)),
    data: rows,
    meta: { period: query.period, ...(indexReturn ? { index_return: indexReturn } : {}), coverage },
  };
}

/** The mean and the median of `values` (non-empty), as fractions. */
function meanAndMedian(values: number[]): { mean: number; median: number } {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return {
    mean: values.reduce((sum, v) => sum + v, 0) / values.length,
    median: sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
  };
}

/**
 * Each sector's cap-weighted return: Σ cap_i / Σ (cap_i / (1 + r_i)) − 1 over the members with a
 * return and a market cap, cap_i the screener's market cap today. That is Σ w_i r_i with w_i each
 * member's cap at the period's start in today's shares (cap_i / (1 + r_i), the closes adjusted
 * for capital changes): the return of holding the sector's members in proportion to their caps.
 * A delisted equity has no cap today, so beside it each row gives the equal-weighted and the
 * median return of every member that traded at the period's start, the equities of the sector
 * delisted since included (from the start day's closing file, when the archive holds it).
 */
export async function sectorPerformance(
  datasets: Datasets,
  source: MemberSeriesSource,
  period: Period,
  ctx: RequestContext,
  end?: string,
  archive?: MarketArchive,
): Promise<Answer<SectorReturnT[]>> {
  // The sector page is primary (the sectors and their members: without it the answer fails); the
  // screener is secondary: without its caps no sector can be weighted, so each is served with a
  // null return and a reason, and `meta.missing` names `screener`.
  const [page, screener] = await Promise.all([
    datasets.sectors(ctx),
    secondary('screener', datasets.screener(ctx)),
  ]);
  const caps = new Map(screener instanceof Missing ? [] : screener.value.map((r) => [r.symbol, r.marketCap]));
  const names = new Map(page.value.sectors.map((s) => [s.sectorCode, s.sectorName]));
  const bySector = page.value.members.map((m) => ({
    code: m.sectorCode,
    name: names.get(m.sectorCode) ?? m.sectorName,
    symbols: m.symbols,
  }));
  const all = [...new Set(bySector.flatMap((s) => s.symbols))];
  const listed = await source.load(all, ctx, end === undefined ? period : undefined);
  // The period ends on `end`, or without it on the latest day a member's series reaches.
  let lastDay = end ?? null;
  if (end === undefined) {
    for (const m of listed) {
      const day = 'series' in m ? m.series.dates.at(-1) : undefined;
      if (day !== undefined && (lastDay === null || day > lastDay)) lastDay = day;
    }
  }
  const delisted =
    archive === undefined
      ? null
      : lastDay === null
        ? { day: null, symbols: [] }
        : await delistedAtStart(archive, datasets, ctx, period, lastDay, null);
  const goneBySector = new Map<string, string[]>();
  for (const d of delisted?.symbols ?? []) {
    goneBySector.set(d.sectorCode, [...(goneBySector.get(d.sectorCode) ?? []), d.symbol]);
  }
  const goneSymbols = new Set((delisted?.symbols ?? []).map((d) => d.symbol));
  const gonePart = await Promise.all(
    [...goneSymbols].map((symbol) => delistedSeries(archive!, symbol, page)),
  );
  const loaded = [...listed, ...gonePart];
  const returns = new Map<string, number | null>();
  // A member's cap at `end` in today's shares: today's cap × its adjusted close then ÷ its last.
  const capScale = new Map<string, number>();
  let latest: string | null = null;
  const coverage: Coverage = {
    members: loaded.length,
    with_data: 0,
    missing: [],
    raw: [],
  };
  const parts: Provenance[] = had([page, screener]);
  for (const m of loaded) {
    const series = 'reason' in m ? m.reason : asOfEnd(m.series, end);
    if (typeof series === 'string') {
      coverage.missing.push({ symbol: m.symbol, reason: series });
      returns.set(m.symbol, null);
      continue;
    }
    coverage.with_data++;
    countSource(coverage, m);
    countRaw(coverage, m.symbol, series);
    parts.push(series.answer.provenance);
    const r = returnOf(series, period, goneSymbols.has(m.symbol) ? delisted!.day : null);
    returns.set(m.symbol, r.value);
    const last = series.bars.length - 1;
    if (end !== undefined && 'series' in m) {
      capScale.set(m.symbol, series.bars[last]!.close / m.series.bars.at(-1)!.close);
      const day = series.dates[last]!;
      if (latest === null || day > latest) latest = day;
    }
  }
  coverage.membership = membershipOf('Each sector’s members', delisted, period);
  const placed = new Set(bySector.map((s) => s.code));
  const unplaced = (delisted?.symbols ?? []).filter((d) => !placed.has(d.sectorCode));
  if (delisted !== null && delisted.day !== null) {
    coverage.membership.unplaced = unplaced.map((d) => ({ symbol: d.symbol, sector_code: d.sectorCode }));
    if (unplaced.length > 0) {
      coverage.membership.note += `; ${unplaced.length} of them belong to sectors no longer on the sector page (${[...new Set(unplaced.map((d) => d.sectorCode))].join(', ')}), so they are in no row (unplaced)`;
    }
  }
  const rows = bySector.map((s): SectorReturnT => {
    let capNow = 0;
    let capStart = 0;
    let counted = 0;
    for (const symbol of s.symbols) {
      const r = returns.get(symbol) ?? null;
      const capToday = caps.get(symbol) ?? null;
      const cap = capToday === null ? null : capToday * (capScale.get(symbol) ?? 1);
      if (r === null || cap === null || cap <= 0) continue;
      capNow += cap;
      capStart += cap / (1 + r);
      counted++;
    }
    const gone = goneBySector.get(s.code) ?? [];
    const atStart = [...s.symbols, ...gone]
      .map((symbol) => returns.get(symbol) ?? null)
      .filter((r): r is number => r !== null);
    const spread = atStart.length > 0 ? meanAndMedian(atStart) : null;
    return {
      rank: null,
      sector_code: s.code,
      sector_name: s.name,
      return_pct: counted > 0 ? pct(capNow / capStart - 1) : null,
      members: s.symbols.length,
      members_counted: counted,
      market_cap: counted > 0 ? capNow : null,
      reason:
        counted > 0
          ? null
          : screener instanceof Missing
            ? 'the market caps (the screener) could not be had: see meta.missing'
            : 'no member with both a return over the period and a market cap',
      members_at_start: atStart.length,
      delisted_members: delisted === null || delisted.day === null ? null : gone.length,
      equal_weight_return_pct: spread === null ? null : pct(spread.mean),
      median_return_pct: spread === null ? null : pct(spread.median),
    };
  });
  rankByReturn(rows);
  const missing = lacking([screener]);
  const missingParts = missingMeta(missing);
  return {
    key: answerKey('sectors-performance', { period, end }),
    asOf: end === undefined ? marketAsOf(page.fetchedAt) : endAsOf(latest, marketAsOf(page.fetchedAt)),
    provenance: degraded(provenanceOf(parts, coverage.missing.length > 0), missing),
    data: rows,
    meta: { period, coverage, ...(missingParts ? { missing: missingParts } : {}) },
  };
}
