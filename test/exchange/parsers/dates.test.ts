import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  isoDate,
  karachiDateFromEpoch,
  karachiDateTime,
  parseDisplayDate,
} from '../../../src/exchange/parsers/dates.ts';

describe('karachiDateFromEpoch', () => {
  it('gives the Karachi calendar date of the portal 16:00 stamps', () => {
    assert.equal(karachiDateFromEpoch(1735902000), '2025-01-03');
    assert.equal(karachiDateFromEpoch(1460372400), '2016-04-11');
  });

  it('turns the day at Karachi midnight (19:00 UTC), not UTC midnight', () => {
    assert.equal(karachiDateFromEpoch(Date.UTC(2024, 1, 28, 18, 59, 59) / 1000), '2024-02-28');
    assert.equal(karachiDateFromEpoch(Date.UTC(2024, 1, 28, 19, 0, 0) / 1000), '2024-02-29');
    assert.equal(karachiDateFromEpoch(NaN), null);
  });

  it('agrees with Date for any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2e9, max: 1e10 }), (seconds) => {
        const expected = new Date((seconds + 5 * 3600) * 1000).toISOString().slice(0, 10);
        assert.equal(karachiDateFromEpoch(seconds), expected);
      }),
    );
  });
});

describe('parseDisplayDate', () => {
  it('reads the forms the portal writes', () => {
    assert.equal(parseDisplayDate('Jan 3, 2025'), '2025-01-03');
    assert.equal(parseDisplayDate('January 3, 2025'), '2025-01-03');
    assert.equal(parseDisplayDate('Sept. 30 2026'), '2026-09-30');
    assert.equal(parseDisplayDate('3 Jan 2025'), '2025-01-03');
    assert.equal(parseDisplayDate('03-Jan-2025'), '2025-01-03');
    assert.equal(parseDisplayDate('2026-03-31'), '2026-03-31');
    assert.equal(parseDisplayDate('31/03/2026'), '2026-03-31');
    assert.equal(parseDisplayDate('31-03-2026'), '2026-03-31');
  });

  it('rejects impossible or unknown dates', () => {
    for (const text of ['', '2025', 'Feb 30, 2025', '13/13/2025', 'Foo 3, 2025', '2025-02-29', 'yesterday']) {
      assert.equal(parseDisplayDate(text), null, text);
    }
    assert.equal(parseDisplayDate('Feb 29, 2024'), '2024-02-29');
  });
});

describe('isoDate and karachiDateTime', () => {
  it('validate and format', () => {
    assert.equal(isoDate(2026, 9, 30), '2026-09-30');
    assert.equal(isoDate(2026, 9, 31), null);
    assert.equal(karachiDateTime(2026, 9, 29, 18, 30, 0), '2026-09-29T18:30:00+05:00');
    assert.equal(karachiDateTime(2026, 9, 29, 24, 0, 0), null);
  });
});
