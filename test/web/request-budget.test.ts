// The dashboard lives within the service's own request limit (60 requests a minute per address):
// Debian's Chromium against the service at its DEFAULT limits (request limit, exchange-fetch
// budget, streams per address) and the fake portal, as `npm run demo` runs. A scripted reader
// clicks through 20 symbols and 4 views in under a minute without one refusal; each view's
// requests are counted from the service's access log; a refused refresh keeps what is shown and
// says when it tries again; a cold symbol shows its band and 52-week range at once; search finds
// companies by name; a phone reaches every member of a sector. Screenshots: test-results/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  DESKTOP,
  offlineContext,
  PHONE,
  RESULTS_DIR,
  sidewaysScroll,
  startBrowserRig,
  stopBrowserRig,
  WAIT,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

/** The service's defaults (docs/configuration.md), spelled out: startService turns them off. */
const DEFAULT_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '60',
  EXCHANGE_FETCH_LIMIT_PER_IP: '20',
  EXCHANGE_FETCH_LIMIT_GLOBAL: '60',
  LOG_LEVEL: 'info',
};
const API = /^\/(stocks|indices|sectors|screener|market|quotes|stream|health)\b/;
/** The backfill panel's question (counted by the limit; asked once a page load with the archive off). */
const STATUS = /^\/archive\/status\b/;
/** Generous: the machine is shared; conditions are waited for, never fixed sleeps. */

interface AccessLine {
  url: string;
  status: number;
}

/** The service's access log as it grows, and the API requests in it. */
class AccessLog {
  readonly lines: string[] = [];
  api(from = 0, paths = API): AccessLine[] {
    return this.lines.slice(from).flatMap((line) => {
      const entry = JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } };
      const url = entry.req?.url;
      return url && paths.test(url) ? [{ url, status: entry.res?.statusCode ?? 0 }] : [];
    });
  }
}

/** Requests the page has in flight (the stream aside, which never ends), to wait for quiet. */
function inFlight(page: Page): () => number {
  const open = new Set<unknown>();
  page.on('request', (r) => {
    if (!r.url().includes('/stream/')) open.add(r);
  });
  const done = (r: unknown): void => void open.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => open.size;
}

async function quiet(page: Page, pending: () => number): Promise<void> {
  // Two checks a beat apart with nothing in flight: the view has asked for all it asks for.
  const deadline = Date.now() + WAIT.timeout;
  let calm = 0;
  while (calm < 2) {
    assert.ok(Date.now() < deadline, 'the page kept requesting');
    await page.waitForFunction(() => true, undefined, { polling: 'raf' });
    await page.waitForTimeout(150);
    calm = pending() === 0 ? calm + 1 : 0;
  }
}

/** Nothing on screen refuses, errs or waits. */
async function noRefusal(page: Page): Promise<void> {
  const text = (await page.locator('main').textContent()) ?? '';
  assert.doesNotMatch(text, /asked .* to wait|too much|Could not load|could not be refreshed/);
  assert.equal(await page.locator('main .error, main .refresh-note').count(), 0);
}

async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(RESULTS_DIR, `${name}-${width}.png`), fullPage: true });
}

describe('dashboard within the request limit', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  const log = new AccessLog();

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig({ delayMs: 20 }, DEFAULT_LIMITS, {
      logLines: log.lines,
    }));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('a reader clicks through 20 symbols and 4 views in under a minute and is never refused', async () => {
    const { context, external } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const pending = inFlight(page);
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/stream/quotes')) streams.push(r.url());
    });
    const started = Date.now();

    // The market view: its overview, the screener and today's numbers for it.
    let mark = log.lines.length;
    await page.goto(`${service.url}/`);
    await page.locator('.hero-level[data-index="KSE100"]').waitFor(WAIT);
    await page.locator('#screener-panel tbody tr').first().waitFor(WAIT);
    await page.locator('#movers-gainers tbody tr').first().waitFor(WAIT);
    await quiet(page, pending);
    // The backfill panel under the sectors asks once scrolled to: not part of the first load.
    const market = [...log.api(mark), ...log.api(mark, STATUS)].filter((l) => !l.url.startsWith('/stream/'));
    assert.ok(market.length <= 3, `market view: ${market.map((l) => l.url).join(' ')}`);
    await noRefusal(page);

    // A sector: its members and their quotes (its summary is in the overview the page holds).
    mark = log.lines.length;
    await page.locator('#sectors-panel a').first().click();
    await page.locator('.sector-members tbody tr').first().waitFor(WAIT);
    await quiet(page, pending);
    const sector = log.api(mark).filter((l) => !l.url.startsWith('/stream/'));
    assert.ok(sector.length <= 3, `sector view: ${sector.map((l) => l.url).join(' ')}`);
    await noRefusal(page);

    // Twenty symbols, one after another, as fast as a reader glances at each.
    const symbols = portal.dataset.marketWatch.map((r) => r.symbol).slice(0, 20);
    assert.equal(symbols.length, 20);
    for (const symbol of symbols) {
      mark = log.lines.length;
      const streamsBefore = streams.length;
      await page.evaluate((s) => (location.hash = `#/symbol/${s}`), symbol);
      await page.locator('h1', { hasText: new RegExp(`^${symbol}$`) }).waitFor(WAIT);
      await page.locator('.quote-card .price').waitFor(WAIT);
      await quiet(page, pending);
      const asked = log.api(mark).filter((l) => !l.url.startsWith('/stream/'));
      assert.ok(asked.length <= 1, `${symbol}: ${asked.map((l) => l.url).join(' ')}`);
      assert.ok(streams.length - streamsBefore <= 1, `${symbol}: at most one stream re-opened`);
      await noRefusal(page);
    }

    // A malformed symbol: said once, in words, and nothing asked of the service.
    mark = log.lines.length;
    await page.evaluate(() => (location.hash = '#/symbol/BAD$$'));
    await page.locator('#invalid-symbol').waitFor(WAIT);
    assert.equal(await page.locator('#invalid-symbol').count(), 1);
    assert.match((await page.locator('main').textContent()) ?? '', /is not a valid symbol/);
    assert.equal(await page.locator('main .error').count(), 0);
    await quiet(page, pending);
    assert.deepEqual(
      log.api(mark).filter((l) => !l.url.startsWith('/stream/')),
      [],
    );

    // And back to the market, which the page still holds: at most one request.
    mark = log.lines.length;
    await page.evaluate(() => (location.hash = '#/'));
    await page.locator('.hero-level').waitFor(WAIT);
    await quiet(page, pending);
    await noRefusal(page);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 60_000, `took ${elapsed} ms`);

    // The archive is off here: the market view asked about the backfill once, and not on its return.
    const status = log.api(0, STATUS);
    assert.equal(status.length, 1, status.map((l) => l.url).join(' '));
    const all = [...log.api(), ...status];
    assert.deepEqual(
      all.filter((l) => l.status === 429),
      [],
      'no request was refused',
    );
    const counted = all.length + streams.length - all.filter((l) => l.url.startsWith('/stream/')).length;
    assert.ok(counted <= 60, `${counted} requests in ${elapsed} ms`);
    // One stream at a time: the page re-targets its stream, it never holds one per view.
    const open = await http(service.url, '/metrics');
    const streamsOpen = Number(/^psxmd_streams_open (\d+)/m.exec(open.text)?.[1] ?? '0');
    assert.ok(streamsOpen <= 2, `${streamsOpen} streams open`);
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
    await context.close();
  });

  it('shows a cold symbol’s circuit breaker and 52-week range within 3 s', async () => {
    // A service of its own: nothing held, and this address's exchange-fetch budget untouched.
    const cold = await startService(portal.url, DEFAULT_LIMITS);
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${cold.url}/#/symbol/BAD$$`);
    await page.locator('#invalid-symbol').waitFor(WAIT);
    const symbol = 'LUCK';
    const started = Date.now();
    await page.evaluate((s) => (location.hash = `#/symbol/${s}`), symbol);
    await page.waitForFunction(
      () =>
        /\d – \d/.test(document.querySelector('[data-fact="Circuit breaker (PKR)"] dd')?.textContent ?? '') &&
        /\d – \d/.test(document.querySelector('[data-fact="52-week range"] dd')?.textContent ?? ''),
      undefined,
      WAIT,
    );
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 3_000, `band and 52-week range after ${elapsed} ms`);
    // They are the company page's own figures (the quote's extras), not an estimate.
    const q = (await http(cold.url, `/stocks/${symbol}/quote`)).json.data;
    const fmt = (n: number): string => n.toLocaleString('en-US', { minimumFractionDigits: 2 });
    assert.equal(
      await page.locator('[data-fact="Circuit breaker (PKR)"] dd').textContent(),
      `${fmt(q.circuit_breaker_low)} – ${fmt(q.circuit_breaker_high)}`,
    );
    assert.equal(
      await page.locator('[data-fact="52-week range"] dd').textContent(),
      `${fmt(q.week52_low)} – ${fmt(q.week52_high)}`,
    );
    await context.close();
    await cold.close();
  });

  it('finds a company by name while typing, chosen by keyboard', async () => {
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${service.url}/#/`);
    const input = page.getByRole('combobox', { name: /company/i });
    await input.pressSequentially('habib', { delay: 30 });
    const options = page.locator('#symbol-options').getByRole('option');
    await options.first().waitFor(WAIT);
    const names = await options.allTextContents();
    assert.ok(names.length >= 2, names.join(' | '));
    assert.ok(
      names.every((n) => /habib/i.test(n)),
      names.join(' | '),
    );
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = await options.nth(1).getAttribute('data-symbol');
    assert.equal(await input.getAttribute('aria-activedescendant'), 'symbol-option-1');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/symbol/${second}$`), WAIT);
    await page.locator('h1', { hasText: new RegExp(`^${second}$`) }).waitFor(WAIT);
    assert.equal(await input.getAttribute('aria-expanded'), 'false');

    // A name and Enter, without choosing: its best match, not "HABIB not found".
    await input.fill('habib bank');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/symbol\/HBL$/, WAIT);
    await context.close();
  });

  it('fits a phone: the indices say how many more, every member of a sector is reachable', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context } = await offlineContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(`${service.url}/`);
      await page.locator('.hero-level').waitFor(WAIT);
      await page.locator('#screener-panel tbody tr').first().waitFor(WAIT);
      const more = page.locator('#indices-panel .more-rows');
      const levels = portal.dataset.indexLevels.rows.length;
      assert.equal(await more.textContent(), `Show ${levels - 8} more indices`);
      assert.equal(await page.locator('table.indices tbody tr:visible').count(), 8);
      await more.click();
      assert.equal(await page.locator('table.indices tbody tr:visible').count(), levels);
      const sideways = await sidewaysScroll(page);
      assert.ok(sideways <= 1, `the page scrolls sideways by ${sideways}px`);
      await shoot(page, 'budget-market');

      // The largest sector: every member can be brought on screen.
      const bySize = [...portal.dataset.sectorPage.members].sort(
        (a, b) => b.symbols.length - a.symbols.length,
      );
      const biggest = bySize[0]!;
      await page.evaluate((c) => (location.hash = `#/sector/${c}`), biggest.sectorCode);
      await page.locator('.sector-members tbody tr').first().waitFor(WAIT);
      const showAll = page.locator('.sector-members button', { hasText: /^Show all/ });
      if (await showAll.isVisible()) await showAll.click();
      for (const symbol of biggest.symbols) {
        const row = page.locator(`.sector-members tr[data-symbol="${symbol}"]`);
        await row.scrollIntoViewIfNeeded();
        assert.ok(await row.isVisible(), `${symbol} reachable at ${viewport.width}px`);
      }
      await shoot(page, 'budget-sector');

      await page.evaluate(() => (location.hash = '#/symbol/HBL'));
      await page.locator('.quote-card .price').waitFor(WAIT);
      // Earlier tests spent this address's exchange fetches: the company page may follow once the
      // budget's minute has turned, and the page fills it in by itself then.
      await page.locator('#financials-panel table').waitFor({ timeout: 80_000 });
      const lines = await page.locator('#financials-panel tbody th').allTextContents();
      assert.ok(lines.includes('Net profit margin (%)'), lines.join(' | '));
      assert.ok(lines.includes('PEG'), lines.join(' | '));
      assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /src\/|flagAnomalies|_pct\b/);
      await shoot(page, 'budget-symbol');
      await context.close();
    }
  });
});

describe('dashboard refused by the request limit', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // The market view (overview, screener, today's numbers, the stream) and one index change fit;
    // the next change is refused.
    ({ portal, service, browser } = await startBrowserRig({}, { RATE_LIMIT_PER_MINUTE: '5' }));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('keeps what is shown, says how old it is and when it asks again', async () => {
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    await page.locator('.hero-level[data-index="KSE100"]').waitFor(WAIT);
    await page.locator('#movers-gainers tbody tr').first().waitFor(WAIT);
    const rows = await page.locator('table.indices tbody tr').count();
    const level = await page.locator('.hero-level .level').textContent();
    const picker = page.locator('#index-picker');
    const note = page.locator('.refresh-note');
    for (const index of ['KSE30', 'KMI30', 'ALLSHR', 'KSE100']) {
      await picker.selectOption(index);
      await page.waitForFunction(
        (i) =>
          document.querySelector('.hero-level')?.getAttribute('data-index') === i ||
          document.querySelector('.refresh-note') !== null,
        index,
        WAIT,
      );
      if (await note.count()) break;
    }
    await note.waitFor(WAIT);
    const said = (await note.textContent()) ?? '';
    assert.match(said, /^Showing the market as of \d\d:\d\d PKT\. The service asked this page to wait/);
    const seconds = Number(/in (\d+) seconds?\.?$/.exec(said)?.[1] ?? /in (\d+) minute/.exec(said)?.[1]);
    assert.ok(seconds > 0, said);
    // What was shown is still there: the hero, every index, the movers.
    assert.equal(await page.locator('table.indices tbody tr').count(), rows);
    assert.ok((await page.locator('.hero-level .level').textContent())?.length, String(level));
    assert.ok((await page.locator('#movers-gainers tbody tr').count()) > 0);
    assert.equal(await page.locator('main [role="alert"]').count(), 0);
    assert.doesNotMatch((await page.locator('main').textContent()) ?? '', /rate_limited|Too Many|HTTP/);
    // It counts down by itself.
    await page.waitForFunction(
      (s) => !document.querySelector('.refresh-note')?.textContent?.includes(`in ${s} second`),
      seconds,
      WAIT,
    );
    await shoot(page, 'budget-refused');
    await context.close();
  });
});
