import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractTables } from '../../../src/exchange/html/table.ts';
import { collapseWhitespace } from '../../../src/exchange/html/text.ts';
import { page, symbolCell, table, td } from '../parsers/html.ts';

describe('extractTables', () => {
  it('reads headers trimmed, lowercased and collapsed, with their data-name', () => {
    const html = table(['<th data-name="time">DATE </th>', 'IDX POINT ', '  1-YEAR\n CH. (%) *'], []);
    const [t] = extractTables(html);
    assert.deepEqual(t?.headers, ['date', 'idx point', '1-year ch. (%) *']);
    assert.deepEqual(t?.headerNames, ['time', null, null]);
    assert.deepEqual(t?.rows, []);
  });

  it('captures text, data-order, data-search, strong, link code/title/href of a cell', () => {
    const html = table(['SYMBOL', 'A'], [[symbolCell('FCCL', 'Fauji Cement', 'XD'), td('x')]]);
    const cell = extractTables(html)[0]?.rows[0]?.[0];
    assert.deepEqual(cell, {
      text: 'FCCL XD',
      order: 'FCCL',
      search: 'FCCL',
      strong: 'FCCL',
      linkCode: null,
      linkTitle: 'Fauji Cement',
      href: '/company/FCCL',
      links: [{ href: '/company/FCCL', images: null, text: 'FCCL' }],
    });
  });

  it('keeps every link of a cell: the View link’s images and the PDF after it', () => {
    const html = table(
      ['TITLE', ' '],
      [
        [
          td('Notice'),
          '<td> <i class="icon-file-image"></i><a href="javascript:" data-images="283814-1.gif">View</a>' +
            '&nbsp;&nbsp;&nbsp;<i class="icon-file-pdf"></i><a href="/download/document/283814.pdf" target="_blank">PDF</a></td>',
        ],
      ],
    );
    const cell = extractTables(html)[0]?.rows[0]?.[1];
    assert.equal(cell?.href, 'javascript:');
    assert.deepEqual(cell?.links, [
      { href: 'javascript:', images: '283814-1.gif', text: 'View' },
      { href: '/download/document/283814.pdf', images: null, text: 'PDF' },
    ]);
    assert.deepEqual(extractTables(html)[0]?.rows[0]?.[0]?.links, []);
  });

  it('reads a header built of inline pieces as one text, <br> a space', () => {
    const html = table(['<th class="center"> <span>Coupon/</span><br/><span>Rental Rate</span></th>'], []);
    assert.deepEqual(extractTables(html)[0]?.headers, ['coupon/ rental rate']);
  });

  it('closes cells and rows the portal leaves open', () => {
    const html =
      '<table><thead><tr><th>A<th>B</thead><tbody>' +
      '<tr><td data-order="1">one<td>two' +
      '<tr><td>three<td data-order="4">four' +
      '</tbody></table>';
    const [t] = extractTables(html);
    assert.deepEqual(t?.headers, ['a', 'b']);
    assert.deepEqual(
      t?.rows.map((r) => r.map((c) => [c.text, c.order])),
      [
        [
          ['one', '1'],
          ['two', null],
        ],
        [
          ['three', null],
          ['four', '4'],
        ],
      ],
    );
  });

  it('ignores HTML comments between and inside cells', () => {
    const html =
      '<table><thead><tr><th>A</th><!-- th B --><th>C</th></tr></thead><tbody><tr><td>1</td>' +
      "<!-- td.right=numeral(sector.open).format('0,0.00')\n=x --><td>3<!-- <td>2</td> --></td></tr></tbody></table>";
    const [t] = extractTables(html);
    assert.deepEqual(t?.headers, ['a', 'c']);
    assert.deepEqual(
      t?.rows[0]?.map((c) => c.text),
      ['1', '3'],
    );
  });

  it('decodes entities in text and attributes', () => {
    const html = table(
      ['Sector Name'],
      [
        [
          td(
            '<a href="/x?a=1&amp;b=2" data-title="A &amp; B"><strong>AUTOMOBILE PARTS &amp; ACCESSORIES</strong></a>',
            'data-order="AUTOMOBILE PARTS &amp; ACCESSORIES"',
          ),
        ],
        [td('&nbsp;&nbsp;5&#44;000&nbsp;')],
      ],
    );
    const rows = extractTables(html)[0]?.rows;
    assert.equal(rows?.[0]?.[0]?.text, 'AUTOMOBILE PARTS & ACCESSORIES');
    assert.equal(rows?.[0]?.[0]?.order, 'AUTOMOBILE PARTS & ACCESSORIES');
    assert.equal(rows?.[0]?.[0]?.strong, 'AUTOMOBILE PARTS & ACCESSORIES');
    assert.equal(rows?.[0]?.[0]?.href, '/x?a=1&b=2');
    assert.equal(rows?.[0]?.[0]?.linkTitle, 'A & B');
    assert.equal(rows?.[1]?.[0]?.text, '5,000');
  });

  it('filters by table id', () => {
    const html =
      table(['A'], [[td('1')]], 'id="other"') + table(['B'], [[td('2')]], 'class="tbl" id="wanted"');
    const tables = extractTables(html, { tableId: 'wanted' });
    assert.equal(tables.length, 1);
    assert.equal(tables[0]?.id, 'wanted');
    assert.deepEqual(tables[0]?.headers, ['b']);
  });

  it('marks tables inside the scope element with its data-code and preceding text', () => {
    const html =
      '<div class="sectorSummary__sectors">' +
      table(['Sector Code'], [[td('0801')]]) +
      '</div>' +
      '<div class="sectorSummary__companies__table" data-code="0801"><h3>AUTOMOBILE ASSEMBLER</h3><div class="tbl__wrapper">' +
      table(['SYMBOL'], [[symbolCell('AGTL', 'Al-Ghazi', 'NC')]]) +
      '</div></div>' +
      '<div class="sectorSummary__companies__table other" data-code="0802"><h3>PARTS &amp; ACC</h3>' +
      table(['SYMBOL'], []) +
      '</div>' +
      table(['AFTER'], []);
    const tables = extractTables(html, {
      scope: { className: 'sectorSummary__companies__table', withCode: true },
    });
    assert.deepEqual(
      tables.map((t) => [t.headers[0], t.scope?.code ?? null, t.heading, t.scope?.text ?? null]),
      [
        ['sector code', null, null, null],
        ['symbol', '0801', 'AUTOMOBILE ASSEMBLER', 'AUTOMOBILE ASSEMBLER'],
        ['symbol', '0802', 'PARTS & ACC', 'PARTS & ACC'],
        ['after', null, null, null],
      ],
    );
  });

  it('matches a scope by id and keeps the text before the table', () => {
    const html =
      '<div id="indicesTable"><div style="text-align: right">As of Sep 30, 2026 3:50 PM</div>' +
      table(['Index'], [[td('<a data-code="KSE100"><b>KSE100</b></a>')]]) +
      '</div>';
    const [t] = extractTables(html, { scope: { id: 'indicesTable' } });
    assert.equal(t?.scope?.text, 'As of Sep 30, 2026 3:50 PM');
    assert.equal(t?.rows[0]?.[0]?.linkCode, 'KSE100');
    assert.equal(t?.rows[0]?.[0]?.strong, 'KSE100');
  });

  it('records the nearest heading before an unscoped table', () => {
    const html = '<h2 style="margin-top:0;">KSE 100 INDEX   Constituents</h2>' + table(['SYMBOL'], []);
    assert.equal(extractTables(html)[0]?.heading, 'KSE 100 INDEX Constituents');
  });

  it('ignores script and style text, and tables written inside scripts', () => {
    const html = page(table(['A'], [[td('1<script>var t = "<td>2</td>";</script><style>.x{}</style>')]]));
    const tables = extractTables(html);
    assert.equal(tables.length, 1);
    assert.deepEqual(
      tables[0]?.rows.map((r) => r.map((c) => c.text)),
      [['1']],
    );
  });

  it('reads a nested table as text of the outer cell', () => {
    const html = table(['A', 'B'], [[td('<table><tr><td>in</td><td>ner</td></tr></table>'), td('b')]]);
    const tables = extractTables(html);
    assert.equal(tables.length, 1);
    assert.deepEqual(
      tables[0]?.rows[0]?.map((c) => c.text),
      ['inner', 'b'],
    );
  });

  it('takes the first header row without thead when all its cells are th', () => {
    const html = '<TABLE><TR><TH>X</TH><TH>Y</TH></TR><TR><TD>1</TD><TD>2</TD></TR></TABLE>';
    const [t] = extractTables(html);
    assert.deepEqual(t?.headers, ['x', 'y']);
    assert.equal(t?.rows.length, 1);
  });

  it('keeps only the first link and strong of a cell', () => {
    const html = table(
      ['A'],
      [
        [
          td(
            '<a href="/one" data-code="ONE"><b>ONE</b></a> <a href="/two" data-code="TWO"><strong>TWO</strong></a>',
          ),
        ],
      ],
    );
    const cell = extractTables(html)[0]?.rows[0]?.[0];
    assert.equal(cell?.href, '/one');
    assert.equal(cell?.linkCode, 'ONE');
    assert.equal(cell?.strong, 'ONE');
    assert.equal(cell?.text, 'ONE TWO');
  });

  it('finishes a table left open at the end of the page', () => {
    const [t] = extractTables('<table><tr><th>A</th></tr><tr><td>1');
    assert.deepEqual(
      t?.rows.map((r) => r[0]?.text),
      ['1'],
    );
  });

  it('returns no tables for a page without any', () => {
    assert.deepEqual(extractTables(''), []);
    assert.deepEqual(extractTables('<div>text</div><td>stray</td>'), []);
  });
});

describe('collapseWhitespace', () => {
  it('trims and collapses runs, NBSP included', () => {
    assert.equal(collapseWhitespace('  a \n\t b\u00a0\u00a0c  '), 'a b c');
    assert.equal(collapseWhitespace('clean text'), 'clean text');
    assert.equal(collapseWhitespace(' \n '), '');
  });
});
