import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseHistory } from '../../../src/exchange/parsers/history.ts';
import { page, table, td, th } from './html.ts';

const HEADERS = [
  th('DATE ', 'data-name="time" data-type="string"'),
  th('OPEN', 'class="right" data-name="open"'),
  th('HIGH', 'class="right" data-name="high"'),
  th('LOW', 'class="right" data-name="low"'),
  th('CLOSE', 'class="right" data-name="close"'),
  th('VOLUME', 'class="right" data-name="volume"'),
];

function day(epoch: number | null, date: string, values: readonly string[]): string[] {
  return [
    td(date, epoch === null ? '' : `data-order="${epoch}"`),
    ...values.map((v) => td(v, 'class="right"')),
  ];
}

function historyPage(rows: readonly (readonly string[])[]): string {
  return page(table(HEADERS, rows, 'class="tbl" id="historicalTable" data-page-length="25"'));
}

describe('parseHistory', () => {
  it('reads rows newest first, date from data-order in Karachi time', () => {
    const html = historyPage([
      day(1735902000, 'Jan 3, 2025', ['481.99', '496.00', '474.01', '485.38', '4,496,408']),
      day(1735815600, 'Jan 2, 2025', ['452.00', '484.00', '451.51', '478.30', '3,602,326']),
    ]);
    assert.deepEqual(parseHistory(html), [
      { date: '2025-01-03', open: 481.99, high: 496, low: 474.01, close: 485.38, volume: 4496408 },
      { date: '2025-01-02', open: 452, high: 484, low: 451.51, close: 478.3, volume: 3602326 },
    ]);
  });

  it('falls back to the date text when data-order is missing or not epoch seconds', () => {
    const html = historyPage([
      day(null, 'Dec 31, 2024', ['1', '2', '0.5', '1.5', '10']),
      day(20241230, 'Dec 30, 2024', ['1', '2', '0.5', '1.5', '10']),
    ]);
    assert.deepEqual(
      parseHistory(html).map((r) => r.date),
      ['2024-12-31', '2024-12-30'],
    );
  });

  it('skips rows without a readable date; blank and N/A values are null', () => {
    const html = historyPage([
      day(null, 'not a date', ['1', '2', '3', '4', '5']),
      day(1735902000, 'Jan 3, 2025', ['', 'N/A', '-', '485.38', '']),
    ]);
    assert.deepEqual(parseHistory(html), [
      { date: '2025-01-03', open: null, high: null, low: null, close: 485.38, volume: null },
    ]);
  });

  it('handles omitted closing tags', () => {
    const html =
      '<table id="historicalTable"><thead><tr><th>DATE <th>OPEN<th>HIGH<th>LOW<th>CLOSE<th>VOLUME</thead><tbody>' +
      '<tr><td data-order="1735902000">Jan 3, 2025<td>481.99<td>496.00<td>474.01<td>485.38<td>4,496,408' +
      '<tr><td data-order="1735815600">Jan 2, 2025<td>452.00<td>484.00<td>451.51<td>478.30<td>3,602,326' +
      '</tbody></table>';
    const rows = parseHistory(html);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[1], {
      date: '2025-01-02',
      open: 452,
      high: 484,
      low: 451.51,
      close: 478.3,
      volume: 3602326,
    });
  });

  it('finds columns by header, not position', () => {
    const html = page(
      table(
        ['VOLUME', 'CLOSE', 'DATE '],
        [[td('1,000'), td('10.5'), td('Jan 3, 2025', 'data-order="1735902000"')]],
        'id="historicalTable"',
      ),
    );
    assert.deepEqual(parseHistory(html), [
      { date: '2025-01-03', open: null, high: null, low: null, close: 10.5, volume: 1000 },
    ]);
  });

  it('gives [] for a symbol without history (empty body)', () => {
    assert.deepEqual(parseHistory(historyPage([])), []);
  });

  it('reads a table whose id changed, by its headers', () => {
    const html = page(table(HEADERS, [day(1735902000, 'Jan 3, 2025', ['1', '2', '3', '4', '5'])]));
    assert.equal(parseHistory(html).length, 1);
  });

  it('rejects a page without the table or without a required column', () => {
    const isHistoryError = (e: unknown): boolean =>
      e instanceof UpstreamDataError && e.pageKind === 'history';
    assert.throws(() => parseHistory(page('<p>Not Found</p>')), isHistoryError);
    assert.throws(() => parseHistory(''), isHistoryError);
    assert.throws(
      () => parseHistory(page(table(['DATE ', 'OPEN'], [], 'id="historicalTable"'))),
      (e: unknown) => isHistoryError(e) && /missing column "close"/.test((e as Error).message),
    );
  });
});
