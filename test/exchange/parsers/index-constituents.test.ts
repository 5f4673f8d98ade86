import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseIndexConstituents } from '../../../src/exchange/parsers/index-constituents.ts';
import { change, num, page, symbolCell, table, td, th } from './html.ts';

function headers(size: 'FREEFLOAT (M)' | 'SHARES (M)' | null): string[] {
  const cols = [
    th('SYMBOL'),
    th('NAME', 'style="width:180px;"'),
    th('LDCP', 'class="right"'),
    th('CURRENT', 'class="right"'),
    th('CHANGE', 'class="right"'),
    th('CHANGE (%)', 'class="right"'),
    th('IDX WTG (%)', 'class="right"'),
    th('IDX POINT ', 'class="right"'),
    th('VOLUME', 'class="right"'),
  ];
  if (size !== null) cols.push(th(size, 'class="right"'));
  cols.push(th('MARKET CAP (M)', 'class="right"'));
  return cols;
}

function constituent(symbol: string, name: string, tag?: string, withSize = true): string[] {
  const cells = [
    symbolCell(symbol, name, tag, false),
    td(name),
    num('173.84', '173.84'),
    num('186.39', '186.39'),
    change('12.55', '12.55'),
    change('7.219', '7.22%'),
    td('0.44%', 'class="right"'),
    change('49.3873', '49.39'),
    num('226586', '226,586'),
  ];
  if (withSize) cells.push(num('114507383', '115'));
  cells.push(num('21343031117.37', '21,343'));
  return cells;
}

function indexPage(title: string, tableHtml: string): string {
  return page(`<h2 style="margin-top:0;">${title}</h2>${tableHtml}`);
}

describe('parseIndexConstituents', () => {
  it('reads a FREEFLOAT (M) index with raw (M) values and the weight from text', () => {
    const html = indexPage(
      'KSE 100 INDEX Constituents',
      table(headers('FREEFLOAT (M)'), [constituent('ABL', 'Allied Bank Limited')]),
    );
    assert.deepEqual(parseIndexConstituents(html), {
      title: 'KSE 100 INDEX Constituents',
      sizeColumn: 'freefloat',
      rows: [
        {
          symbol: 'ABL',
          name: 'Allied Bank Limited',
          ldcp: 173.84,
          current: 186.39,
          change: 12.55,
          changePct: 7.219,
          idxWeight: 0.44,
          idxPoint: 49.3873,
          volume: 226586,
          freeFloat: 114507383,
          marketCap: 21343031117.37,
        },
      ],
    });
  });

  it('reads a SHARES (M) index, symbols carrying status tags', () => {
    const html = indexPage(
      'KSE ALL SHARE INDEX Constituents',
      table(headers('SHARES (M)'), [
        constituent('AAL', 'Agro Allianz Limited', 'NC'),
        constituent('AABS', 'Al-Abbas', 'XB'),
      ]),
    );
    const result = parseIndexConstituents(html);
    assert.equal(result.sizeColumn, 'shares');
    assert.deepEqual(
      result.rows.map((r) => [r.symbol, r.shares, 'freeFloat' in r]),
      [
        ['AAL', 114507383, false],
        ['AABS', 114507383, false],
      ],
    );
  });

  it('takes millions from the text when an (M) cell has no data-order', () => {
    const row = constituent('ABL', 'Allied');
    row[9] = td('115', 'class="right"');
    row[10] = td('21,343', 'class="right"');
    const result = parseIndexConstituents(indexPage('T', table(headers('FREEFLOAT (M)'), [row])));
    assert.equal(result.rows[0]?.freeFloat, 115e6);
    assert.equal(result.rows[0]?.marketCap, 21343e6);
  });

  it('has a null size column when the table carries neither', () => {
    const html = indexPage('T', table(headers(null), [constituent('ABL', 'Allied', undefined, false)]));
    const result = parseIndexConstituents(html);
    assert.equal(result.sizeColumn, null);
    assert.equal(result.rows[0]?.marketCap, 21343031117.37);
  });

  it('gives no rows for an empty body, a null title without <h2>', () => {
    assert.deepEqual(parseIndexConstituents(page(table(headers('SHARES (M)'), []))), {
      title: null,
      sizeColumn: 'shares',
      rows: [],
    });
  });

  it('rejects a page without the table', () => {
    assert.throws(
      () => parseIndexConstituents(page('<h1>Not Found</h1>')),
      (e: unknown) => e instanceof UpstreamDataError && e.pageKind === 'index-constituents',
    );
  });
});
