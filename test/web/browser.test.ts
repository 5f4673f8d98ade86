// End to end: Debian's Chromium (playwright-core) against the real service and the fake portal.
// Screenshots of the main views go to test-results/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { HISTORY_ANOMALIES } from '../../dev/fake-portal/dataset.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  ensureWebBuild,
  launchChromium,
  LOW_CONTRAST_SCRIPT,
  offlineContext,
  RESULTS_DIR,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const price = (n: number): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('dashboard in Chromium', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  let context: BrowserContext;
  let external: string[];
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    await ensureWebBuild();
    portal = await startFakePortal();
    service = await startService(portal.url);
    browser = await launchChromium();
    ({ context, external } = await offlineContext(browser, DESKTOP));
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await portal?.close();
  });

  it('shows the fake portal’s index levels as tiles coloured by direction', async () => {
    await page.goto(`${service.url}/`);
    const kse100 = portal.dataset.indexLevels.rows.find((r) => r.index === 'KSE100');
    assert.ok(kse100?.current != null && kse100.change != null && kse100.changePct != null);
    const tile = page.locator('.tile[data-index="KSE100"]');
    await tile.waitFor();
    assert.equal(await tile.locator('.tile-level').textContent(), price(kse100.current));
    const change = (await tile.locator('.tile-change').textContent()) ?? '';
    assert.ok(change.includes(price(kse100.change)), change);
    assert.ok(change.includes(`${price(kse100.changePct)}%`), change);
    assert.match((await tile.getAttribute('class')) ?? '', kse100.change < 0 ? /\bdown\b/ : /\bup\b/);
    assert.equal(await page.locator('.tile').count(), portal.dataset.indexLevels.rows.length);
  });

  it('shows the sector table with advance/decline bars', async () => {
    const rows = page.locator('table.sectors tbody tr');
    await rows.first().waitFor();
    const sectors = (await http(service.url, '/sectors')).json.data as { sector_name: string }[];
    assert.equal(await rows.count(), sectors.length);
    const bar = rows.first().locator('.breadth-bar');
    assert.match(
      (await bar.getAttribute('aria-label')) ?? '',
      /^\d+ advancing, \d+ unchanged, \d+ declining$/,
    );
    await page.screenshot({ path: join(RESULTS_DIR, 'market.png'), fullPage: true });
  });

  it('filters and sorts the screener', async () => {
    const table = page.locator('#screener-panel table');
    await table.locator('tbody tr').first().waitFor();
    await page.getByLabel('Filter').fill('KSE30');
    assert.equal(await table.locator('tbody tr').count(), 30);
    await table.getByRole('button', { name: 'Price' }).click();
    assert.equal(await table.locator('th[aria-sort]').textContent(), 'Price ↓');
    const prices = await table.locator('tbody tr td:nth-child(3)').allTextContents();
    const values = prices.map((p) => Number(p.replace(/,/g, '')));
    assert.deepEqual(
      values,
      [...values].sort((a, b) => b - a),
    );
  });

  it('opens a symbol’s page from the search, with its quote', async () => {
    await page.getByLabel('Find a symbol').fill('engro');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/symbol\/ENGRO$/);
    // The URL changes a moment before the hashchange handler draws the page.
    await page.locator('h1', { hasText: /^ENGRO$/ }).waitFor();
    const quote = (await http(service.url, '/stocks/ENGRO/quote')).json.data as {
      price: number;
      name: string;
    };
    await page.locator('.quote-card .price').waitFor();
    assert.equal(await page.locator('.quote-card .price').textContent(), price(quote.price));
    assert.equal(await page.locator('.subtitle').textContent(), quote.name);
    // Focus moved to the new page's heading for keyboard and screen-reader users.
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  });

  it('draws the candlestick chart and switches ranges', async () => {
    await page.locator('.chart-canvas canvas').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.chart-canvas canvas').length > 0);
    // Candles in the up and down colours are on the canvas (not merely an empty chart).
    assert.ok(await canvasHasColour(page, [19, 128, 63]), 'no up-coloured candle drawn');
    assert.ok(await canvasHasColour(page, [192, 53, 43]), 'no down-coloured candle drawn');
    for (const range of ['1M', '6M', '5Y', 'ALL', '1Y']) {
      const button = page.locator(`.ranges button[data-range="${range}"]`);
      await button.click();
      assert.equal(await button.getAttribute('aria-pressed'), 'true');
    }
    await page.screenshot({ path: join(RESULTS_DIR, 'symbol.png'), fullPage: true });
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');
  });

  it('marks the anomalous days and gives their reasons on hover', async () => {
    const { bonusExDate, zeroVolumeMoveDate, ohlcInconsistentDate } = HISTORY_ANOMALIES;
    const list = page.locator('.flag-list');
    assert.match(
      (await list.locator(`li[data-date="${bonusExDate}"]`).textContent()) ?? '',
      /beyond_price_limit/,
    );
    assert.match(
      (await list.locator(`li[data-date="${zeroVolumeMoveDate}"]`).textContent()) ?? '',
      /zero_volume_move/,
    );
    assert.match(
      (await list.locator(`li[data-date="${ohlcInconsistentDate}"]`).textContent()) ?? '',
      /ohlc_inconsistent/,
    );

    await page.getByRole('button', { name: `Show ${bonusExDate} on the chart` }).click();
    const tooltip = page.locator('.chart-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    assert.match(
      (await tooltip.textContent()) ?? '',
      /2025-06-16: flagged.*beyond_price_limit.*circuit breaker/s,
    );
    assert.ok(await canvasHasColour(page, [154, 77, 0]), 'no anomaly marker drawn');

    // The same by mouse: away from the day hides it, over the day (now centred) shows it again.
    // The chart is a table: [left price scale (empty), pane, right price scale] over the time axis.
    const pane = await page.locator('.chart-canvas table tr').first().locator('td').nth(1).boundingBox();
    assert.ok(pane);
    await page.mouse.move(pane.x + 10, pane.y + pane.height / 2);
    await tooltip.waitFor({ state: 'hidden' });
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await tooltip.waitFor({ state: 'visible' });
    assert.match((await tooltip.textContent()) ?? '', /beyond_price_limit/);
    await page.screenshot({ path: join(RESULTS_DIR, 'symbol-anomaly.png') });
  });

  it('shows a sector’s symbols', async () => {
    await page.goto(`${service.url}/#/`);
    await page.locator('table.sectors a', { hasText: 'CEMENT' }).click();
    await page.waitForURL(/#\/sector\/0804$/);
    await page.locator('h1', { hasText: 'CEMENT' }).waitFor();
    const members = (await http(service.url, '/sectors/0804/stocks')).json.data as string[];
    await page.locator('.screener tbody tr').first().waitFor();
    assert.equal(await page.locator('.screener tbody tr').count(), members.length);
    await page.screenshot({ path: join(RESULTS_DIR, 'sector.png'), fullPage: true });
  });

  it('is usable by keyboard: skip link, then sortable headers', async () => {
    await page.goto(`${service.url}/`);
    await page.locator('#screener-panel tbody tr').first().waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    const sort = page.locator('#screener-panel').getByRole('button', { name: 'Symbol' });
    await sort.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#screener-panel th[aria-sort]').getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');
    // Every form control has a label.
    const unlabelled = await page.evaluate(
      () =>
        [...document.querySelectorAll('input')].filter((i) => i.labels === null || i.labels.length === 0)
          .length,
    );
    assert.equal(unlabelled, 0);
  });

  it('fits a phone-sized screen', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    for (const [hash, name] of [
      ['#/', 'market-phone.png'],
      ['#/symbol/ENGRO', 'symbol-phone.png'],
    ] as const) {
      await phone.goto(`${service.url}/${hash}`);
      await phone
        .locator(hash === '#/' ? '.tile' : '.chart-canvas canvas')
        .first()
        .waitFor();
      await phone.locator('#screener-panel tbody tr, .flag-list').first().waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${hash} is ${overflow}px wider than the screen`);
      await phone.screenshot({ path: join(RESULTS_DIR, name), fullPage: true });
    }
    await phone.close();
  });

  it('serves the API reference offline, with examples', async () => {
    await page.goto(`${service.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const doc = (await http(service.url, '/openapi.json')).json as { paths: Record<string, object> };
    assert.equal(await page.locator('.opblock').count(), Object.keys(doc.paths).length);
    await page.locator('#operations-stocks-getQuote button.opblock-summary-control').click();
    const body = page.locator('#operations-stocks-getQuote .opblock-body');
    await body.locator('.example, .highlight-code').first().waitFor();
    const text = (await body.textContent()) ?? '';
    assert.ok(text.includes('Engro Corporation Limited'), 'success example shown');
    assert.ok(text.includes("api.GET('/stocks/{symbol}/quote'"), 'typed-client call shown');
    await page.screenshot({ path: join(RESULTS_DIR, 'docs.png') });
  });

  it('loaded nothing from outside the service and raised no script errors', () => {
    assert.deepEqual(external, []);
    assert.deepEqual(pageErrors, []);
  });
});

describe('dashboard error state in Chromium', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    mkdirSync(RESULTS_DIR, { recursive: true });
    await ensureWebBuild();
    portal = await startFakePortal();
    // A service of its own: its cache is cold, so with the portal down it has nothing to answer.
    service = await startService(portal.url);
    portal.fail({ mode: 'down' });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    await portal?.close();
  });

  it('shows the service’s error message when the portal is down and nothing is cached', async () => {
    const { context, external } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    const alert = page.locator('#indices-panel [role="alert"]');
    await alert.waitFor();
    const expected = (await http(service.url, '/indices')).json as {
      error: { message: string; code: string };
    };
    assert.equal(expected.error.code, 'exchange_unavailable');
    assert.equal(await alert.locator('.error-message').textContent(), expected.error.message);
    assert.match(
      (await alert.locator('.error-detail').textContent()) ?? '',
      /exchange_unavailable · HTTP 503/,
    );
    await page.locator('#screener-panel [role="alert"]').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'error.png'), fullPage: true });
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');

    // Once the portal is back, Retry loads the tiles.
    portal.clear();
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.tile[data-index="KSE100"]').waitFor();
    assert.deepEqual(external, []);
    await context.close();
  });
});

/** Whether any chart canvas has a pixel of about this colour. */
function canvasHasColour(page: Page, rgb: [number, number, number]): Promise<boolean> {
  // No named helpers inside: tsx compiles them with a `__name` wrapper the page does not have.
  return page.evaluate(([r, g, b]) => {
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.chart-canvas canvas')) {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0 || canvas.height === 0) continue;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        if (
          data[i + 3] === 255 &&
          Math.abs((data[i] ?? 0) - r) <= 6 &&
          Math.abs((data[i + 1] ?? 0) - g) <= 6 &&
          Math.abs((data[i + 2] ?? 0) - b) <= 6
        ) {
          return true;
        }
      }
    }
    return false;
  }, rgb);
}
