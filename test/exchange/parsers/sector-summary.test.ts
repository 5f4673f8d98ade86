import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseSectorSummary } from '../../../src/exchange/parsers/sector-summary.ts';
import { change, num, page, symbolCell, table, td, th } from './html.ts';

const COMMENT = "<!-- td.right=numeral(sector.open).format('0,0.00')-->";

function summaryRow(
  code: string,
  name: string,
  counts: [string, string, string],
  turnover: string,
  cap: string,
) {
  return [
    td(code),
    td(`<a href="javascript:" data-code="${code}"><strong>${name}</strong></a>`, `data-order="${name}"`),
    ...counts.map((c) => td(c, 'class="right"')),
    COMMENT,
    num(turnover, Number(turnover).toLocaleString('en-US')),
    td(cap, 'class="right"'),
  ];
}

const SUMMARY_HEADERS = [
  th('Sector Code', 'style="width:110px;"'),
  th('Sector Name'),
  th('Advance'),
  th('Decline'),
  th('Unchange'),
  '<!-- th.right(style="width:90px;") Open-->',
  th('Turnover'),
  th('Market Cap. (B)'),
];

const MEMBER_HEADERS = ['SYMBOL', 'NAME', 'LDCP', 'CURRENT', 'CHANGE', 'CHANGE (%)', 'VOLUME'].map((h) =>
  th(h, `data-name="${h === 'SYMBOL' ? 'symbol' : h.toLowerCase()}"`),
);

function member(symbol: string, tag?: string): string[] {
  return [
    symbolCell(symbol, `${symbol} Limited`, tag),
    COMMENT,
    td(`<a class="tbl__symbol" href="/company/${symbol}"><strong>${symbol} Limited</strong></a>`),
    num('10', '10.00'),
    num('11', '11.00'),
    change('1', '1.00'),
    change('10', '10.00%'),
    num('100', '100'),
  ];
}

function sectorDiv(code: string, name: string, tableHtml: string): string {
  return `<div class="sectorSummary__companies__table" data-code="${code}"><h3>${name}</h3><div class="tbl__wrapper">${tableHtml}</div></div>`;
}

describe('parseSectorSummary', () => {
  it('reads the summary and one member list per sector div', () => {
    const html = page(
      `<div class="sectorSummary__sectors"><div class="tbl__wrapper">` +
        table(SUMMARY_HEADERS, [
          summaryRow('0801', 'AUTOMOBILE ASSEMBLER', ['10', '0', '0'], '2864193', '680.99'),
          summaryRow('0802', 'AUTOMOBILE PARTS &amp; ACCESSORIES', ['2', '8', '2'], '1927655', '1,523.22'),
        ]) +
        '</div></div><div class="sectorSummary__companies">' +
        sectorDiv(
          '0801',
          'AUTOMOBILE ASSEMBLER',
          table(MEMBER_HEADERS, [member('AGTL'), member('DFML', 'NC')]),
        ) +
        sectorDiv(
          '0802',
          'AUTOMOBILE PARTS &amp; ACCESSORIES',
          '<table class="tbl"><thead class="tbl__head"></thead><tbody class="tbl__body"></tbody></table>',
        ) +
        '</div>',
    );
    assert.deepEqual(parseSectorSummary(html), {
      sectors: [
        {
          sectorCode: '0801',
          sectorName: 'AUTOMOBILE ASSEMBLER',
          advance: 10,
          decline: 0,
          unchanged: 0,
          turnover: 2864193,
          marketCapB: 680.99,
        },
        {
          sectorCode: '0802',
          sectorName: 'AUTOMOBILE PARTS & ACCESSORIES',
          advance: 2,
          decline: 8,
          unchanged: 2,
          turnover: 1927655,
          marketCapB: 1523.22,
        },
      ],
      members: [
        { sectorCode: '0801', sectorName: 'AUTOMOBILE ASSEMBLER', symbols: ['AGTL', 'DFML'] },
        { sectorCode: '0802', sectorName: 'AUTOMOBILE PARTS & ACCESSORIES', symbols: [] },
      ],
    });
  });

  it('names a member list from the summary when its <h3> is missing', () => {
    const html = page(
      table(SUMMARY_HEADERS, [summaryRow('0804', 'CEMENT', ['1', '2', '3'], '5', '6')]) +
        `<div class="sectorSummary__companies__table" data-code="0804">${table(MEMBER_HEADERS, [member('LUCK')])}</div>`,
    );
    assert.deepEqual(parseSectorSummary(html).members, [
      { sectorCode: '0804', sectorName: 'CEMENT', symbols: ['LUCK'] },
    ]);
  });

  it('gives empty lists for a page with an empty summary body', () => {
    assert.deepEqual(parseSectorSummary(page(table(SUMMARY_HEADERS, []))), { sectors: [], members: [] });
  });

  it('rejects a page without the summary table, or a member table without SYMBOL', () => {
    const isSectorError = (e: unknown): boolean =>
      e instanceof UpstreamDataError && e.pageKind === 'sector-summary';
    assert.throws(() => parseSectorSummary(page('<p>down</p>')), isSectorError);
    const badMembers = page(
      table(SUMMARY_HEADERS, []) + sectorDiv('0801', 'X', table(['TICKER'], [[td('AGTL')]])),
    );
    assert.throws(() => parseSectorSummary(badMembers), isSectorError);
  });
});
