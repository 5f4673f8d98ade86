// A person clicking through twelve symbols on a fresh demo: the service at its DEFAULT limits with
// the archiver's backfill running, the fake portal answering in 150 ms, as `npm run demo` runs.
// One symbol every 2–3 s, each scrolled down to its performance and indicators. Every page shows
// its price, chart and 52-week range within 5 s; none of the page's requests is refused (429);
// and a part that waits for the exchange says in how long, and comes then. Screenshots of the
// last page at 1400 px: test-results/walk-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import type { RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  DESKTOP,
  offlineContext,
  RESULTS_DIR,
  startBrowserRig,
  stopBrowserRig,
  WAIT,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

/** The service's defaults (docs/configuration.md) and the demo's archive, spelled out. */
const DEMO = {
  RATE_LIMIT_PER_MINUTE: '60',
  EXCHANGE_FETCH_LIMIT_PER_IP: '20',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '60',
  ARCHIVE: 'on',
  LOG_LEVEL: 'info',
};
/** What the brief promises a reader: price, chart and 52-week range within this of the click. */
const SHOWN_WITHIN_MS = 5_000;

interface AccessLine {
  url: string;
  status: number;
}

function access(lines: string[]): AccessLine[] {
  return lines.flatMap((line) => {
    const entry = JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } };
    const url = entry.req?.url;
    return url ? [{ url, status: entry.res?.statusCode ?? 0 }] : [];
  });
}

/** Price, a drawn chart and a 52-week range of two numbers, all on the page. */
async function topShown(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      /\d/.test(document.querySelector('.quote-card .price')?.textContent ?? '') &&
      document.querySelector('.chart-panel .chart canvas') !== null &&
      /\d – \d/.test(document.querySelector('[data-fact="52-week range"] dd')?.textContent ?? ''),
    undefined,
    WAIT,
  );
}

describe('a reader clicking through twelve symbols on a fresh demo', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  const log: string[] = [];

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig({ delayMs: 150 }, DEMO, { logLines: log }));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('sees each page’s price, chart and 52-week range within 5 s, and is never refused', async (t) => {
    const { context, external } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${service.url}/`);
    await page.locator('.hero-level[data-index="KSE100"]').waitFor(WAIT);

    const symbols = portal.dataset.marketWatch.map((r) => r.symbol).slice(0, 12);
    const took: Record<string, number> = {};
    for (const [i, symbol] of symbols.entries()) {
      const clicked = Date.now();
      await page.evaluate((s) => (location.hash = `#/symbol/${s}`), symbol);
      await page.locator('h1', { hasText: new RegExp(`^${symbol}$`) }).waitFor(WAIT);
      await topShown(page).catch(async (err: unknown) => {
        await page.screenshot({ path: join(RESULTS_DIR, `walk-failed-${symbol}-1400.png`), fullPage: true });
        throw new Error(`${symbol}: price, chart or 52-week range missing`, { cause: err });
      });
      took[symbol] = Date.now() - clicked;
      // Nothing at the top waits: the chart and the quote came with the first answer.
      assert.equal(await page.locator('.quote-panel .pending, .chart-panel .pending').count(), 0, symbol);
      // Down to performance and indicators, which load once in view.
      await page.locator('#indicators-heading').scrollIntoViewIfNeeded();
      await page.locator('#performance-heading').scrollIntoViewIfNeeded();
      // One symbol every 2–3 s, the time counted from the click.
      const dwell = 2_000 + (i % 3) * 500;
      await page.waitForTimeout(Math.max(0, dwell - (Date.now() - clicked)));
    }
    t.diagnostic(`price, chart and 52-week range shown after (ms): ${JSON.stringify(took)}`);
    const slow = Object.entries(took).filter(([, ms]) => ms > SHOWN_WITHIN_MS);
    assert.deepEqual(slow, [], `shown after (ms): ${JSON.stringify(took)}`);

    // The last page: whatever waits for the exchange says in how long, and comes by then.
    const last = symbols[symbols.length - 1]!;
    const pending = page.locator('main .pending[data-retry-in]');
    if ((await pending.count()) > 0) {
      const note = (await pending.first().textContent()) ?? '';
      assert.match(note, /in \d+ seconds?|in 1 minute/, note);
      assert.doesNotMatch(note, /\d\d:\d\d:\d\d|portal cannot be reached/, note);
      const seconds = Number(await pending.first().getAttribute('data-retry-in'));
      assert.ok(seconds > 0 && seconds <= 60, `${seconds} s`);
      await page.waitForFunction(() => document.querySelectorAll('main .pending').length === 0, undefined, {
        timeout: (seconds + 20) * 1000,
      });
    }
    // Performance and indicators of the last page are there, or say when they come and then do.
    for (const id of ['#indicators-heading', '#performance-heading']) {
      const box = page.locator(`section:has(${id}) .panel`);
      const waiting = box.locator('.retry-wait');
      if ((await waiting.count()) > 0)
        assert.match((await waiting.textContent()) ?? '', /in \d+ seconds?|minute/);
      await box.locator('canvas, table').first().waitFor({ timeout: 80_000 });
    }
    await page.screenshot({ path: join(RESULTS_DIR, `walk-${last}-1400.png`), fullPage: true });

    // No request of the page's was refused, performance and indicators included.
    const api = access(log).filter((l) => !/^\/(assets|favicon|$)/.test(l.url));
    const refused = api.filter((l) => l.status === 429);
    assert.deepEqual(refused, [], 'no request was refused');
    for (const symbol of symbols) {
      for (const part of ['performance', 'indicators']) {
        const asked = api.filter((l) => l.url.startsWith(`/stocks/${encodeURIComponent(symbol)}/${part}`));
        assert.ok(asked.length >= 1, `${symbol} ${part} asked once in view`);
        // Served, or (a section below the fold, asked at low urgency) told when the service's
        // exchange budget has room again: never refused for this client's limits.
        assert.ok(
          asked.every((l) => l.status === 200 || l.status === 503),
          `${symbol} ${part}: ${asked.map((l) => l.status).join(' ')}`,
        );
      }
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
    await context.close();
  });
});
