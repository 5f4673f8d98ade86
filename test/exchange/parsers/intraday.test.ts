// The /timeseries parsers: recorded HBL series (../shared/dps-recorded, skipped when absent), the
// unknown-symbol answer, and pages that must throw rather than read as empty.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { parseIndexSeries, parseIntraday } from '../../../src/exchange/parsers/index.ts';
import { UpstreamDataError } from '../../../src/errors.ts';

const RECORDED = fileURLToPath(new URL('../../../../shared/dps-recorded/2026-09/', import.meta.url));

function recorded(t: TestContext, file: string): string | null {
  if (!existsSync(RECORDED + file)) {
    t.skip(`recorded portal pages not found (${RECORDED}); conformance not checked`);
    return null;
  }
  return readFileSync(RECORDED + file, 'utf8');
}

describe('parseIntraday', () => {
  it('reads the recorded HBL prints oldest first, the last at 15:47:20 Karachi', (t) => {
    const text = recorded(t, 'timeseries-int-hbl.json');
    if (text === null) return;
    const raw = (JSON.parse(text) as { data: [number, number, number][] }).data;
    const series = parseIntraday(text);
    assert.equal(series.known, true);
    assert.equal(series.ticks.length, raw.length);
    const last = series.ticks[series.ticks.length - 1]!;
    assert.deepEqual(last, { epoch: 1790765240, price: 306.1, volume: 500 });
    for (let i = 1; i < series.ticks.length; i++) {
      assert.ok(series.ticks[i]!.epoch >= series.ticks[i - 1]!.epoch);
    }
  });

  it('keeps prints of one second in the order they were printed', () => {
    const series = parseIntraday(
      JSON.stringify({
        status: 1,
        data: [
          [20, 3, 1],
          [10, 2, 1],
          [10, 1, 1],
        ],
      }),
    );
    assert.deepEqual(
      series.ticks.map((t) => t.price),
      [1, 2, 3],
    );
  });

  it('reads status 0 as an unknown symbol, and throws on a page it cannot read', () => {
    assert.deepEqual(parseIntraday('{"status":0,"message":"Invalid symbol"}'), { known: false, ticks: [] });
    assert.deepEqual(parseIntraday('{"status":1,"message":"","data":[]}'), { known: true, ticks: [] });
    for (const page of ['<html>Not Found</html>', '[]', '{"status":1}', '{"status":1,"data":[["x"]]}']) {
      assert.throws(() => parseIntraday(page), UpstreamDataError, page);
    }
  });
});

describe('parseIndexSeries', () => {
  it('dates each row in Karachi and orders oldest first (recorded HBL EOD shape)', (t) => {
    const text = recorded(t, 'timeseries-eod-hbl.json');
    if (text === null) return;
    const rows = parseIndexSeries(text);
    const newest = rows[rows.length - 1]!;
    // 1790766000 = 2026-09-30 16:00 Karachi.
    assert.deepEqual(newest, { date: '2026-09-30', open: 302.8, close: 306.1, volume: 1153509 });
    for (let i = 1; i < rows.length; i++) assert.ok(rows[i]!.date > rows[i - 1]!.date);
  });

  it('reads Karachi midnight as that Karachi day, not the UTC day before', () => {
    const midnight = Date.parse('2022-06-06T00:00:00+05:00') / 1000;
    const rows = parseIndexSeries(JSON.stringify({ status: 1, data: [[midnight, 100.5, 10, 99]] }));
    assert.deepEqual(rows, [{ date: '2022-06-06', open: 99, close: 100.5, volume: 10 }]);
  });

  it('throws on a page it cannot read', () => {
    assert.throws(() => parseIndexSeries('<html></html>'), UpstreamDataError);
    assert.throws(() => parseIndexSeries('{"status":1,"data":[[1]]}'), UpstreamDataError);
  });
});
