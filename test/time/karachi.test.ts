// Karachi calendar arithmetic against the platform's own calendar (Date in UTC).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  addDays,
  daysBetween,
  daysFromCivil,
  daysInMonth,
  formatDay,
  karachiDay,
  karachiInstant,
  karachiPeriodStart,
  karachiTime,
  parseIsoDay,
  weekdayOf,
} from '../../src/time/karachi.ts';

describe('karachi', () => {
  it('days ↔ civil dates agree with Date for any day in years 1000–9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -354_285, max: 2_932_896 }), (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        assert.equal(formatDay(day), iso);
        assert.equal(parseIsoDay(iso), day);
        const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
        assert.equal(daysFromCivil(y, m, d), day);
      }),
      { numRuns: 2_000 },
    );
  });

  it('knows month lengths and refuses impossible dates', () => {
    assert.equal(daysInMonth(2024, 2), 29);
    assert.equal(daysInMonth(1900, 2), 28);
    assert.equal(daysInMonth(2000, 2), 29);
    for (const bad of ['2025-02-29', '2025-04-31', '2025-13-01', '2025-1-01', '2025-01-0x', '']) {
      assert.ok(Number.isNaN(parseIsoDay(bad)), bad);
    }
  });

  it('a Karachi day starts at 19:00 UTC the evening before', () => {
    const day = parseIsoDay('2025-06-02');
    assert.equal(karachiDay(Date.UTC(2025, 5, 1, 18, 59, 59, 999)), day - 1);
    assert.equal(karachiDay(Date.UTC(2025, 5, 1, 19, 0)), day);
  });

  it('writes an instant in epoch ms as Karachi wall-clock time, to the second', () => {
    assert.equal(karachiTime(Date.UTC(2026, 10, 20, 4, 35, 12, 999)), '2026-11-20T09:35:12+05:00');
    assert.equal(karachiTime(Date.UTC(2026, 11, 31, 19, 0)), '2027-01-01T00:00:00+05:00');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_000_000_000 }), (ms) => {
        const shifted = new Date(ms + 5 * 3_600_000).toISOString().slice(0, 19);
        assert.equal(karachiTime(ms), `${shifted}+05:00`);
      }),
      { numRuns: 2_000 },
    );
  });

  it('steps calendar days and counts them like Date in UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_900_000 }), fc.integer({ min: -1000, max: 1000 }), (day, n) => {
        const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
        const later = new Date((day + n) * 86_400_000).toISOString().slice(0, 10);
        assert.equal(addDays(date, n), later);
        assert.equal(daysBetween(date, later), n);
        assert.equal(weekdayOf(day), new Date(day * 86_400_000).getUTCDay());
      }),
      { numRuns: 2_000 },
    );
    assert.equal(addDays('2024-03-01', -1), '2024-02-29');
  });

  it('places wall-clock minutes and bar periods on the Karachi clock', () => {
    assert.equal(karachiInstant('2026-11-20', 9 * 60 + 30), Date.UTC(2026, 10, 20, 4, 30));
    assert.equal(karachiInstant('2026-11-20'), Date.UTC(2026, 10, 19, 19));
    // A 60-minute bar holding 10:12 Karachi starts at 10:00 Karachi, not at a UTC hour's multiple of 5.
    const at1012 = Date.UTC(2026, 10, 20, 5, 12, 40);
    assert.equal(karachiTime(karachiPeriodStart(at1012, 3_600_000)), '2026-11-20T10:00:00+05:00');
    assert.equal(karachiTime(karachiPeriodStart(at1012, 300_000)), '2026-11-20T10:10:00+05:00');
    assert.equal(
      karachiPeriodStart(karachiInstant('2026-11-20', 600), 3_600_000),
      karachiInstant('2026-11-20', 600),
    );
  });
});
