import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { HistoryRow } from '../../src/exchange/types.ts';
import type { AnomalyReason } from '../../src/market/anomalies.ts';
import { ANOMALY_REASONS, flagAnomalies } from '../../src/market/anomalies.ts';
import { parseIsoDay, priceLimitBpsOnDay, priceLimitPaise } from '../../src/market/price-limit.ts';

/** A flat, clean row at `close`; override any field. */
function row(date: string, close: number | null, over: Partial<HistoryRow> = {}): HistoryRow {
  return { date, open: close, high: close, low: close, close, volume: 1000, ...over };
}

function reasonsOf(rows: HistoryRow[]): AnomalyReason[][] {
  return flagAnomalies(rows).map((r) => r.anomaly_reasons);
}

const BASE = row('2024-08-01', 100);

const anyRow: fc.Arbitrary<HistoryRow> = fc.record({
  date: fc.constantFrom('2024-08-01', '2024-08-02', '2024-08-05', '2024-09-30', '2024-02-30'),
  open: fc.option(fc.double({ min: -10, max: 500, noNaN: true })),
  high: fc.option(fc.double({ min: -10, max: 500, noNaN: true })),
  low: fc.option(fc.double({ min: -10, max: 500, noNaN: true })),
  close: fc.option(fc.double({ min: -10, max: 500, noNaN: true })),
  volume: fc.option(fc.integer({ min: -10, max: 1000 })),
});

describe('flagAnomalies: single-row checks', () => {
  const cases: readonly [name: string, r: HistoryRow, expected: AnomalyReason[]][] = [
    ['clean', row('2024-08-02', 101, { open: 100, high: 102, low: 99.5 }), []],
    ['high below close', row('2024-08-02', 101, { high: 100.5, low: 100 }), ['ohlc_inconsistent']],
    ['high below open', row('2024-08-02', 100, { open: 101, high: 100.5, low: 100 }), ['ohlc_inconsistent']],
    ['low above open', row('2024-08-02', 101, { open: 100, high: 101, low: 100.5 }), ['ohlc_inconsistent']],
    ['low above close', row('2024-08-02', 100, { open: 101, high: 101, low: 100.5 }), ['ohlc_inconsistent']],
    [
      'high below low',
      row('2024-08-02', null, { open: null, high: 99, low: 100 }),
      ['non_positive_price', 'ohlc_inconsistent'],
    ],
    ['zero open', row('2024-08-02', 100, { open: 0 }), ['non_positive_price', 'ohlc_inconsistent']],
    ['missing close', row('2024-08-02', 100, { close: null }), ['non_positive_price']],
    ['negative low', row('2024-08-02', 100, { low: -1 }), ['non_positive_price']],
    ['NaN high', row('2024-08-02', 100, { high: Number.NaN }), ['non_positive_price']],
    ['negative volume', row('2024-08-02', 100, { volume: -5 }), ['negative_volume']],
    ['missing volume is not an anomaly', row('2024-08-02', 100, { volume: null }), []],
    ['invalid date', row('2024-02-30', 100), ['invalid_date']],
  ];
  for (const [name, r, expected] of cases) {
    it(name, () => assert.deepEqual(reasonsOf([BASE, r])[1], expected));
  }
});

describe('flagAnomalies: duplicate_date', () => {
  it('flags the repeats, not the first occurrence', () => {
    const rows = [
      row('2024-08-01', 100),
      row('2024-08-01', 100),
      row('2024-08-01', 100),
      row('2024-08-02', 100),
    ];
    assert.deepEqual(reasonsOf(rows), [[], ['duplicate_date'], ['duplicate_date'], []]);
  });

  it('flags a non-adjacent repeat', () => {
    const rows = [row('2024-08-01', 100), row('2024-08-02', 100), row('2024-08-01', 100)];
    assert.deepEqual(reasonsOf(rows), [[], [], ['duplicate_date']]);
  });

  it('flags a repeat after the series stepped back in time', () => {
    const rows = [
      row('2024-08-01', 100),
      row('2024-07-31', 100),
      row('2024-08-02', 100),
      row('2024-07-31', 100),
    ];
    assert.deepEqual(reasonsOf(rows), [[], [], [], ['duplicate_date']]);
  });

  it('tells unparseable dates apart by their text', () => {
    const rows = [row('2024-02-30', 100), row('2024-02-31', 100), row('2024-02-30', 100)];
    assert.deepEqual(reasonsOf(rows), [
      ['invalid_date'],
      ['invalid_date'],
      ['invalid_date', 'duplicate_date'],
    ]);
  });

  it('agrees with a naive "seen this date before" oracle', () => {
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 30 }), (rows) => {
        const out = flagAnomalies(rows);
        rows.forEach((r, i) => {
          const repeat = rows.slice(0, i).some((e) => e.date === r.date);
          assert.equal(out[i]?.anomaly_reasons.includes('duplicate_date'), repeat);
        });
      }),
    );
  });

  it('does not measure a repeat against its own date', () => {
    const rows = [row('2024-08-01', 100), row('2024-08-01', 150)];
    assert.deepEqual(reasonsOf(rows), [[], ['duplicate_date']]);
  });
});

describe('flagAnomalies: beyond_price_limit', () => {
  const cases: readonly [name: string, prev: HistoryRow, cur: HistoryRow, flagged: boolean][] = [
    ['+10 % exactly on the limit', row('2024-08-01', 100), row('2024-08-02', 110), false],
    ['−10 % exactly on the limit', row('2024-08-01', 100), row('2024-08-02', 90), false],
    ['one paisa over is tolerated', row('2024-08-01', 100), row('2024-08-02', 110.01), false],
    ['two paise over', row('2024-08-01', 100), row('2024-08-02', 110.02), true],
    ['two paise under', row('2024-08-01', 100), row('2024-08-02', 89.98), true],
    [
      'half-up limit: 100.05 may close at 110.06',
      row('2024-08-01', 100.05),
      row('2024-08-02', 110.07),
      false,
    ],
    ['high beyond, close inside', row('2024-08-01', 100), row('2024-08-02', 105, { high: 111 }), true],
    ['low beyond, close inside', row('2024-08-01', 100), row('2024-08-02', 95, { low: 89 }), true],
    ['penny stock: +Rs 1 is +10.03 %', row('2024-08-01', 9.97), row('2024-08-02', 10.97), false],
    ['penny stock: Rs 0.50 → 1.50 legal', row('2024-08-01', 0.5), row('2024-08-02', 1.5), false],
    ['penny stock: Rs 0.50 → 1.52', row('2024-08-01', 0.5), row('2024-08-02', 1.52), true],
    ['5 % era: +6 % is beyond', row('2019-06-03', 100), row('2019-06-04', 106), true],
    ['5 % era: +5 % is fine', row('2019-06-03', 100), row('2019-06-04', 105), false],
    [
      'limit of the new row’s date applies (5.5 % from 2020-01-20)',
      row('2020-01-17', 100),
      row('2020-01-20', 105.5),
      false,
    ],
    ['7.5 % era: +8 % is beyond', row('2024-05-24', 100), row('2024-05-26', 108), true],
    ['8 % from 2024-05-27', row('2024-05-24', 100), row('2024-05-27', 108), false],
    ['1:1 bonus halves the price on the ex-date', row('2024-08-01', 100), row('2024-08-02', 50), true],
    ['30-day gap is still compared', row('2024-08-01', 100), row('2024-08-31', 150), true],
    ['31-day gap skips the check', row('2024-08-01', 100), row('2024-09-01', 150), false],
  ];
  for (const [name, prev, cur, flagged] of cases) {
    it(name, () => {
      const [first, second] = reasonsOf([prev, cur]);
      assert.deepEqual(first, []);
      assert.equal(second?.includes('beyond_price_limit'), flagged);
    });
  }

  it('never checks the first row', () => {
    assert.deepEqual(reasonsOf([row('2024-08-01', 1_000_000)]), [[]]);
  });

  it('uses the last usable close when the previous row has none', () => {
    const rows = [row('2024-08-01', 100), row('2024-08-02', null), row('2024-08-05', 130)];
    assert.deepEqual(reasonsOf(rows), [[], ['non_positive_price'], ['beyond_price_limit']]);
  });

  it('measures the gap from the row that supplies the reference close', () => {
    const rows = [row('2024-07-01', 100), row('2024-07-20', null), row('2024-08-05', 130)];
    assert.deepEqual(reasonsOf(rows), [[], ['non_positive_price'], []]);
  });

  it('does not double-flag a zero price as a limit breach', () => {
    const rows = [row('2024-08-01', 100), row('2024-08-02', 100, { low: 0 })];
    assert.deepEqual(reasonsOf(rows)[1], ['non_positive_price']);
  });

  it('re-bases on the jumped close: the day after a split is normal', () => {
    const rows = [row('2024-08-01', 100), row('2024-08-02', 20), row('2024-08-05', 21)];
    assert.deepEqual(reasonsOf(rows), [[], ['beyond_price_limit'], []]);
  });
});

describe('flagAnomalies: zero_volume_move', () => {
  const cases: readonly [name: string, rows: HistoryRow[], expected: AnomalyReason[]][] = [
    ['flat with no volume is fine', [BASE, row('2024-08-02', 100, { volume: 0 })], []],
    ['close moved', [BASE, row('2024-08-02', 101, { volume: 0 })], ['zero_volume_move']],
    [
      'high differs from low',
      [BASE, row('2024-08-02', 100, { volume: 0, high: 100.5 })],
      ['zero_volume_move'],
    ],
    ['first row, flat', [row('2024-08-01', 100, { volume: 0 })], []],
    ['first row, high ≠ low', [row('2024-08-01', 100, { volume: 0, low: 99 })], ['zero_volume_move']],
    ['float noise is not a move', [BASE, row('2024-08-02', 100.00000001, { volume: 0 })], []],
    ['missing volume is not zero', [BASE, row('2024-08-02', 101, { volume: null })], []],
  ];
  for (const [name, rows, expected] of cases) {
    it(name, () => assert.deepEqual(reasonsOf(rows).at(-1), expected));
  }
});

describe('flagAnomalies: output', () => {
  it('lists several reasons in ANOMALY_REASONS order', () => {
    const rows = [BASE, BASE, row('2024-08-02', 150, { high: 120, volume: -1 })];
    assert.deepEqual(reasonsOf(rows), [
      [],
      ['duplicate_date'],
      ['ohlc_inconsistent', 'negative_volume', 'beyond_price_limit'],
    ]);
  });

  it('copies the row fields, drops unknown ones and leaves the input alone', () => {
    const input = { ...row('2024-08-01', 100), extra: 'x' };
    const snapshot = structuredClone(input);
    const [out] = flagAnomalies([input]);
    assert.deepEqual(out, {
      date: '2024-08-01',
      open: 100,
      high: 100,
      low: 100,
      close: 100,
      volume: 1000,
      is_anomaly: false,
      anomaly_reasons: [],
    });
    assert.deepEqual(input, snapshot);
  });

  it('returns [] for []', () => assert.deepEqual(flagAnomalies([]), []));
});

describe('ANOMALY_REASONS', () => {
  it('has unique snake_case codes with one-line descriptions', () => {
    const codes = ANOMALY_REASONS.map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const { code, description } of ANOMALY_REASONS) {
      assert.match(code, /^[a-z]+(_[a-z]+)*$/);
      assert.ok(description.length > 10 && !description.includes('\n'), code);
    }
    assert.deepEqual(codes, [
      'invalid_date',
      'duplicate_date',
      'non_positive_price',
      'ohlc_inconsistent',
      'negative_volume',
      'zero_volume_move',
      'beyond_price_limit',
      'corporate_action',
    ]);
  });

  it('is frozen', () => {
    assert.ok(Object.isFrozen(ANOMALY_REASONS));
    assert.ok(ANOMALY_REASONS.every((r) => Object.isFrozen(r)));
  });
});

// A random walk that stays inside every day's limit, with consistent OHLC and positive volume.
const cleanSeries = fc
  .record({
    start: fc.integer({ min: parseIsoDay('2019-11-01'), max: parseIsoDay('2025-01-01') }),
    startPaise: fc.integer({ min: 1, max: 5_000_000 }),
    days: fc.array(
      fc.record({
        gap: fc.integer({ min: 1, max: 30 }),
        move: fc.integer({ min: -1000, max: 1000 }),
        volume: fc.integer({ min: 1, max: 10_000_000 }),
      }),
      { maxLength: 60 },
    ),
  })
  .map(({ start, startPaise, days }) => {
    const rows: HistoryRow[] = [];
    let day = start;
    let prev = startPaise;
    rows.push(row(isoDay(day), prev / 100));
    for (const d of days) {
      day += d.gap;
      const limit = priceLimitPaise(prev, priceLimitBpsOnDay(day));
      const close = Math.max(1, prev + Math.trunc((limit * d.move) / 1000));
      rows.push({
        date: isoDay(day),
        open: prev / 100,
        high: Math.max(prev, close) / 100,
        low: Math.min(prev, close) / 100,
        close: close / 100,
        volume: d.volume,
      });
      prev = close;
    }
    return rows;
  });

function isoDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

describe('flagAnomalies: properties', () => {
  it('keeps length, order and values; is_anomaly iff there are reasons, in canonical order', () => {
    const order = ANOMALY_REASONS.map((r) => r.code);
    fc.assert(
      fc.property(fc.array(anyRow, { maxLength: 40 }), (rows) => {
        const out = flagAnomalies(rows);
        assert.equal(out.length, rows.length);
        out.forEach((r, i) => {
          const { is_anomaly, anomaly_reasons, ...rest } = r;
          assert.deepEqual(rest, { ...rows[i] });
          assert.equal(is_anomaly, anomaly_reasons.length > 0);
          const idx = anomaly_reasons.map((c) => order.indexOf(c));
          assert.ok(idx.every((v, k) => v >= 0 && (k === 0 || v > (idx[k - 1] as number))));
        });
        assert.ok(!(out[0]?.anomaly_reasons.includes('beyond_price_limit') ?? false));
      }),
    );
  });

  it('flags nothing in a clean in-limit walk', () => {
    fc.assert(
      fc.property(cleanSeries, (rows) => {
        for (const r of flagAnomalies(rows)) assert.deepEqual(r.anomaly_reasons, [], r.date);
      }),
    );
  });
});
