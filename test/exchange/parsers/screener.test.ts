import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseScreener } from '../../../src/exchange/parsers/screener.ts';
import { change, num, page, symbolCell, table, td, th } from './html.ts';

const HEADERS = [
  th('SYMBOL', 'data-name="symbol"'),
  th('SECTOR', 'data-name="sector"'),
  th('LISTED IN', 'data-name="listed"'),
  th('MARKET CAP.', 'class="right" data-name="marketCap"'),
  th('PRICE', 'class="right" data-name="close"'),
  th('CHANGE (%)', 'class="right" data-name="percentChange"'),
  th('1-YEAR CH. (%) *', 'class="right" data-name="changeYear"'),
  th('PE RATIO (TTM)', 'class="right" data-name="peRatio"'),
  th('DIVIDEND YIELD (%)', 'class="right" data-name="dividendYield"'),
  th('FREE FLOAT', 'class="right" data-name="freeFloat"'),
  th('30D VOLUME AVG.', 'class="right" data-name="volume30Avg"'),
];

function screenerPage(rows: readonly (readonly string[])[]): string {
  return page(`<div class="tbl__wrapper">${table(HEADERS, rows, 'class="tbl" id="screenerTable"')}</div>`);
}

describe('parseScreener', () => {
  it('reads raw values from data-order and the name from data-title', () => {
    const html = screenerPage([
      [
        symbolCell('786', '786 Investments Limited', undefined, false),
        td('0813'),
        td('ALLSHR'),
        num('892213549.6899999', '892.2M'),
        num('44.69', '44.69'),
        change('-9.99', '-9.99%'),
        change('406.68934240362813', '406.69%'),
        num('17.804780876494025', '17.80'),
        num('0', '0.00'),
        num('5240813', '5.2M'),
        num('585040.77', '585,041'),
      ],
    ]);
    assert.deepEqual(parseScreener(html), [
      {
        symbol: '786',
        name: '786 Investments Limited',
        sectorCode: '0813',
        listedIn: ['ALLSHR'],
        marketCap: 892213549.69,
        price: 44.69,
        changePct: -9.99,
        change1yPct: 406.689342404,
        peRatio: 17.8047808765,
        dividendYield: 0,
        freeFloat: 5240813,
        volumeAvg30d: 585040.77,
      },
    ]);
  });

  it('reads the symbol, not the status tag after it, and an empty LISTED IN', () => {
    const html = screenerPage([
      [
        symbolCell('AAL', 'Agro &amp; Allianz', 'NC'),
        td('0826'),
        td(''),
        num('1', '1'),
        num('16', '16.00'),
        change('0', '0.00%'),
        td('N/A', 'class="right"'),
        td('-', 'class="right"'),
        td(''),
        num('1183200', '1.2M'),
        num('0', '0'),
      ],
    ]);
    const [row] = parseScreener(html);
    assert.equal(row?.symbol, 'AAL');
    assert.equal(row?.name, 'Agro & Allianz');
    assert.deepEqual(row?.listedIn, []);
    assert.equal(row?.change1yPct, null);
    assert.equal(row?.peRatio, null);
    assert.equal(row?.dividendYield, null);
  });

  it('leaves missing optional columns null', () => {
    const html = page(
      table(['SYMBOL', 'PRICE'], [[symbolCell('ABL', 'Allied Bank'), num('173.84', '173.84')]]),
    );
    assert.deepEqual(parseScreener(html), [
      {
        symbol: 'ABL',
        name: 'Allied Bank',
        sectorCode: null,
        listedIn: [],
        marketCap: null,
        price: 173.84,
        changePct: null,
        change1yPct: null,
        peRatio: null,
        dividendYield: null,
        freeFloat: null,
        volumeAvg30d: null,
      },
    ]);
  });

  it('skips rows without a symbol (a DataTables "no data" row)', () => {
    const html = screenerPage([[td('No data available in table', 'colspan="11" class="dataTables_empty"')]]);
    assert.deepEqual(parseScreener(html), []);
  });

  it('gives [] for an empty body and rejects a page without the table', () => {
    assert.deepEqual(parseScreener(screenerPage([])), []);
    assert.throws(
      () => parseScreener(page('<div>maintenance</div>')),
      (e: unknown) =>
        e instanceof UpstreamDataError && e.pageKind === 'screener' && /no table/.test(e.message),
    );
    assert.throws(
      () => parseScreener(page(table(['SYMBOL', 'SECTOR'], []))),
      (e: unknown) => e instanceof UpstreamDataError && /missing column "price"/.test(e.message),
    );
  });
});
