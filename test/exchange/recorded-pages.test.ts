// Conformance against real portal pages recorded by public projects (../shared/dps-recorded, next
// to the repository). The pages are not part of the project; without the folder this test skips.
import { INDEX_CODES } from '../../src/market/listings/indices.ts';
import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseMarketWatch,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseSymbols,
} from '../../src/exchange/parsers/index.ts';

// The repository root is two levels up from test/exchange; the recordings sit beside it.
const RECORDED = fileURLToPath(new URL('../../../shared/dps-recorded/', import.meta.url));

/** The recorded file's text, or null after marking the test skipped. */
function recorded(t: TestContext, file: string): string | null {
  const path = RECORDED + file;
  if (!existsSync(path)) {
    t.skip(`recorded portal pages not found (${path}); conformance not checked`);
    return null;
  }
  return readFileSync(path, 'utf8');
}

describe('recorded portal pages', () => {
  it('POST /historical ENGRO: 2,162 rows, newest first', (t) => {
    const html = recorded(t, '2026-04/historical_engro.html');
    if (html === null) return;
    const rows = parseHistory(html);
    assert.equal(rows.length, 2162);
    assert.deepEqual(rows[0], {
      date: '2025-01-03',
      open: 481.99,
      high: 496,
      low: 474.01,
      close: 485.38,
      volume: 4496408,
    });
    assert.equal(rows.at(-1)?.date, '2016-04-11');
    for (let i = 1; i < rows.length; i++) {
      assert.ok((rows[i]?.date ?? '') < (rows[i - 1]?.date ?? ''), `dates not strictly descending at ${i}`);
    }
    assert.ok(rows.every((r) => r.open !== null && r.close !== null && Number.isInteger(r.volume)));
  });

  it('GET /screener: 729 rows, raw market cap from data-order', (t) => {
    const html = recorded(t, '2026-04/screener.html');
    if (html === null) return;
    const rows = parseScreener(html);
    assert.equal(rows.length, 729);
    assert.equal(new Set(rows.map((r) => r.symbol)).size, 729);
    const first = rows.find((r) => r.symbol === '786');
    assert.deepEqual(first, {
      symbol: '786',
      name: '786 Investments Limited',
      sectorCode: '0813',
      listedIn: ['ALLSHR'],
      marketCap: 892213549.69,
      price: 44.69,
      changePct: -9.99,
      change1yPct: 406.689342404,
      peRatio: 17.8047808765,
      dividendYield: 0,
      freeFloat: 5240813,
      volumeAvg30d: 585040.77,
    });
    assert.ok(rows.every((r) => r.price !== null));
    // The portal leaves LISTED IN (and for some, SECTOR and data-title) blank on many rows.
    assert.ok(rows.some((r) => r.listedIn.length === 0));
  });

  it('GET /indices/KSE100 (2026-04): 100 rows with FREEFLOAT (M)', (t) => {
    const html = recorded(t, '2026-04/indices_KSE100.html');
    if (html === null) return;
    const result = parseIndexConstituents(html);
    assert.equal(result.title, 'KSE 100 INDEX Constituents');
    assert.equal(result.sizeColumn, 'freefloat');
    assert.equal(result.rows.length, 100);
    assert.deepEqual(
      result.rows.find((r) => r.symbol === 'ABL'),
      {
        symbol: 'ABL',
        name: 'Allied Bank Limited',
        ldcp: 173.84,
        current: 186.39,
        change: 12.55,
        changePct: 7.219,
        idxWeight: 0.44,
        idxPoint: 49.3873,
        volume: 226586,
        freeFloat: 114507383,
        marketCap: 21343031117.37,
      },
    );
    const weights = result.rows.reduce((sum, r) => sum + (r.idxWeight ?? 0), 0);
    assert.ok(Math.abs(weights - 100) < 0.5, `weights sum to ${weights}`);
  });

  it('GET /indices/ALLSHR: 549 rows with SHARES (M)', (t) => {
    const html = recorded(t, '2026-04/indices_ALLSHR.html');
    if (html === null) return;
    const result = parseIndexConstituents(html);
    assert.equal(result.sizeColumn, 'shares');
    assert.equal(result.rows.length, 549);
    const row = result.rows.find((r) => r.symbol === '786');
    assert.equal(row?.shares, 19964501);
    assert.equal(row?.marketCap, 892213549.69);
    assert.ok(result.rows.every((r) => r.freeFloat === undefined && typeof r.shares === 'number'));
  });

  it('GET /indices/KSE100 (2026-09): symbols with status tags', (t) => {
    const html = recorded(t, '2026-09/index-kse100.html');
    if (html === null) return;
    const rows = parseIndexConstituents(html).rows;
    assert.equal(rows.length, 59); // the recording keeps the first rows only
    assert.equal(rows.find((r) => r.symbol === 'FCCL')?.freeFloat, 858496527);
    assert.ok(rows.every((r) => /^[A-Z0-9-]+$/.test(r.symbol)));
  });

  it('GET /indices: 18 levels, HBLTTI stale with null high/low', (t) => {
    const html = recorded(t, '2026-09/indices.html');
    if (html === null) return;
    const result = parseIndexLevels(html);
    assert.equal(result.asOf, '2026-09-30T15:50:00+05:00');
    // The service only ever asks the portal for these codes: the real page must list exactly them.
    assert.deepEqual(
      result.rows.map((r) => r.index),
      [...INDEX_CODES],
    );
    assert.deepEqual(result.rows[0], {
      index: 'KSE100',
      high: 171492.52,
      low: 169872.13,
      current: 169969.32,
      change: 368.92,
      changePct: 0.21752307188,
      staleSince: null,
    });
    const stale = result.rows.find((r) => r.index === 'HBLTTI');
    assert.equal(stale?.high, null);
    assert.equal(stale?.low, null);
    assert.equal(stale?.current, 19129.73);
    assert.equal(stale?.staleSince, '2026-09-29T18:30:00+05:00');
    assert.equal(result.rows.filter((r) => r.staleSince !== null).length, 1);
  });

  it('GET /sector-summary/sectorwise (2026-04): 37 sectors and their members', (t) => {
    const html = recorded(t, '2026-04/sector_summary.html');
    if (html === null) return;
    const result = parseSectorSummary(html);
    assert.equal(result.sectors.length, 37);
    assert.equal(result.sectors[0]?.sectorCode, '0801');
    assert.equal(result.sectors.at(-1)?.sectorCode, '0838');
    assert.deepEqual(result.sectors[1], {
      sectorCode: '0802',
      sectorName: 'AUTOMOBILE PARTS & ACCESSORIES',
      advance: 11,
      decline: 0,
      unchanged: 0,
      turnover: 13605104,
      marketCapB: 99.61,
    });
    assert.equal(result.members.length, 37);
    assert.deepEqual(
      result.members.map((m) => m.sectorCode),
      result.sectors.map((s) => s.sectorCode),
    );
    assert.equal(result.members[0]?.sectorName, 'AUTOMOBILE ASSEMBLER');
    assert.equal(result.members[0]?.symbols[0], 'AGTL');
    assert.equal(
      result.members.reduce((n, m) => n + m.symbols.length, 0),
      552,
    );
  });

  it('GET /sector-summary/sectorwise (2026-09): 38 sectors, trimmed member tables', (t) => {
    const html = recorded(t, '2026-09/sector-summary.html');
    if (html === null) return;
    const result = parseSectorSummary(html);
    assert.equal(result.sectors.length, 38);
    assert.equal(result.members.length, 38);
    assert.equal(result.members.at(-1)?.sectorName, 'APPAREL');
    assert.deepEqual(result.members.at(-1)?.symbols, []);
  });

  it('GET /market-watch (2026-09): rows with rounded CHANGE (%)', (t) => {
    const html = recorded(t, '2026-09/market-watch.html');
    if (html === null) return;
    const rows = parseMarketWatch(html);
    assert.equal(rows.length, 59); // the recording keeps the first rows only
    assert.equal(rows.find((r) => r.symbol === 'TISL')?.changePct, -1.724);
    assert.equal(rows.find((r) => r.symbol === 'FCCL')?.volume, 3307781);
    assert.ok(rows.some((r) => r.symbol === 'HASCOL'));
    assert.ok(rows.every((r) => r.changePct === null || Math.round(r.changePct * 1e4) / 1e4 === r.changePct));
  });

  it('GET /financial-reports-list: header only → []', (t) => {
    const html = recorded(t, '2026-04/financial_reports.html');
    if (html === null) return;
    assert.deepEqual(parseReports(html, 'ENGRO'), []);
  });

  it('GET /symbols: 1,029 instruments, isGEM absent on debt', (t) => {
    const json = recorded(t, '2026-04/symbols.json');
    if (json === null) return;
    const symbols = parseSymbols(json);
    assert.equal(symbols.length, 1029);
    assert.equal(symbols.filter((s) => s.isGEM).length, 8);
    assert.equal(symbols.filter((s) => s.isDebt).length, 282);
    assert.ok(symbols.filter((s) => s.isDebt).every((s) => !s.isGEM));
    const trimmed = recorded(t, '2026-09/symbols.json');
    if (trimmed !== null) assert.equal(parseSymbols(trimmed).length, 40);
  });
});
