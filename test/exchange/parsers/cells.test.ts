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

  it('keeps integers, large values and non-finite values, and never returns -0', () => {
    assert.equal(denoise(4496408), 4496408);
    assert.equal(denoise(123456789012.34567), 123456789012.3457);
    assert.ok(Object.is(denoise(-1e-320), 0) || Object.is(denoise(-1e-320), -1e-320));
    assert.ok(Object.is(denoise(-0), 0));
    assert.ok(Number.isNaN(denoise(NaN)));
  });

  it('is idempotent and within 12 significant digits of the value', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (x) => {
        const r = denoise(x);
        assert.equal(denoise(r), r);
        // 12 significant digits, and never fewer than 4 decimals.
        assert.ok(
          Math.abs(r - x) <= Math.min(Math.abs(x) * 5e-12, 0.00005) + Math.abs(x) * 1e-15,
          `${x} → ${r}`,
        );
        assert.ok(!Object.is(r, -0));
      }),
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
