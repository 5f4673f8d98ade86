import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UpstreamDataError } from '../../../src/errors.ts';
import { parseEod } from '../../../src/exchange/parsers/eod.ts';

// The recordings sit beside the repository (see test/exchange/recorded-pages.test.ts).
const RECORDED = fileURLToPath(
  new URL('../../../../shared/dps-recorded/2026-09/timeseries-eod-hbl.json', import.meta.url),
);

function recorded(t: TestContext): string | null {
  if (!existsSync(RECORDED)) {
    t.skip(`recorded eod series not found (${RECORDED}); conformance not checked`);
    return null;
  }
  return readFileSync(RECORDED, 'utf8');
}

const body = (data: unknown, status: unknown = 1): string => JSON.stringify({ status, message: '', data });

describe('parseEod', () => {
  it('reads the recorded HBL series: newest first, Karachi dates of the 16:00 epochs', (t) => {
    const json = recorded(t);
    if (json === null) return;
    const rows = parseEod(json);
    assert.equal(rows.length, 120);
    assert.deepEqual(rows[0], { date: '2026-09-30', close: 306.1, volume: 1153509, open: 302.8 });
    assert.deepEqual(rows.at(-1), { date: '2026-04-06', close: 267.77, volume: 1540581, open: 265.21 });
    for (let i = 1; i < rows.length; i++)
      assert.ok(rows[i]!.date < rows[i - 1]!.date, 'strictly newest first');
  });

  it('dates an epoch at Karachi midnight by the Karachi day, not the UTC one', () => {
    // 2022-02-06T19:00:00Z is 2022-02-07 00:00 in Karachi.
    assert.deepEqual(parseEod(body([[1644174000, 109.67, 4672540, 113.19]])), [
      { date: '2022-02-07', close: 109.67, volume: 4672540, open: 113.19 },
    ]);
  });

  it('keeps the newest row of a repeated day; volume and open may be missing', () => {
    const rows = parseEod(
      body([
        [1790766000, 306.1],
        [1790766000 - 3600, 305, 10, 300],
      ]),
    );
    assert.deepEqual(rows, [{ date: '2026-09-30', close: 306.1, volume: null, open: null }]);
  });

  it('answers [] for an unknown symbol (status 1, empty data)', () => {
    assert.deepEqual(parseEod(body([])), []);
  });

  for (const [name, text] of [
    ['HTML instead of JSON', '<html><body>Maintenance</body></html>'],
    ['an array', '[]'],
    ['status 0', JSON.stringify({ status: 0, message: 'Invalid symbol', data: [] })],
    ['no data array', JSON.stringify({ status: 1, message: '' })],
    ['a row that is not an array', body([{ t: 1790766000, c: 306.1 }])],
    ['milliseconds instead of seconds', body([[1790766000000, 306.1, 1, 1]])],
    ['a close that is text', body([[1790766000, '306.1', 1, 1]])],
    ['an open that is text', body([[1790766000, 306.1, 1, 'x']])],
  ] as const) {
    it(`throws on ${name}`, () => {
      assert.throws(() => parseEod(text), UpstreamDataError);
    });
  }
});
