// The market state the dashboard shows, at pinned instants of one Karachi week.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { marketStatus } from '../../src/market/quotes/market-status.ts';
import { karachiTime } from '../../src/time/karachi.ts';

// Mon 2026-10-05 … Fri 2026-10-09, Sat 2026-10-10.
const at = (iso: string): number => Date.parse(`${iso}+05:00`);
const followed = { followMarketClock: true };

describe('marketStatus', () => {
  const cases: readonly [instant: string, state: string][] = [
    ['2026-10-05T09:14:59', 'closed'],
    ['2026-10-05T09:15:00', 'pre_open'],
    ['2026-10-05T09:29:59', 'pre_open'],
    ['2026-10-05T09:30:00', 'open'],
    ['2026-10-05T15:29:59', 'open'],
    ['2026-10-05T15:30:00', 'closed'],
    ['2026-10-09T09:00:00', 'pre_open'],
    ['2026-10-09T09:15:00', 'open'],
    ['2026-10-09T12:00:00', 'break'],
    ['2026-10-09T14:29:59', 'break'],
    ['2026-10-09T14:30:00', 'open'],
    ['2026-10-09T16:30:00', 'closed'],
    ['2026-10-10T09:20:00', 'closed'],
  ];
  for (const [instant, state] of cases) {
    it(`${instant} Karachi is ${state}`, () => {
      assert.equal(marketStatus(at(instant), followed).state, state);
    });
  }

  it('gives the session under way and the next open and close in Karachi time', () => {
    assert.deepEqual(marketStatus(at('2026-10-09T10:00:00'), followed), {
      state: 'open',
      now: '2026-10-09T10:00:00+05:00',
      next_open: '2026-10-09T14:30:00+05:00',
      next_close: '2026-10-09T16:30:00+05:00',
      session: { open: '2026-10-09T09:15:00+05:00', close: '2026-10-09T12:00:00+05:00' },
      clock_followed: true,
    });
    const weekend = marketStatus(at('2026-10-10T11:00:00'), followed);
    assert.equal(weekend.session, null);
    assert.equal(weekend.next_open, '2026-10-12T09:30:00+05:00');
    assert.equal(weekend.next_close, '2026-10-12T15:30:00+05:00');
  });

  it('counts the market as open with the clock off, and says the clock is not followed', () => {
    const s = marketStatus(at('2026-10-10T23:00:00'), { followMarketClock: false });
    assert.equal(s.state, 'open');
    assert.equal(s.clock_followed, false);
    // The timetable is still told truthfully.
    assert.equal(s.session, null);
    assert.equal(s.next_open, '2026-10-12T09:30:00+05:00');
  });

  it('writes instants with the fixed +05:00 offset, to the second', () => {
    assert.equal(karachiTime(Date.parse('2026-11-20T11:35:00.987Z')), '2026-11-20T16:35:00+05:00');
    assert.equal(karachiTime(Date.parse('2026-12-31T20:00:00Z')), '2027-01-01T01:00:00+05:00');
  });
});
