import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parsePayoutDetails, parsePayouts } from '../../../src/exchange/parsers/payouts.ts';
import { renderPayouts } from '../../../dev/fake-portal/corporate-actions.ts';
import { renderGarbagePage } from '../../../dev/fake-portal/pages.ts';
import { table, td } from './html.ts';

const HEADERS = ['Date', 'Financial Results', 'Details', 'Book Closure'];

function payoutsPage(rows: readonly (readonly string[])[], headers = HEADERS): string {
  return table(
    headers,
    rows.map((r) => r.map((c) => td(c))),
  );
}

describe('parsePayouts', () => {
  it('reads a row as the portal writes it (spaces around the details, two before the hyphen)', () => {
    const html = payoutsPage([
      ['April 17, 2026 5:10 PM', '31/03/2026(IQ)', ' 60%(i) (D) ', '29/04/2026  - 30/04/2026 '],
    ]);
    assert.deepEqual(parsePayouts(html), [
      {
        announced: '2026-04-17T17:10:00+05:00',
        periodEnded: '2026-03-31',
        periodCode: 'IQ',
        details: '60%(i) (D)',
        entries: [{ kind: 'dividend', percent: 60, label: 'i' }],
        bookClosureFrom: '2026-04-29',
        bookClosureTo: '2026-04-30',
      },
    ]);
  });

  it("reads the fake portal's FFC page: odd shapes and two dividends in one cell", () => {
    const rows = parsePayouts(renderPayouts('FFC'));
    assert.deepEqual(
      rows.map((r) => [r.announced, r.details, r.entries, r.bookClosureFrom]),
      [
        [
          '2025-10-09T15:40:00+05:00',
          '10%(i) (D) - 5%(i) (D)',
          [
            { kind: 'dividend', percent: 10, label: 'i' },
            { kind: 'dividend', percent: 5, label: 'i' },
          ],
          '2025-10-23',
        ],
        [
          '2025-07-10T11:20:00+05:00',
          '80(ii) (D)',
          [{ kind: 'dividend', percent: 80, label: 'ii' }],
          '2025-07-25',
        ],
        [
          '2025-05-21T11:05:00+05:00',
          '40%(ii (D)',
          [{ kind: 'dividend', percent: 40, label: 'ii' }],
          '2025-06-03',
        ],
      ],
    );
  });

  it("reads the fake portal's bonus and right rows", () => {
    assert.deepEqual(parsePayouts(renderPayouts('ENGRO'))[0]?.entries, [
      { kind: 'bonus', percent: 25, label: null },
    ]);
    assert.deepEqual(parsePayouts(renderPayouts('MEBL'))[0]?.entries, [
      { kind: 'right', percent: 30, label: null },
    ]);
  });

  it('answers [] for a symbol without payouts (empty body) and for an empty answer', () => {
    assert.deepEqual(parsePayouts(renderPayouts('HUBC')), []);
    assert.deepEqual(parsePayouts(''), []);
  });

  it('keeps a row whose details it cannot read, with no entries', () => {
    const rows = parsePayouts(payoutsPage([['May 2, 2025 3:00 PM', '31/03/2025(IQ)', 'SEE NOTICE', '-']]));
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]?.entries, []);
    assert.equal(rows[0]?.bookClosureFrom, null);
  });

  it('fails loudly on other headers, a missing table or a maintenance page', () => {
    const renamed = payoutsPage([], ['Date', 'Results', 'Details', 'Book Closure']);
    assert.throws(() => parsePayouts(renamed), /unexpected headers/);
    const extra = payoutsPage([], [...HEADERS, 'Ex Date']);
    assert.throws(() => parsePayouts(extra), UpstreamDataError);
    assert.throws(() => parsePayouts(renderGarbagePage()), UpstreamDataError);
  });
});

describe('parsePayoutDetails', () => {
  const cases: [string, [string, number, string | null][]][] = [
    [' 42.5%(F) (D) ', [['dividend', 42.5, 'F']]],
    ['100% (D)', [['dividend', 100, null]]],
    ['32.50%(iii) (D)', [['dividend', 32.5, 'iii']]],
    ['DIVIDEND =350% (F)', [['dividend', 350, 'F']]],
    ['50%F) (D)', [['dividend', 50, 'F']]],
    ['40%(ii (D)', [['dividend', 40, 'ii']]],
    ['80(ii) (D)', [['dividend', 80, 'ii']]],
    ['10%(F) (B)', [['bonus', 10, 'F']]],
    ['85% (R)', [['right', 85, null]]],
    ['23.855376% AT A PREMIUM RS.10/= PER SHARES (R)', [['right', 23.855376, null]]],
    [
      '10%(i) (D) - 5%(i) (D)',
      [
        ['dividend', 10, 'i'],
        ['dividend', 5, 'i'],
      ],
    ],
    ['SEE NOTICE', []],
    ['10%(i) (D) - ???', []],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => {
      assert.deepEqual(
        parsePayoutDetails(text),
        expected.map(([kind, percent, label]) => ({ kind, percent, label })),
      );
    });
  }
});
