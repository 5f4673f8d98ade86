import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseSymbols } from '../../../src/exchange/parsers/symbols.ts';

describe('parseSymbols', () => {
  it('reads the instrument list; a missing isGEM is false', () => {
    const json = JSON.stringify([
      {
        symbol: 'AKBLTFC6',
        name: 'Askari Bank(TFC6)',
        sectorName: 'BILLS AND BONDS',
        isETF: false,
        isDebt: true,
      },
      {
        symbol: 'GEMBLUEX',
        name: 'Blue-Ex (GEM)',
        sectorName: 'TRANSPORT',
        isETF: false,
        isDebt: false,
        isGEM: true,
      },
      {
        symbol: 'UBLP-ETF',
        name: 'UBL Pakistan ETF',
        sectorName: '',
        isETF: true,
        isDebt: false,
        isGEM: false,
      },
    ]);
    assert.deepEqual(parseSymbols(json), [
      {
        symbol: 'AKBLTFC6',
        name: 'Askari Bank(TFC6)',
        sectorName: 'BILLS AND BONDS',
        isETF: false,
        isDebt: true,
        isGEM: false,
      },
      {
        symbol: 'GEMBLUEX',
        name: 'Blue-Ex (GEM)',
        sectorName: 'TRANSPORT',
        isETF: false,
        isDebt: false,
        isGEM: true,
      },
      {
        symbol: 'UBLP-ETF',
        name: 'UBL Pakistan ETF',
        sectorName: '',
        isETF: true,
        isDebt: false,
        isGEM: false,
      },
    ]);
  });

  it('skips items without a usable symbol and fills missing strings', () => {
    const json = JSON.stringify([
      null,
      5,
      [],
      { name: 'no symbol' },
      { symbol: 'has space' },
      { symbol: 'abl' },
    ]);
    assert.deepEqual(parseSymbols(json), [
      { symbol: 'ABL', name: '', sectorName: '', isETF: false, isDebt: false, isGEM: false },
    ]);
  });

  it('accepts an empty array', () => {
    assert.deepEqual(parseSymbols('[]'), []);
  });

  it('rejects malformed JSON and non-arrays with UpstreamDataError', () => {
    for (const text of ['', '{', '<html>Not Found</html>', '{"data":[]}', 'null', '"x"', '42']) {
      assert.throws(
        () => parseSymbols(text),
        (e: unknown) => e instanceof UpstreamDataError && e.pageKind === 'symbols',
        text,
      );
    }
  });

  it('never throws anything but UpstreamDataError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        try {
          parseSymbols(text);
        } catch (e) {
          assert.ok(e instanceof UpstreamDataError, String(e));
        }
      }),
    );
  });
});
