import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MAX_LDCP,
  parseIsoDay,
  priceLimitBand,
  priceLimitBpsOnDay,
  priceLimitPaise,
  priceLimitPct,
} from '../../src/market/price-limit.ts';

describe('priceLimitPct', () => {
  // Each step: the day before keeps the old limit, the effective date has the new one.
  const steps: readonly [before: string, from: string, oldPct: number, newPct: number][] = [
    ['2020-01-19', '2020-01-20', 5, 5.5],
    ['2020-02-03', '2020-02-04', 5.5, 6],
    ['2020-02-18', '2020-02-19', 6, 6.5],
    ['2020-03-04', '2020-03-05', 6.5, 7],
    ['2020-03-19', '2020-03-20', 7, 7.5],
    ['2024-05-26', '2024-05-27', 7.5, 8],
    ['2024-06-09', '2024-06-10', 8, 8.5],
    ['2024-06-23', '2024-06-24', 8.5, 9],
    ['2024-07-07', '2024-07-08', 9, 9.5],
    ['2024-07-21', '2024-07-22', 9.5, 10],
  ];
  for (const [before, from, oldPct, newPct] of steps) {
    it(`steps from ${oldPct} % to ${newPct} % on ${from}`, () => {
      assert.equal(priceLimitPct(before), oldPct);
      assert.equal(priceLimitPct(from), newPct);
    });
  }

  const plateaus: readonly [date: string, pct: number][] = [
    ['1995-06-01', 5],
    ['2019-12-31', 5],
    ['2020-12-31', 7.5],
    ['2023-01-02', 7.5],
    ['2026-09-30', 10],
    ['2100-01-01', 10],
  ];
  for (const [date, pct] of plateaus) {
    it(`is ${pct} % on ${date}`, () => assert.equal(priceLimitPct(date), pct));
  }

  for (const bad of [
    '',
    '2024-7-22',
    '2024/07/22',
    '2024-02-30',
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    'abcd-ef-gh',
  ]) {
    it(`rejects ${JSON.stringify(bad)}`, () => assert.throws(() => priceLimitPct(bad), RangeError));
  }

  it('accepts 29 February in a leap year', () => assert.equal(priceLimitPct('2024-02-29'), 7.5));
});

describe('priceLimitBand', () => {
  const cases: readonly [ldcp: number, date: string, lower: number, upper: number, why: string][] = [
    [100, '2024-08-01', 90, 110, 'plain 10 %'],
    [100.05, '2024-08-01', 90.04, 110.06, '10.005 rounds half-up to 10.01'],
    [100.04, '2024-08-01', 90.04, 110.04, '10.004 rounds down to 10.00'],
    [200.1, '2024-08-01', 180.09, 220.11, '20.01 exactly'],
    [250.1, '2020-03-20', 231.34, 268.86, '7.5 % of 250.10 = 18.7575 → 18.76'],
    [33.3, '2019-06-03', 31.63, 34.97, '5 % of 33.30 = 1.665 → 1.67'],
    [9.97, '2024-08-01', 8.97, 10.97, 'Rs 1 floor: +10.03 % is legal'],
    [5, '2024-08-01', 4, 6, 'Rs 1 floor on a penny stock'],
    [19.99, '2019-06-03', 18.99, 20.99, 'Rs 1 floor while 5 % of 19.99 = 0.9995'],
    [20, '2019-06-03', 19, 21, '5 % of 20 equals the floor'],
    [0.5, '2024-08-01', 0, 1.5, 'lower bound clamped at 0'],
    [1, '2024-08-01', 0, 2, 'lower bound exactly 0'],
  ];
  for (const [ldcp, date, lower, upper, why] of cases) {
    it(`${ldcp} on ${date} → [${lower}, ${upper}] (${why})`, () => {
      assert.deepEqual(priceLimitBand(ldcp, date), { lower, upper });
    });
  }

  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, MAX_LDCP * 2]) {
    it(`rejects ldcp ${bad}`, () => assert.throws(() => priceLimitBand(bad, '2024-08-01'), RangeError));
  }

  it('rejects a malformed date', () => assert.throws(() => priceLimitBand(100, '01-08-2024'), RangeError));

  const date = fc
    .date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2040-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10));
  const ldcp = fc.integer({ min: 1, max: 10_000_000 }).map((paise) => paise / 100);

  it('always contains ldcp, with lower ≥ 0 and a move of at least Rs 1 up', () => {
    fc.assert(
      fc.property(ldcp, date, (l, d) => {
        const { lower, upper } = priceLimitBand(l, d);
        assert.ok(lower >= 0 && lower <= l && l <= upper, `${lower} ≤ ${l} ≤ ${upper}`);
        assert.ok(upper - l >= 1 - 1e-9);
      }),
    );
  });

  it('is symmetric around ldcp and has 2-decimal bounds', () => {
    fc.assert(
      fc.property(ldcp, date, (l, d) => {
        const { lower, upper } = priceLimitBand(l, d);
        const lp = Math.round(l * 100);
        const up = Math.round(upper * 100);
        const lo = Math.round(lower * 100);
        assert.equal(up / 100, upper);
        assert.equal(lo / 100, lower);
        if (lo > 0) assert.equal(up - lp, lp - lo);
      }),
    );
  });

  it('matches exact rational rounding of p × LDCP (BigInt oracle)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), date, (lp, d) => {
        const bps = BigInt(Math.round(priceLimitPct(d) * 100));
        const num = BigInt(lp) * bps;
        // Half-up: 2 × remainder ≥ divisor rounds away from zero.
        const q = num / 10_000n + ((num % 10_000n) * 2n >= 10_000n ? 1n : 0n);
        const expected = Number(q > 100n ? q : 100n);
        assert.equal(priceLimitPaise(lp, Number(bps)), expected);
      }),
    );
  });

  it('never narrows as time passes', () => {
    fc.assert(
      fc.property(date, date, (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        assert.ok(priceLimitPct(early) <= priceLimitPct(late));
      }),
    );
  });
});

describe('parseIsoDay', () => {
  it('agrees with Date.UTC', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2200-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          assert.equal(
            parseIsoDay(iso),
            Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / 86_400_000,
          );
        },
      ),
    );
  });

  it('maps a day number to the right limit', () => {
    assert.equal(priceLimitBpsOnDay(parseIsoDay('2024-07-22')), 1000);
    assert.equal(priceLimitBpsOnDay(parseIsoDay('2024-07-21')), 950);
  });
});
