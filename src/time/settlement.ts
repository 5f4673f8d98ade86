// The exchange's settlement cycle and the entitlement dates it implies, the one place for both.
// A buyer is on the register for an entitlement when the trade settles before the book closure
// starts: the record day is the trading day before the closure, the last day to buy is the record
// day less the cycle's trading days, and the next trading day is the ex-date.
//
// PSX settled T+2 and moved ready-market trades to T+1 in February 2025 (announced by the exchange
// and the SECP; the portal publishes no settlement data, so the date is a constant here, marked
// [L] in docs/market-feeds.md). The portal publishes no holiday calendar: the trading days are the
// caller's calendar (the archive's days with bars) where it covers a date, weekdays beyond it, and
// the answer says whether weekdays were assumed.
import { formatDay, parseIsoDay, weekdayOf as weekday } from './karachi.ts';

export interface SettlementCycle {
  /** `T+1`, `T+2`: trading days from trade to settlement. */
  readonly name: string;
  readonly days: number;
  /** First trade date under this cycle, `YYYY-MM-DD`. */
  readonly since: string;
}

/** Oldest first. */
export const SETTLEMENT_CYCLES: readonly SettlementCycle[] = [
  { name: 'T+2', days: 2, since: '0001-01-01' },
  { name: 'T+1', days: 1, since: '2025-02-10' },
];

/** The cycle in force for trades on `date`. */
export function settlementCycleOn(date: string): SettlementCycle {
  let cycle = SETTLEMENT_CYCLES[0] as SettlementCycle;
  for (const c of SETTLEMENT_CYCLES) if (c.since <= date) cycle = c;
  return cycle;
}

/** Known trading days: true or false where the calendar covers `date`, undefined beyond it. */
export interface TradingCalendar {
  isTradingDay(date: string): boolean | undefined;
}

/** A shift's result, and whether a day it stepped over was taken to trade because it is a weekday. */
interface Shift {
  date: string;
  assumedWeekdays: boolean;
}

function shift(date: string, n: number, calendar?: TradingCalendar): Shift {
  let day = parseIsoDay(date);
  let assumedWeekdays = false;
  const step = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0;) {
    day += step;
    const known = calendar?.isTradingDay(formatDay(day));
    if (known === undefined) assumedWeekdays = true;
    const w = weekday(day);
    if (known ?? (w !== 0 && w !== 6)) left--;
  }
  return { date: formatDay(day), assumedWeekdays };
}

/** `n` trading days after (n > 0) or before (n < 0) `date`; `date` itself need not trade. */
export function shiftTradingDays(date: string, n: number, calendar?: TradingCalendar): string {
  return shift(date, n, calendar).date;
}

export interface EntitlementDates {
  /** The last trading day a purchase still carries the entitlement. */
  lastDayToBuy: string;
  /** The first trading day a purchase no longer carries it. */
  exDate: string;
  cycle: string;
}

export interface CalendarEntitlementDates extends EntitlementDates {
  /** `calendar`: every day counted was the calendar's; `weekdays`: some were assumed to trade as weekdays. */
  tradingDays: 'calendar' | 'weekdays';
}

/** The dates an entitlement implies over weekdays alone; null for a bad date. */
export function entitlementDates(bookClosureFrom: string): EntitlementDates | null {
  const dates = entitlementDatesOn(bookClosureFrom);
  return dates && { lastDayToBuy: dates.lastDayToBuy, exDate: dates.exDate, cycle: dates.cycle };
}

/**
 * The dates an entitlement with a book closure starting on `bookClosureFrom` implies, counting
 * the calendar's trading days where it covers them (a holiday moves the dates), weekdays beyond;
 * null for a bad date.
 */
export function entitlementDatesOn(
  bookClosureFrom: string,
  calendar?: TradingCalendar,
): CalendarEntitlementDates | null {
  if (Number.isNaN(parseIsoDay(bookClosureFrom))) return null;
  const record = shift(bookClosureFrom, -1, calendar);
  // The cycle of the trade date decides: the newest cycle whose trades on that date settle by the record day.
  for (let i = SETTLEMENT_CYCLES.length - 1; i >= 0; i--) {
    const cycle = SETTLEMENT_CYCLES[i] as SettlementCycle;
    const lastDayToBuy = shift(record.date, -cycle.days, calendar);
    if (lastDayToBuy.date >= cycle.since || i === 0) {
      const exDate = shift(lastDayToBuy.date, 1, calendar);
      const assumed = record.assumedWeekdays || lastDayToBuy.assumedWeekdays || exDate.assumedWeekdays;
      return {
        lastDayToBuy: lastDayToBuy.date,
        exDate: exDate.date,
        cycle: cycle.name,
        tradingDays: calendar === undefined || assumed ? 'weekdays' : 'calendar',
      };
    }
  }
  return null;
}
