import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cellInteger,
  cellNumber,
  cellScaledNumber,
  cellSymbol,
  cellText,
  isNotAvailable,
  parseNumberText,
  parseOrderNumber,
  denoise,
  splitList,
} from '../../../src/exchange/parsers/cells.ts';
import type { Cell } from '../../../src/exchange/html/table.ts';

function cell(text: string, extra: Partial<Cell> = {}): Cell {
  return {
    text,
    order: null,
    search: null,
    strong: null,
    linkCode: null,
    linkTitle: null,
    href: null,
    links: [],
    ...extra,
  };
}

describe('denoise', () => {
  it('drops float noise and keeps the digits the portal means', () => {
    assert.equal(denoise(-1.7239999999999998), -1.724);
    assert.equal(denoise(892213549.6899999), 892213549.69);
    assert.equal(denoise(368.9200000000128), 368.92);
    assert.equal(denoise(12835200000.000002), 12835200000);
    assert.equal(denoise(0.8630000000000001), 0.863);
    // A cut at 4 decimals made this 17.8048.
    assert.equal(denoise(17.804780876494025), 17.8047808765);
    assert.equal(denoise(0.000012345678901234), 0.0000123456789012);
  });

  it('keeps the whole part and at most 2 decimals of large values (rupees and paisa)', () => {
    assert.equal(denoise(21343031117.37), 21343031117.37);
    assert.equal(denoise(449048700000.0001), 449048700000);
    assert.equal(denoise(619918036460.8401), 619918036460.84);
    assert.equal(denoise(123456789012.34567), 123456789012.35);
    assert.equal(denoise(-98765432109.876), -98765432109.88);
    // Just below the threshold, 12 significant digits still leave 2 decimals.
    assert.equal(denoise(9999999999.994999), 9999999999.99);
  });

  it('keeps integers and non-finite values, and never returns -0', () => {
    assert.equal(denoise(4496408), 4496408);
    assert.ok(Object.is(denoise(-1e-320), 0) || Object.is(denoise(-1e-320), -1e-320));
    assert.ok(Object.is(denoise(-0), 0));
    assert.ok(Number.isNaN(denoise(NaN)));
  });

  /** Decimals in the shortest form JSON writes (no exponent below 1e21). */
  const decimalsOf = (r: number): number => {
    const s = String(Math.abs(r));
    if (s.includes('e')) return Number(s.split('e-')[1] ?? 0) + (s.split('e')[0]!.split('.')[1]?.length ?? 0);
    return s.split('.')[1]?.length ?? 0;
  };

  it('gives at most 12 significant digits, or for large values the whole part and at most 2 decimals', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e18, max: 1e18, noNaN: true }), (x) => {
        const r = denoise(x);
        assert.equal(denoise(r), r, 'idempotent');
        assert.ok(!Object.is(r, -0));
        if (Math.abs(x) < 1e10) {
          assert.ok(Number(r.toPrecision(12)) === r, `${x} → ${r}: at most 12 significant digits`);
          assert.ok(Math.abs(r - x) <= Math.abs(x) * 5e-12 * (1 + 1e-9), `${x} → ${r}`);
        } else {
          assert.ok(decimalsOf(r) <= 2, `${x} → ${r}: at most 2 decimals`);
          assert.ok(Math.abs(r - x) <= 0.005 + Math.abs(x) * 2 ** -52, `${x} → ${r}: whole part kept`);
        }
      }),
    );
  });

  it('removes the noise of a value the portal printed: the decimal it meant comes back', () => {
    const noisy = (y: number, ulps: number): number => {
      const buf = new Float64Array([y]);
      const bits = new BigInt64Array(buf.buffer);
      bits[0] = bits[0]! + BigInt(ulps);
      return buf[0]!;
    };
    const ulps = fc.integer({ min: -4, max: 4 });
    // Large amounts in paisa, up to a trillion rupees (the largest market caps), where a few ulps
    // of noise stay far below a paisa.
    fc.assert(
      fc.property(fc.integer({ min: 1e12, max: 1e14 }), fc.boolean(), ulps, (paisa, neg, u) => {
        const y = ((neg ? -1 : 1) * paisa) / 100;
        assert.equal(denoise(noisy(y, u)), y, `${y} ± ${u} ulp`);
      }),
    );
    // Smaller values with up to 11 significant digits.
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e10, noNaN: true }),
        fc.integer({ min: 1, max: 11 }),
        ulps,
        (a, k, u) => {
          const y = Number(a.toPrecision(k));
          assert.equal(denoise(noisy(y, u)), y, `${y} ± ${u} ulp`);
        },
      ),
    );
  });
});

describe('parseNumberText', () => {
  it('reads the portal display forms', () => {
    assert.equal(parseNumberText('4,496,408'), 4496408);
    assert.equal(parseNumberText('481.99'), 481.99);
    assert.equal(parseNumberText('-9.99%'), -9.99);
    assert.equal(parseNumberText(' 0.44%'), 0.44);
    assert.equal(parseNumberText('Rs.306.10'), 306.1);
    assert.equal(parseNumberText('Rs 1,234'), 1234);
    assert.equal(parseNumberText('▲ 0.11'), 0.11);
    assert.equal(parseNumberText('↓ -2.28'), -2.28);
    assert.equal(parseNumberText('(9.93)'), -9.93);
    assert.equal(parseNumberText('+3.5'), 3.5);
    assert.equal(parseNumberText('\u2212 3.5'), -3.5);
    assert.equal(parseNumberText('.5'), 0.5);
    assert.equal(parseNumberText('-0.00'), 0);
    assert.equal(parseNumberText('1234567890123456789'), Number('1234567890123456789'));
    assert.equal(parseNumberText('Rs.12,345,678,901,234.5678'), Number('12345678901234.5678'));
  });

  it('rejects what is not a plain number', () => {
    for (const text of [
      '',
      'N/A',
      '-',
      '5.2M',
      '892.2M',
      '1.2.3',
      '1-2',
      '12abc',
      '(5',
      '5)',
      '1,234,5.6.7',
      '1e5',
    ]) {
      assert.equal(parseNumberText(text), null, text);
    }
  });

  it('reads back any number written with thousands separators', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const sign = whole < 0 ? '-' : '';
        const text = `${sign}${Math.abs(whole).toLocaleString('en-US')}.${String(cents).padStart(2, '0')}`;
        const expected = Number(`${sign}${Math.abs(whole)}.${String(cents).padStart(2, '0')}`);
        assert.equal(parseNumberText(text), expected === 0 ? 0 : expected);
      }),
    );
  });

  it('agrees with Number() on plain decimals', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), (x) => {
        const text = x.toFixed(4);
        const expected = Number(text);
        assert.equal(parseNumberText(text), expected === 0 ? 0 : expected);
      }),
    );
  });

  it('never throws and returns a finite number or null', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        const value = parseNumberText(text);
        assert.ok(value === null || Number.isFinite(value));
      }),
    );
  });
});

describe('parseOrderNumber', () => {
  it('reads raw data-order values, and refuses symbols and literals', () => {
    assert.equal(parseOrderNumber('1735902000'), 1735902000);
    assert.equal(parseOrderNumber('-1.7239999999999998'), -1.7239999999999998);
    assert.equal(parseOrderNumber('1.2e-5'), 0.000012);
    for (const order of [null, '', ' ', 'ABL', '786R', '0x1f', '0b1', 'Infinity', '-', '1e999']) {
      assert.equal(parseOrderNumber(order), null, String(order));
    }
  });
});

describe('cellNumber', () => {
  it('prefers data-order to the rounded display text', () => {
    assert.equal(cellNumber(cell('892.2M', { order: '892213549.6899999' })), 892213549.69);
    assert.equal(cellNumber(cell('-1.72%', { order: '-1.7239999999999998' })), -1.724);
  });

  it('falls back to the text when data-order is absent or not numeric', () => {
    assert.equal(cellNumber(cell('0.44%')), 0.44);
    assert.equal(cellNumber(cell('1,523.22', { order: 'n/a' })), 1523.22);
  });

  it('is null for N/A, -, blank, even over a data-order of 0', () => {
    assert.equal(cellNumber(cell('N/A', { order: '0' })), null);
    assert.equal(cellNumber(cell('-', { order: '0' })), null);
    assert.equal(cellNumber(cell('', { order: '5' })), null);
    assert.equal(cellNumber(undefined), null);
    assert.equal(cellNumber(cell('5.2M')), null);
  });

  it('rounds counts to integers', () => {
    assert.equal(cellInteger(cell('4,496,408')), 4496408);
    assert.equal(cellInteger(cell('585,041', { order: '585040.77' })), 585041);
  });
});

describe('cellScaledNumber', () => {
  it('takes the raw data-order of an (M) column, else text × scale', () => {
    assert.equal(cellScaledNumber(cell('115', { order: '114507383' }), 1e6), 114507383);
    assert.equal(cellScaledNumber(cell('21,343', { order: '21343031117.37' }), 1e6), 21343031117.37);
    assert.equal(cellScaledNumber(cell('21,343'), 1e6), 21343000000);
    assert.equal(cellScaledNumber(cell('N/A', { order: '0' }), 1e6), null);
  });
});

describe('cellSymbol', () => {
  it('reads data-search, data-order or the strong, never the whole text', () => {
    assert.equal(cellSymbol(cell('FCCL XD', { search: 'FCCL', order: 'FCCL', strong: 'FCCL' })), 'FCCL');
    assert.equal(cellSymbol(cell('786 XB', { order: '786', strong: '786' })), '786');
    assert.equal(cellSymbol(cell('UBLP-ETF NC', { strong: 'UBLP-ETF' })), 'UBLP-ETF');
    assert.equal(cellSymbol(cell('hascol DEF', { order: 'hascol' })), 'HASCOL');
    assert.equal(cellSymbol(cell('ABL')), null);
    assert.equal(cellSymbol(cell('x', { order: 'not a symbol', strong: 'ABL' })), 'ABL');
    assert.equal(cellSymbol(undefined), null);
  });

  it('returns only well-formed symbols for any input', () => {
    fc.assert(
      fc.property(
        fc.record({
          text: fc.string(),
          order: fc.option(fc.string()),
          search: fc.option(fc.string()),
          strong: fc.option(fc.string()),
        }),
        (fields) => {
          const symbol = cellSymbol(cell(fields.text, fields));
          assert.ok(symbol === null || /^[A-Z0-9][A-Z0-9._-]{0,19}$/.test(symbol), String(symbol));
        },
      ),
    );
  });
});

describe('small helpers', () => {
  it('recognises the not-available markers', () => {
    for (const text of ['', '-', 'N/A', 'n/a', '--', '\u2014']) assert.ok(isNotAvailable(text), text);
    for (const text of ['0', 'NAV', '0.00']) assert.ok(!isNotAvailable(text), text);
  });

  it('cellText is null for blank and N/A', () => {
    assert.equal(cellText(cell('0813')), '0813');
    assert.equal(cellText(cell('')), null);
    assert.equal(cellText(cell('N/A')), null);
  });

  it('splits LISTED IN lists', () => {
    assert.deepEqual(splitList('ALLSHR,KMIALLSHR, KSE100,'), ['ALLSHR', 'KMIALLSHR', 'KSE100']);
    assert.deepEqual(splitList(''), []);
    assert.deepEqual(splitList(null), []);
  });
});
