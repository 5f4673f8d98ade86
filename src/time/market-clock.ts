// Cache freshness on the PSX clock: Asia/Karachi is UTC+5 all year (no DST), so
// plain offset arithmetic is exact and no tz database is needed. Sessions: Mon–Thu 09:30–15:30,
// Fri 09:15–12:00 and 14:30–16:30, weekends closed. No holiday calendar is published, so a
// holiday costs a few needless refetches at the would-be open and nothing worse.
//
// Close grace: post-close prints land until about 17:00, and the day's /historical row appears
// only after that. So a trading day "settles" at 17:00 Karachi (Fri too): until then data
// fetched after the last close is still live (TTL-bound), and every cache entry filled during the
// day expires no later than 17:00, so the last refresh of a day always sees end-of-day numbers.
// isMarketOpen() itself reports the regular session only; the grace is a freshness rule.
//
// Every function takes the instant it reasons about; none reads the clock. Results are epoch ms.

import {
  formatDay,
  karachiDay,
  karachiInstant,
  karachiMidnight,
  karachiTime,
  parseIsoDay,
  weekdayOf,
} from './karachi.ts';

export type FreshnessKind = 'intraday' | 'symbols' | 'reports' | 'history';

export interface MarketClockConfig {
  /** false: plain TTLs around the clock (symbols then use intradayTtlSec). */
  followMarketClock: boolean;
  intradayTtlSec: number;
  historyTtlSec: number;
  reportsTtlSec: number;
}

export const DEFAULT_MARKET_CLOCK_CONFIG: Readonly<MarketClockConfig> = Object.freeze({
  followMarketClock: true,
  intradayTtlSec: 900,
  historyTtlSec: 1800,
  reportsTtlSec: 21_600,
});

/** A Date or epoch milliseconds. */
export type Instant = Date | number;

const MINUTE_MS = 60_000;

/** [open, close) in minutes after Karachi midnight, indexed by weekday (0 = Sunday). */
type Session = readonly [open: number, close: number];
const MON_THU: readonly Session[] = [[9 * 60 + 30, 15 * 60 + 30]];
const SESSIONS: readonly (readonly Session[])[] = [
  [],
  MON_THU,
  MON_THU,
  MON_THU,
  MON_THU,
  [
    [9 * 60 + 15, 12 * 60],
    [14 * 60 + 30, 16 * 60 + 30],
  ],
  [],
];
const SETTLE_MINUTE = 17 * 60;

/** True during a regular session (open inclusive, close exclusive); false in Friday's break. */
export function isMarketOpen(now: Instant): boolean {
  const ms = toMs(now);
  const day = karachiDay(ms);
  return sessionsOn(day).some(([open, close]) => at(day, open) <= ms && ms < at(day, close));
}

/** The first session open strictly after `now` (Friday 14:30 counts; weekends are skipped). */
export function nextSessionOpen(now: Instant): number {
  const ms = toMs(now);
  for (let day = karachiDay(ms); ; day++) {
    for (const [open] of sessionsOn(day)) {
      const t = at(day, open);
      if (t > ms) return t;
    }
  }
}

/** The end of the last session of the current trading day, or of the next one once it has passed. */
export function nextSessionClose(now: Instant): number {
  const ms = toMs(now);
  for (let day = karachiDay(ms); ; day++) {
    const sessions = sessionsOn(day);
    const last = sessions[sessions.length - 1];
    if (last !== undefined && at(day, last[1]) > ms) return at(day, last[1]);
  }
}

/** The calendar date in Karachi, `YYYY-MM-DD`: "today" for the exchange. */
export function karachiDate(now: Instant): string {
  return formatDay(karachiDay(toMs(now)));
}

/** The close of the last session of `date`, ISO 8601 +05:00: when a day's bars are from. */
export function closeOf(date: string): string {
  const last = sessionsOfDate(date).at(-1);
  return karachiTime(last ? last.close : karachiInstant(date, 12 * 60));
}

/**
 * When data of `kind` fetched at `fetchedAt` stops being fresh (epoch ms, never before fetchedAt).
 * - intraday: while live (a session, or after the last close until the 17:00 grace) the TTL,
 *   cut at the end of that live window; otherwise until the next session opens.
 * - symbols: until the next session opens (listings change only between sessions).
 * - reports: reportsTtlSec; filings are not tied to trading hours.
 * - history: until the next day settles (17:00), so the new day's row is picked up; see
 *   historyFreshUntil for a live row of today and a row the portal has not published yet.
 */
export function freshUntil(
  kind: FreshnessKind,
  fetchedAt: Instant,
  cfg: MarketClockConfig,
  newestRowDate?: string,
): number {
  const f = toMs(fetchedAt);
  const intradayMs = ttlMs(cfg.intradayTtlSec, 'intradayTtlSec');
  const historyMs = ttlMs(cfg.historyTtlSec, 'historyTtlSec');
  const reportsMs = ttlMs(cfg.reportsTtlSec, 'reportsTtlSec');
  if (kind === 'reports') return f + reportsMs;
  if (!cfg.followMarketClock) {
    // Without the clock, the symbol list shares the intraday TTL: one cheap page, and a new
    // listing must not stay unknown for hours on its first day.
    return f + (kind === 'history' ? historyMs : intradayMs);
  }
  if (kind === 'symbols') return nextSessionOpen(f);
  if (kind === 'history') return historyFreshUntil(f, historyMs, newestRowDate);
  const liveEnd = liveWindowEnd(f);
  return Number.isNaN(liveEnd) ? nextSessionOpen(f) : Math.min(f + intradayMs, liveEnd);
}

// History only grows by one row per trading day, published after that day settles.
// - No newest row known: until the next settle.
// - Newest row is today's and today has not settled: that row is still moving, so the history
//   TTL, cut at today's settle.
// - Newest row is at least the last settled trading day's: complete; until the next settle.
// - Older: the portal has not published the settled day's row yet (or the day was a holiday, or
//   the symbol did not trade). Poll at the history TTL until the next session opens; after that
//   assume no row is coming and wait for the next settle, so a holiday or an illiquid symbol
//   cannot cause a refetch on every request.
function historyFreshUntil(f: number, historyMs: number, newestRowDate: string | undefined): number {
  const nextSettle = nextSettleAfter(f);
  if (newestRowDate === undefined) return nextSettle;
  if (!ISO_DATE.test(newestRowDate)) {
    throw new RangeError(`newestRowDate must be YYYY-MM-DD, got ${JSON.stringify(newestRowDate)}`);
  }
  const today = karachiDay(f);
  if (newestRowDate >= formatDay(today)) {
    const todaySettle = at(today, SETTLE_MINUTE);
    return isTradingDay(today) && f < todaySettle ? Math.min(f + historyMs, todaySettle) : nextSettle;
  }
  const settled = lastSettledDay(f);
  if (newestRowDate >= formatDay(settled)) return nextSettle;
  const publishDeadline = nextSessionOpen(at(settled, SETTLE_MINUTE));
  return f < publishDeadline ? Math.min(f + historyMs, nextSettle) : nextSettle;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** End of the live window (a session, the last one extended to the settle) holding ms, or NaN. */
function liveWindowEnd(ms: number): number {
  const day = karachiDay(ms);
  const sessions = sessionsOn(day);
  for (let i = 0; i < sessions.length; i++) {
    const [open, close] = sessions[i] as Session;
    const end = at(day, i === sessions.length - 1 ? SETTLE_MINUTE : close);
    if (at(day, open) <= ms && ms < end) return end;
  }
  return NaN;
}

function nextSettleAfter(ms: number): number {
  for (let day = karachiDay(ms); ; day++) {
    if (isTradingDay(day) && at(day, SETTLE_MINUTE) > ms) return at(day, SETTLE_MINUTE);
  }
}

function lastSettledDay(ms: number): number {
  for (let day = karachiDay(ms); ; day--) {
    if (isTradingDay(day) && at(day, SETTLE_MINUTE) <= ms) return day;
  }
}

function isTradingDay(day: number): boolean {
  return sessionsOn(day).length > 0;
}

function sessionsOn(day: number): readonly Session[] {
  return SESSIONS[weekdayOf(day)] ?? [];
}

/** The instant of minute-of-day `minute` on Karachi day `day`. */
function at(day: number, minute: number): number {
  return karachiMidnight(day) + minute * MINUTE_MS;
}

function toMs(instant: Instant): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid instant');
  return ms;
}

function ttlMs(sec: number, name: string): number {
  if (!Number.isFinite(sec) || sec < 0) throw new RangeError(`${name} must be a non-negative number`);
  return sec * 1000;
}

/** The sessions of the Karachi trading day holding `now` ([] on a weekend), as epoch-ms windows. */
export function sessionsOfDay(now: Instant): { open: number; close: number }[] {
  return sessionsOfKarachiDay(karachiDay(toMs(now)));
}

/** The sessions of the Karachi date `date` (`YYYY-MM-DD`; [] on a weekend), as epoch-ms windows. */
export function sessionsOfDate(date: string): { open: number; close: number }[] {
  return sessionsOfKarachiDay(parseIsoDay(date));
}

function sessionsOfKarachiDay(day: number): { open: number; close: number }[] {
  return sessionsOn(day).map(([open, close]) => ({ open: at(day, open), close: at(day, close) }));
}

/**
 * The end of the last session that closed at or before `now` (Friday's 12:00 counts), epoch ms.
 * Weekends are skipped; no holiday calendar is known (see the top of this file).
 */
export function lastSessionClose(now: Instant): number {
  const ms = toMs(now);
  for (let day = karachiDay(ms); ; day--) {
    const sessions = sessionsOn(day);
    for (let i = sessions.length - 1; i >= 0; i--) {
      const t = at(day, (sessions[i] as Session)[1]);
      if (t <= ms) return t;
    }
  }
}

/**
 * The time a live page fetched at `fetchedAt` describes: the fetch itself during a session;
 * otherwise the end of the last session, since prices do not move between sessions. This is a
 * fact of the exchange's timetable, so it holds whether or not cache freshness follows the clock.
 */
export function marketDataTime(fetchedAt: Instant): number {
  const ms = toMs(fetchedAt);
  return isMarketOpen(ms) ? ms : lastSessionClose(ms);
}

/**
 * The last trading day whose final session has closed at or before `now`, `YYYY-MM-DD`: the newest
 * day a complete daily bar can exist for (a Friday before 16:30 is not closed yet). Weekends are
 * skipped; no holiday calendar is known (see the top of this file).
 */
export function lastClosedDay(now: Instant): string {
  const ms = toMs(now);
  const date = karachiDate(lastSessionClose(ms));
  const sessions = sessionsOfDate(date);
  const first = sessions[0];
  if (first === undefined || sessions.at(-1)!.close <= ms) return date;
  return karachiDate(lastSessionClose(first.open));
}
