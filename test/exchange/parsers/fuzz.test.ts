// Garbage in → UpstreamDataError or a valid result; never another exception.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UpstreamDataError } from '../../../src/errors.ts';
import type { PageKind } from '../../../src/exchange/types.ts';
import {
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseMarketWatch,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseSymbols,
  parseToken,
} from '../../../src/exchange/parsers/index.ts';
import { change, num, page, symbolCell, table, td, th } from './html.ts';

const PARSERS: readonly [PageKind, (input: string) => unknown][] = [
  ['history', parseHistory],
  ['screener', parseScreener],
  ['market-watch', parseMarketWatch],
  ['index-constituents', parseIndexConstituents],
  ['index-levels', parseIndexLevels],
  ['sector-summary', parseSectorSummary],
  ['reports', (input) => parseReports(input, 'HBL')],
  ['symbols', parseSymbols],
];

/** Every number in a result is finite; every date-like field is well-formed. */
function assertSane(value: unknown, path = '$'): void {
  if (typeof value === 'number') {
    assert.ok(Number.isFinite(value), `${path} = ${value}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => assertSane(item, `${path}[${i}]`));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'date') assert.match(String(item), /^\d{4}-\d{2}-\d{2}$/, `${path}.${key}`);
      if (key === 'symbol' && item !== null)
        assert.match(String(item), /^[A-Z0-9][A-Z0-9._-]{0,19}$/, `${path}.${key}`);
      assertSane(item, `${path}.${key}`);
    }
  } else {
    assert.ok(
      value === null || typeof value === 'string' || typeof value === 'boolean',
      `${path}: ${typeof value}`,
    );
  }
}

function assertRobust(input: string): void {
  for (const [kind, parse] of PARSERS) {
    let result: unknown;
    try {
      result = parse(input);
    } catch (error) {
      assert.ok(error instanceof UpstreamDataError, `${kind} threw ${String(error)}`);
      assert.equal(error.pageKind, kind);
      continue;
    }
    assertSane(result);
  }
  const token = parseToken(input);
  assert.ok(token === null || /^[A-Za-z0-9_-]{16,}$/.test(token));
}

const FRAGMENTS = [
  '<table>',
  '</table>',
  '<table id="historicalTable">',
  '<thead>',
  '</thead>',
  '<tbody>',
  '</tbody>',
  '<tr>',
  '</tr>',
  '<td>',
  '</td>',
  '<th>',
  '</th>',
  '<td data-order="',
  '<td data-order="1735902000">',
  '<td data-search="ABL" data-order="ABL">',
  '<a href="/x" data-code="KSE100" data-title="T">',
  '</a>',
  '<strong>',
  '</strong>',
  '<b>',
  '<div id="indicesTable">',
  '<div class="sectorSummary__companies__table" data-code="0801">',
  '</div>',
  '<h2>',
  '</h2>',
  '<h3>',
  '<!--',
  '-->',
  '<script>',
  '</script>',
  '<style>',
  '<br/>',
  '"',
  "'",
  '<',
  '>',
  '&amp;',
  '&#x1F4A9;',
  '&#99999999;',
  '&nbsp',
  '&',
  'SYMBOL',
  'DATE ',
  'CLOSE',
  'PRICE',
  'CURRENT',
  'Index',
  'Sector Code',
  'Sector Name',
  'Reports',
  'Period Ended',
  'Posting Date',
  'N/A',
  '-',
  '4,496,408',
  '-1.7239999999999998',
  '0.44%',
  'Jan 3, 2025',
  '(29-09-2026 18:30:00)',
  'As of Sep 30, 2026 3:50 PM',
  '1e999',
  '0x1f',
  ' ',
  '\n',
  '\u0000',
  '[',
  ']',
  '{"symbol":"ABL"}',
  ',',
];

const htmlSoup = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })), {
  maxLength: 80,
});

function samplePages(): string[] {
  const screener = page(
    table(
      [th('SYMBOL'), th('SECTOR'), th('PRICE', 'data-name="close"'), th('CHANGE (%)')],
      [[symbolCell('786', '786 Inv', 'XD'), td('0813'), num('44.69', '44.69'), change('-9.99', '-9.99%')]],
      'class="tbl" id="screenerTable"',
    ),
  );
  const history = page(
    table(
      ['DATE ', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'VOLUME'],
      [
        [
          td('Jan 3, 2025', 'data-order="1735902000"'),
          td('1'),
          td('2'),
          td('0.5'),
          td('1.5'),
          td('4,496,408'),
        ],
      ],
      'id="historicalTable"',
    ),
  );
  const levels = page(
    '<div id="indicesTable"><div>As of Sep 30, 2026 3:50 PM</div>' +
      table(
        ['Index', 'High', 'Low', 'Current', 'Change', '% Change'],
        [[td('<b>HBLTTI</b><span> (29-09-2026 18:30:00)</span>'), td('N/A', 'data-order="0"'), num(1, '1')]],
      ) +
      '</div>',
  );
  const sectors = page(
    table(
      ['Sector Code', 'Sector Name', 'Advance'],
      [[td('0801'), td('<strong>AUTO &amp; X</strong>'), td('1')]],
    ) +
      '<div class="sectorSummary__companies__table" data-code="0801"><h3>AUTO</h3>' +
      table(['SYMBOL', 'LDCP'], [[symbolCell('AGTL', 'Al-Ghazi', 'NC'), num(1, '1')]]) +
      '</div>',
  );
  const reports = page(
    table(
      ['Reports', 'Period Ended', 'Posting Date'],
      [[td('<a href="/pdf?id=1">Annual</a>'), td('2025'), td('Mar 6, 2026')]],
    ),
  );
  return [screener, history, levels, sectors, reports, JSON.stringify([{ symbol: 'ABL', name: 'Allied' }])];
}

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(), length: fc.constant(0) }),
);

type Mutation = { kind: 'delete'; at: number; length: number } | { kind: 'insert'; at: number; text: string };

function mutate(source: string, mutations: readonly (Mutation | { kind: 'truncate'; at: number })[]): string {
  let text = source;
  for (const m of mutations) {
    const at = text.length === 0 ? 0 : m.at % (text.length + 1);
    if (m.kind === 'delete') text = text.slice(0, at) + text.slice(at + m.length);
    else if (m.kind === 'insert') text = text.slice(0, at) + m.text + text.slice(at);
    else text = text.slice(0, at);
  }
  return text;
}

describe('parsers on garbage', () => {
  it('survive arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), assertRobust), { numRuns: 300 });
  });

  it('survive HTML-like soup', () => {
    fc.assert(
      fc.property(htmlSoup, (parts) => assertRobust(parts.join(''))),
      { numRuns: 400 },
    );
  });

  it('survive mutated valid pages', () => {
    const pages = samplePages();
    fc.assert(
      fc.property(
        fc.constantFrom(...pages),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (source, mutations) => assertRobust(mutate(source, mutations)),
      ),
      { numRuns: 400 },
    );
  });

  it('reject non-text input with UpstreamDataError', () => {
    for (const input of [null, undefined, 42, {}, [], Buffer.from('<table>')]) {
      for (const [kind, parse] of PARSERS) {
        assert.throws(
          () => parse(input as unknown as string),
          (e: unknown) => e instanceof UpstreamDataError && e.pageKind === kind,
          `${kind} on ${String(input)}`,
        );
      }
      assert.equal(parseToken(input as unknown as string), null);
    }
  });
});
