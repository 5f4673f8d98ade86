// The exchange's settlement cycle and the entitlement dates it implies, the one place for both.
// A buyer is on the register for an entitlement when the trade settles before the book closure
// starts: the record day is the trading day before the closure, the last day to buy is the record
// day less the cycle's trading days, and the next trading day is the ex-date.
//
// PSX settled T+2 and moved ready-market trades to T+1 in February 2025 (announced by the exchange
// and the SECP; the portal publishes no settlement data, so the date is a constant here, marked
// [L] in docs/market-feeds.md). Trading days are weekdays: the portal publishes no holiday
// calendar, so a public holiday inside the window moves the real dates one
// trading day earlier than computed here.
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

/** `n` trading days after (n > 0) or before (n < 0) `date`; `date` itself need not trade. */
export function shiftTradingDays(date: string, n: number): string {
  let day = parseIsoDay(date);
  const step = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0;) {
    day += step;
    const w = weekday(day);
    if (w !== 0 && w !== 6) left--;
  }
  return formatDay(day);
}

export interface EntitlementDates {
  /** The last trading day a purchase still carries the entitlement. */
  lastDayToBuy: string;
  /** The first trading day a purchase no longer carries it. */
  exDate: string;
  cycle: string;
}

/** The dates an entitlement with a book closure starting on `bookClosureFrom` implies; null for a bad date. */
export function entitlementDates(bookClosureFrom: string): EntitlementDates | null {
  if (Number.isNaN(parseIsoDay(bookClosureFrom))) return null;
  const record = shiftTradingDays(bookClosureFrom, -1);
  // The cycle of the trade date decides: the newest cycle whose trades on that date settle by the record day.
  for (let i = SETTLEMENT_CYCLES.length - 1; i >= 0; i--) {
    const cycle = SETTLEMENT_CYCLES[i] as SettlementCycle;
    const lastDayToBuy = shiftTradingDays(record, -cycle.days);
    if (lastDayToBuy >= cycle.since || i === 0)
      return { lastDayToBuy, exDate: shiftTradingDays(lastDayToBuy, 1), cycle: cycle.name };
  }
  return null;
}
