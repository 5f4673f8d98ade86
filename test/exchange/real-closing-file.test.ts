// The exchange's own closing file of 2026-09-15 (test/fixtures/real/README.md says where it was
// recorded): every value asserted here was read off the file's lines by eye, not off the parser.
// The same bytes in both containers the portal uses (ZIP from 2019, gzip before) read the same.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zipOne } from '../../dev/fake-portal/daily-files.ts';
import { parseDailyFile, parseDailyFileBody } from '../../src/exchange/parsers/daily-file.ts';
import type { DailyFileRow } from '../../src/exchange/types.ts';

const bytes = readFileSync(
  new URL('../fixtures/real/closing-file/closing11-2026-09-15.lis', import.meta.url),
);
const file = parseDailyFile(bytes.toString('latin1'));
const bySymbol = new Map(file.rows.map((r) => [r.symbol, r]));

function row(symbol: string): DailyFileRow {
  const found = bySymbol.get(symbol);
  assert.ok(found, `${symbol} is in the file`);
  return found;
}

describe('the real closing file of 2026-09-15', () => {
  it('reads every one of its 1,068 lines, all of one date', () => {
    assert.equal(file.date, '2026-09-15');
    assert.deepEqual(file.skipped, []);
    assert.equal(file.rows.length, 1068);
    const kinds: Record<string, number> = {};
    for (const r of file.rows) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
    assert.deepEqual(kinds, { equity: 492, futures: 532, index_futures: 9, debt: 35 });
  });

  it('reads an equity line field by field', () => {
    assert.deepEqual(row('ABL'), {
      date: '2026-09-15',
      symbol: 'ABL',
      sectorCode: '0807',
      name: 'Allied Bank Ltd',
      marker: null,
      open: 162.45,
      high: 173,
      low: 162.45,
      close: 172.17,
      volume: 34982,
      ldcp: 169.06,
      kind: 'equity',
      underlying: null,
      contractMonth: null,
      cashSettled: null,
      series: null,
    });
    assert.equal(row('786').name, '786 Invest Ltd');
    assert.equal(row('UPFL').close, 23934.71);
  });

  it('takes the ex-marker off the name, for the 12 equities marked XD that day', () => {
    const marked = file.rows.filter((r) => r.kind === 'equity' && r.marker !== null);
    assert.deepEqual(
      marked.map((r) => `${r.symbol} ${r.marker} ${r.name}`),
      [
        'AICL XD Adamjee Ins.',
        'ALIFE XD Adamjee Life Ass.',
        'ATIL XD Atlas Ins. Ltd',
        'BIPL XD Bankislami Pak',
        'BOP XD B.O.Punjab',
        'DLL XD Dawood Law',
        'HALEON XD Haleon Pakistan',
        'IREIT XD Image Reit',
        'RMPL XD Rafhan Maize',
        'SCBPL XD St.Chart.Bank',
        'SLM XD Service Long March',
        'UPFL XD Unilever Foods',
      ],
    );
    // A futures contract on a marked share carries the share's marker too.
    assert.equal(row('AICL-OCTB').marker, 'XD');
    assert.equal(row('AICL-OCTB').name, 'Adamjee Ins.');
  });

  it('reads futures: deliverable, cash-settled, the B series and an odd series mark', () => {
    const b = row('AGP-SEPB');
    assert.deepEqual(
      [b.kind, b.underlying, b.contractMonth, b.cashSettled, b.series, b.close, b.volume],
      ['futures', 'AGP', '2026-09', false, 'B', 151.21, 2000],
    );
    const cash = row('ACPL-CSEP');
    assert.deepEqual(
      [cash.underlying, cash.contractMonth, cash.cashSettled, cash.series],
      ['ACPL', '2026-09', true, null],
    );
    const odd = row('LOTCHEM-CSEPN1');
    assert.deepEqual(
      [odd.underlying, odd.contractMonth, odd.cashSettled, odd.series],
      ['LOTCHEM', '2026-09', true, 'N1'],
    );
    assert.equal(row('ENGROH-NOV').contractMonth, '2026-11');
  });

  it('keeps an untraded contract without prices: 0.0 is "no trade", not a price of zero', () => {
    const r = row('ACPL-CSEP'); // 0.0|0|0|231.02|0|231.06
    assert.deepEqual(
      [r.open, r.high, r.low, r.close, r.volume, r.ldcp],
      [null, null, null, 231.02, 0, 231.06],
    );
  });

  it('reads index futures (sector 41) and debt (sector 36)', () => {
    const idx = row('KSE30-NOV');
    assert.deepEqual(
      [idx.kind, idx.sectorCode, idx.underlying, idx.contractMonth, idx.close, idx.ldcp],
      ['index_futures', '0041', 'KSE30', '2026-11', 51669, 51297],
    );
    const gis = row('P01GIS141026');
    assert.deepEqual(
      [gis.kind, gis.name, gis.close, gis.volume],
      ['debt', '1 YEAR GIS', 99.13, 2_500_000_000],
    );
  });

  it("keeps a close outside the day's high and low as printed", () => {
    const bhat = row('BHAT'); // 791.01|818.98|791.01|819.53|28|819.53
    assert.deepEqual([bhat.high, bhat.low, bhat.close, bhat.ldcp], [818.98, 791.01, 819.53, 819.53]);
    const outside = file.rows.filter(
      (r) => r.kind === 'equity' && r.close !== null && (r.close > r.high! || r.close < r.low!),
    );
    assert.equal(outside.length, 16);
  });

  it('reads the same rows out of a ZIP and a gzip of the file', () => {
    assert.deepEqual(parseDailyFileBody(zipOne('closing11.lis', bytes)), file);
    assert.deepEqual(parseDailyFileBody(gzipSync(bytes)), file);
  });
});
