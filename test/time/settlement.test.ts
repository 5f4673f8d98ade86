import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  entitlementDates,
  entitlementDatesOn,
  settlementCycleOn,
  shiftTradingDays,
} from '../../src/time/settlement.ts';

describe('settlement', () => {
  it('T+1 from 2025-02-10: the ex-date is the trading day before the book closure, the last day to buy the one before', () => {
    // Book closure from Wednesday 2026-11-25: record Tuesday, buy by Monday, ex Tuesday.
    assert.deepEqual(entitlementDates('2026-11-25'), {
      lastDayToBuy: '2026-11-23',
      exDate: '2026-11-24',
      cycle: 'T+1',
    });
    // From a Monday: record the Friday before, buy by Thursday, ex Friday.
    assert.deepEqual(entitlementDates('2026-11-30'), {
      lastDayToBuy: '2026-11-26',
      exDate: '2026-11-27',
      cycle: 'T+1',
    });
  });

  it('T+2 before the changeover', () => {
    // Book closure from Wednesday 2024-11-27: record Tuesday, buy by Friday (T+2), ex Monday.
    assert.deepEqual(entitlementDates('2024-11-27'), {
      lastDayToBuy: '2024-11-22',
      exDate: '2024-11-25',
      cycle: 'T+2',
    });
    assert.equal(settlementCycleOn('2025-02-07').name, 'T+2');
    assert.equal(settlementCycleOn('2025-02-10').name, 'T+1');
  });

  it('skips weekends and refuses impossible dates', () => {
    assert.equal(shiftTradingDays('2026-11-20', 1), '2026-11-23');
    assert.equal(shiftTradingDays('2026-11-23', -1), '2026-11-20');
    assert.equal(entitlementDates('2026-02-30'), null);
  });
});

describe('entitlement dates over a trading calendar', () => {
  it('a holiday in the calendar moves the dates; a day beyond it counts as a weekday and says so', () => {
    // Friday 2026-11-13 a holiday; the calendar knows days up to 2026-11-20.
    const calendar = {
      isTradingDay: (d: string) =>
        d > '2026-11-20'
          ? undefined
          : d !== '2026-11-13' && ![0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()),
    };
    assert.deepEqual(entitlementDatesOn('2026-11-17', calendar), {
      lastDayToBuy: '2026-11-12',
      exDate: '2026-11-16',
      cycle: 'T+1',
      tradingDays: 'calendar',
    });
    assert.equal(entitlementDatesOn('2026-11-25', calendar)?.tradingDays, 'weekdays');
    assert.equal(shiftTradingDays('2026-11-16', -1, calendar), '2026-11-12');
  });
});
