// Headers are matched on the whole cell's text, loosely: the portal builds some header cells of
// inline pieces (`<span>Coupon/</span><br/><span>Rental Rate</span>`), which read with a space
// where the label a parser expects has none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractTables } from '../../../src/exchange/html/table.ts';
import { headerIndex, locateColumns } from '../../../src/exchange/parsers/columns.ts';
import { table, td } from './html.ts';

describe('header match', () => {
  it('finds a label whatever the spaces around its pieces', () => {
    const headers = ['security code', 'coupon/ rental rate', 'previous coupon/ rental date', 'change (%)'];
    assert.equal(headerIndex(headers, 'coupon/rental rate'), 1);
    assert.equal(headerIndex(headers, 'coupon / rental rate'), 1);
    assert.equal(headerIndex(headers, 'previous coupon/rental date'), 2);
    assert.equal(headerIndex(headers, 'change (%)'), 3);
    // Loose is not fuzzy: a different label is still not found.
    assert.equal(headerIndex(headers, 'change'), -1);
    assert.equal(headerIndex(headers, 'next coupon/rental date'), -1);
  });

  it('locates the debt page’s inline-piece headers', () => {
    const [t] = extractTables(
      table(
        [
          'Security Code',
          '<th class="center"> <span>Coupon/</span><br/><span>Rental Rate</span></th>',
          '<th class="center"> <span>Next Coupon/</span><br/><span>Rental Date</span></th>',
        ],
        [[td('X'), td('11.4400%'), td('September 26, 2026')]],
      ),
    );
    const { columns, missing } = locateColumns(t!, {
      code: { labels: ['security code'], required: true },
      coupon: { labels: ['coupon/rental rate'], required: true },
      next: { labels: ['next coupon/rental date'] },
    });
    assert.deepEqual(columns, { code: 0, coupon: 1, next: 2 });
    assert.equal(missing, null);
  });
});
