// Karachi calendar arithmetic against the platform's own calendar (Date in UTC).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { daysFromCivil, daysInMonth, formatDay, karachiDay, parseIsoDay } from '../../src/time/karachi.ts';

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
});
