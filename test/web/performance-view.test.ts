// The symbol page's performance table and indicator chart in Chromium: the returns the service
// computes, one row per period, the risk figures beside them, and the overlays to switch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import { http, type RunningService } from '../helpers/service.ts';
import { browserSkipReason, offlineContext, startBrowserRig, stopBrowserRig } from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

describe('symbol page performance table', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig());
  });
  after(() => stopBrowserRig({ portal, service, browser }));

  it('shows each period’s return and the benchmark’s, as the service computes them', async () => {
    const perf = (await http(service.url, '/stocks/ENGRO/performance')).json.data;
    const { context } = await offlineContext(browser, { width: 1400, height: 900 });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${service.url}/#/symbol/ENGRO`);
    // The section asks for its data only once scrolled into view (one overview per symbol).
    const performance = page.locator('section[aria-labelledby="performance-heading"]');
    await performance.waitFor();
    await performance.scrollIntoViewIfNeeded();
    const table = performance.locator('table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    assert.equal(rows.length, perf.returns.length);
    const ytd = perf.returns.find((r: { period: string }) => r.period === 'YTD');
    const row = rows.find((r) => r.startsWith('YTD')) ?? '';
    assert.ok(row.includes(Math.abs(ytd.return_pct).toFixed(2)), `${row} shows ${ytd.return_pct}`);
    assert.ok(row.includes(Math.abs(ytd.benchmark_return_pct).toFixed(2)), row);
    const risk = (await page.locator('.performance .risk').textContent()) ?? '';
    assert.match(risk, /Volatility/);
    assert.match(risk, /52-week range/);
    // The indicator chart: overlays to switch, RSI and MACD in panes of their own.
    const section = page.locator('section[aria-labelledby="indicators-heading"]');
    await section.locator('.indicator-canvas canvas').first().waitFor();
    assert.equal(await section.locator('input[data-overlay]').count(), 3);
    await section.locator('input[data-overlay="bbands"]').uncheck();
    assert.equal(await section.locator('input[data-overlay="bbands"]').isChecked(), false);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
