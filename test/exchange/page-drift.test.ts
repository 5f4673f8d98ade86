// What a parse reports of the fields its parser expects (src/exchange/parsers/columns.ts): every
// column not found, alternatives and variant columns, and no drift on the real portal's pages.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { collectFields } from '../../src/exchange/parsers/columns.ts';
import {
  parseCompany,
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseMarketWatch,
  parseReports,
  parseScreener,
  parseSectorSummary,
  parseTradingBoard,
} from '../../src/exchange/parsers/index.ts';

const WATCH_HEAD =
  '<th data-name="symbol">SYMBOL</th><th data-name="sector">SECTOR</th><th data-name="listed">LISTED IN</th>' +
  '<th data-name="ldcp">LDCP</th><th data-name="open">OPEN</th><th data-name="high">HIGH</th>' +
  '<th data-name="low">LOW</th><th data-name="close">CURRENT</th><th data-name="change">CHANGE</th>' +
  '<th data-name="percentChange">CHANGE (%)</th><th data-name="volume">VOLUME</th>';
const WATCH_ROW =
  '<td data-search="HBL"><a><strong>HBL</strong></a></td><td>0807</td><td>KSE100</td><td>300</td><td>301</td>' +
  '<td>310</td><td>299</td><td>306.1</td><td>6.1</td><td>2.03</td><td>1,000</td>';

function watchPage(head: string, row: string): string {
  return `<table class="tbl"><thead class="tbl__head"><tr>${head}</tr></thead><tbody class="tbl__body"><tr>${row}</tr></tbody></table>`;
}

/** The market watch without the columns headed by these texts (data-name gone too). */
function without(...headers: string[]): string {
  const heads = WATCH_HEAD.split('</th>').filter(Boolean);
  const cells = WATCH_ROW.split('</td>').filter(Boolean);
  const keep = heads.map((h) => !headers.includes(h.replace(/<[^>]*>/g, '')));
  return watchPage(
    heads
      .filter((_, i) => keep[i])
      .map((h) => `${h}</th>`)
      .join(''),
    cells
      .filter((_, i) => keep[i])
      .map((c) => `${c}</td>`)
      .join(''),
  );
}

describe('collectFields', () => {
  it('reports every expected column, and none missing, for a complete page', () => {
    const r = collectFields(() => parseMarketWatch(watchPage(WATCH_HEAD, WATCH_ROW)));
    assert.ok(r.ok);
    assert.equal(r.fields.expected.length, 11);
    assert.deepEqual(r.fields.missing, []);
  });

  it('names every optional column not found, not only the first, and the row keeps its other values', () => {
    const r = collectFields(() => parseMarketWatch(without('LDCP', 'VOLUME')));
    assert.ok(r.ok);
    assert.deepEqual(r.fields.missing, ['ldcp', 'volume']);
    const [row] = r.value;
    assert.equal(row!.ldcp, null);
    assert.equal(row!.volume, null);
    assert.equal(row!.current, 306.1);
  });

  it('names the required column of a page that cannot be read', () => {
    const r = collectFields(() => parseMarketWatch(without('CURRENT')));
    assert.equal(r.ok, false);
    assert.match(String((r as { error: unknown }).error), /missing column "current"/);
    assert.ok(r.fields.missing.includes('current'));
  });

  it('reports nothing outside a collection, and a nested collection does not leak into the outer one', () => {
    assert.doesNotThrow(() => parseMarketWatch(without('LDCP')));
    const outer = collectFields(() => {
      const inner = collectFields(() => parseMarketWatch(without('LDCP')));
      assert.deepEqual(inner.fields.missing, ['ldcp']);
      return parseMarketWatch(watchPage(WATCH_HEAD, WATCH_ROW));
    });
    assert.deepEqual(outer.fields.missing, []);
  });

  it('takes either of two alternative columns, and names both when neither is there', () => {
    const head = (size: string) =>
      '<th>SYMBOL</th><th>NAME</th><th>LDCP</th><th>CURRENT</th><th>CHANGE</th><th>CHANGE (%)</th>' +
      `<th>IDX WTG (%)</th><th>IDX POINT </th><th>VOLUME</th>${size}<th>MARKET CAP (M)</th>`;
    const row = (size: boolean) =>
      '<td><strong>HBL</strong></td><td>Habib Bank</td><td>1</td><td>2</td><td>1</td><td>1</td><td>1%</td>' +
      `<td>1</td><td>5</td>${size ? '<td data-order="1000000">1</td>' : ''}<td>9</td>`;
    const page = (size: string) =>
      `<h2>KSE 100</h2><table class="tbl"><thead><tr>${head(size)}</tr></thead><tbody><tr>${row(size !== '')}</tr></tbody></table>`;
    for (const size of ['<th>FREEFLOAT (M)</th>', '<th>SHARES (M)</th>']) {
      const r = collectFields(() => parseIndexConstituents(page(size)));
      assert.ok(r.ok);
      assert.deepEqual(r.fields.missing, [], size);
    }
    const neither = collectFields(() => parseIndexConstituents(page('')));
    assert.deepEqual(neither.fields.missing, ['freefloat (m) or shares (m)']);
  });
});

// The real portal's pages (../shared/dps-recorded, beside the repository; skipped without it): a
// page as the portal serves it must never raise the alarm.
const RECORDED = fileURLToPath(new URL('../../../shared/dps-recorded/', import.meta.url));

describe('recorded portal pages raise no drift', () => {
  const cases: [string, (text: string) => unknown][] = [
    ['2026-04/financial_reports.html', (t) => parseReports(t, 'ENGRO')],
    ['2026-04/historical_engro.html', parseHistory],
    ['2026-04/indices_ALLSHR.html', parseIndexConstituents],
    ['2026-04/indices_KSE100.html', parseIndexConstituents],
    ['2026-04/screener.html', parseScreener],
    ['2026-04/sector_summary.html', parseSectorSummary],
    ['2026-04/trading_board_REG_main.html', parseTradingBoard],
    ['2026-04/trading_board_reg_gem.html', parseTradingBoard],
    ['2026-09/company-hbl.html', parseCompany],
    ['2026-09/index-kse100.html', parseIndexConstituents],
    ['2026-09/indices.html', parseIndexLevels],
    ['2026-09/market-watch.html', parseMarketWatch],
    ['2026-09/sector-summary.html', parseSectorSummary],
  ];
  for (const [file, parse] of cases) {
    it(file, (t) => {
      if (!existsSync(RECORDED + file)) return t.skip(`recorded page not found (${RECORDED + file})`);
      const r = collectFields(() => parse(readFileSync(RECORDED + file, 'utf8')));
      assert.ok(r.ok, String((r as { error?: unknown }).error));
      assert.ok(r.fields.expected.length > 0);
      assert.deepEqual(r.fields.missing, []);
    });
  }
});
