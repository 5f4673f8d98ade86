import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseIndexLevels } from '../../../src/exchange/parsers/index-levels.ts';
import { change, num, page, table, td, th } from './html.ts';

const HEADERS = [
  th('Index'),
  th('High', 'class="right"'),
  th('Low', 'class="right"'),
  th('Current', 'class="right"'),
  th('Change', 'class="right"'),
  th('% Change', 'class="right"'),
];

function level(code: string, values: [string, string, string, string, string]): string[] {
  return [
    td(`<a class="link" href="javascript:;" data-code="${code}"><b>${code}</b></a>`),
    num(values[0], values[0]),
    num(values[1], values[1]),
    num(values[2], values[2]),
    change(values[3], values[3]),
    change(values[4], values[4]),
  ];
}

const STALE = [
  td('<b style="color:#009d49;">HBLTTI</b><span style="color:#888;"> (29-09-2026 18:30:00)</span>'),
  td('<span>N/A</span>', 'class="right" data-order="0"'),
  td('<span>N/A</span>', 'class="right" data-order="0"'),
  num('19129.73', '19,129.73'),
  change('3.9899999999979627', '3.99'),
  change('0.02086193789101997', '0.02%'),
];

const CAROUSEL =
  '<div class="topIndices"><div class="topIndices__item"><div class="topIndices__item__name">KSE100</div>' +
  '<div class="topIndices__item__val">169,969.32</div></div></div>';

function indicesPage(asOf: string, rows: readonly (readonly string[])[]): string {
  return page(
    CAROUSEL +
      '<div class="section section--padded" id="indicesTable">' +
      `<div style="text-align: right; padding-bottom: 0.4em;">${asOf}</div>` +
      table(HEADERS, rows) +
      '<table class="tbl" style="margin-top:1.5em"><thead class="tbl__head"><tr><th><a href="/sector-summary">Sector Indices</a></th></tr></thead></table>' +
      '</div>',
  );
}

describe('parseIndexLevels', () => {
  it('reads the levels table and the As of time', () => {
    const html = indicesPage('As of Sep 30, 2026 3:50 PM', [
      level('KSE100', ['171492.52', '169872.13', '169969.32', '368.9200000000128', '0.21752307187955502']),
    ]);
    assert.deepEqual(parseIndexLevels(html), {
      asOf: '2026-09-30T15:50:00+05:00',
      rows: [
        {
          index: 'KSE100',
          high: 171492.52,
          low: 169872.13,
          current: 169969.32,
          change: 368.92,
          changePct: 0.21752307188,
          staleSince: null,
        },
      ],
    });
  });

  it('reads a stale index: bare <b> code, N/A high/low over data-order 0, its stamp', () => {
    const html = indicesPage('As of Sep 30, 2026 12:05 AM', [STALE]);
    const result = parseIndexLevels(html);
    assert.equal(result.asOf, '2026-09-30T00:05:00+05:00');
    assert.deepEqual(result.rows, [
      {
        index: 'HBLTTI',
        high: null,
        low: null,
        current: 19129.73,
        change: 3.99,
        changePct: 0.020861937891,
        staleSince: '2026-09-29T18:30:00+05:00',
      },
    ]);
  });

  it('gives a null asOf when the line is missing or malformed', () => {
    assert.equal(parseIndexLevels(indicesPage('', [])).asOf, null);
    assert.equal(parseIndexLevels(indicesPage('As of Foo 31, 2026 3:50 PM', [])).asOf, null);
    assert.equal(parseIndexLevels(indicesPage('As of Sep 31, 2026 3:50 PM', [])).asOf, null);
  });

  it('reads the table without its wrapper div', () => {
    const html = page(table(HEADERS, [level('KMI30', ['1', '2', '3', '4', '5'])]));
    assert.deepEqual(
      parseIndexLevels(html).rows.map((r) => r.index),
      ['KMI30'],
    );
  });

  it('rejects a page with only the sector-indices table', () => {
    const html = page(
      '<div id="indicesTable"><table class="tbl"><thead><tr><th>Sector Indices</th></tr></thead></table></div>',
    );
    assert.throws(
      () => parseIndexLevels(html),
      (e: unknown) =>
        e instanceof UpstreamDataError && e.pageKind === 'index-levels' && /missing column/.test(e.message),
    );
  });
});
