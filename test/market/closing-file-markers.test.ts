// The closing files' ex-markers joined with the corporate actions (pure): which action a marker
// joins, when it is only a note, and that a marked day without an action is never applied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withClosingFileMarkers } from '../../src/market/corporate-actions/closing-file-markers.ts';
import type { CorporateActionT } from '../../src/market/models/resources.ts';

const action = (ex_date: string, kind: CorporateActionT['kind'], evidence: string[]): CorporateActionT =>
  Object.freeze({ ex_date, kind, ratio: null, amount: null, evidence, applied: true, note: null });

test('a day with a dividend and a bonus: XB joins the bonus, the dividend gets no note', () => {
  const dividend = action('2025-03-03', 'cash_dividend', ['payouts']);
  const bonus = action('2025-03-03', 'capital_change', ['adjusted_series_step', 'raw_gap']);
  const out = withClosingFileMarkers([dividend, bonus], [{ date: '2025-03-03', marker: 'XB' }]);
  assert.deepEqual(out[0], dividend);
  assert.deepEqual(out[1]!.evidence, ['adjusted_series_step', 'raw_gap', 'closing_file_marker']);
  assert.equal(out[1]!.applied, true);
  // The inputs (shared by cached analyses) are left as they were.
  assert.deepEqual(bonus.evidence, ['adjusted_series_step', 'raw_gap']);
});

test('XR joins a capital change; XD on a day of capital changes only is a note', () => {
  const right = action('2025-03-03', 'capital_change', ['adjusted_series_step']);
  const [withRight] = withClosingFileMarkers([right], [{ date: '2025-03-03', marker: 'XR' }]);
  assert.deepEqual(withRight!.evidence, ['adjusted_series_step', 'closing_file_marker']);
  const [noted] = withClosingFileMarkers([right], [{ date: '2025-03-03', marker: 'XD' }]);
  assert.deepEqual(noted!.evidence, ['adjusted_series_step']);
  assert.equal(
    noted!.note,
    'the closing file marks this day XD (ex-dividend), which is not a capital change: not taken as evidence',
  );
});

test('marked days without an action are listed unconfirmed, in date order', () => {
  const dividend = action('2025-03-03', 'cash_dividend', ['payouts']);
  const out = withClosingFileMarkers(
    [dividend],
    [
      { date: '2015-05-04', marker: 'XB' },
      { date: '2026-01-05', marker: 'XD' },
    ],
  );
  assert.deepEqual(
    out.map((a) => [a.ex_date, a.kind, a.applied, a.ratio, a.amount, a.evidence.join()]),
    [
      ['2015-05-04', 'capital_change', false, null, null, 'closing_file_marker'],
      ['2025-03-03', 'cash_dividend', true, null, null, 'payouts'],
      ['2026-01-05', 'cash_dividend', false, null, null, 'closing_file_marker'],
    ],
  );
  assert.match(
    out[0]!.note!,
    /XB \(ex-bonus\); neither the adjusted series nor the payouts page gives its ratio: not applied/,
  );
  assert.deepEqual(withClosingFileMarkers([dividend], []), [dividend]);
});
