// What a new reader meets in the first minutes, at 1400 and 390 px (Chromium, fake portal): the
// indicator panes have room, the words on screen are a reader's (no parameter or column names),
// the debt table says it scrolls sideways on a phone, the header says the market state and data
// time on views without an overview, a malformed symbol is said once, an unknown one never enters
// the stream, and a part that waits says in how long rather than at what clock time.
// Screenshots: test-results/first-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import type { RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  offlineContext,
  RESULTS_DIR,
  sidewaysScroll,
  startBrowserRig,
  stopBrowserRig,
  VIEWPORTS,
  WAIT,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

/** Words a developer reads, not a reader: parameters, column names, internal states. */
const DEVELOPER_WORDS =
  /clock off|always open|bb_(upper|middle|lower)|adjusted=|dividends=|capital change · ratio|_\d+_\d|\bnull\b|undefined/;

async function shoot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(RESULTS_DIR, `first-${name}-${width}.png`), fullPage: true });
}

describe('a new reader’s first minutes', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig());
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  for (const viewport of VIEWPORTS) {
    it(`symbol page at ${viewport.width} px: room for RSI, reader's words`, async () => {
      const { context } = await offlineContext(browser, viewport);
      const page = await context.newPage();
      await page.goto(`${service.url}/#/symbol/ENGRO`);
      await page.locator('.chart-panel .chart').scrollIntoViewIfNeeded();
      await page.locator('.chart-panel .chart canvas').first().waitFor(WAIT);
      await page.locator('#indicators-heading').scrollIntoViewIfNeeded();
      await page.locator('.indicator-canvas canvas').first().waitFor(WAIT);
      await page
        .locator('#performance-panel table, section:has(#performance-heading) table')
        .first()
        .waitFor(WAIT);
      // lightweight-charts lays its panes out as table rows: closes, separator, RSI, separator, MACD, time axis.
      const rows = await page.evaluate(() =>
        [
          ...document.querySelectorAll('.indicator-canvas table > tr, .indicator-canvas table > tbody > tr'),
        ].map((tr) => tr.getBoundingClientRect().height),
      );
      const panes = rows.filter((h) => h > 5);
      assert.ok(panes.length >= 4, JSON.stringify(rows));
      const [closes, rsi, macd] = panes;
      assert.ok(rsi! >= 60 && macd! >= 60, `RSI ${rsi} px, MACD ${macd} px`);
      assert.ok(closes! > rsi!, `closes ${closes} px`);
      // The overlays are named by their toggles, each with its line's colour.
      assert.equal(await page.locator('.overlay-toggle .swatch').count(), 3);

      // Corporate actions in words.
      const actions = page.locator('details.actions');
      if ((await actions.count()) > 0) {
        await actions.locator('summary').click();
        const items = await actions.locator('li').allTextContents();
        assert.ok(items.length > 0);
        for (const item of items) assert.doesNotMatch(item, /capital_change|· ratio/, item);
      }
      const text = `${await page.locator('header').innerText()}\n${await page.locator('main').innerText()}`;
      assert.doesNotMatch(text, DEVELOPER_WORDS);
      const sideways = await sidewaysScroll(page);
      assert.ok(sideways <= 1, `the page scrolls sideways by ${sideways}px`);
      await shoot(page, 'symbol');
      await context.close();
    });

    it(`debt and week views at ${viewport.width} px: the header says state and time; the table says it scrolls`, async () => {
      for (const view of ['debt', 'week']) {
        // A fresh page straight onto the view: nothing else has said the market state.
        const { context } = await offlineContext(browser, viewport);
        const page = await context.newPage();
        await page.goto(`${service.url}/#/${view}`);
        await page.waitForFunction(
          () =>
            !/Market state…/.test(document.getElementById('market-state')?.textContent ?? '') &&
            !/Data as of —/.test(document.getElementById('as-of')?.textContent ?? ''),
          undefined,
          WAIT,
        );
        if (view === 'debt') {
          await page.locator('#debt-panel table').waitFor(WAIT);
          const scroll = page.locator('#debt-panel .table-scroll');
          const overflow = await scroll.evaluate((el) => el.scrollWidth - el.clientWidth);
          const hint = page.locator('#debt-panel .scroll-hint');
          if (overflow > 1) {
            assert.ok(await hint.isVisible(), 'the table scrolls sideways: the hint says so');
            assert.match((await hint.textContent()) ?? '', /sideways/);
          } else {
            assert.equal(await hint.isVisible(), false, 'no hint when it all fits');
          }
          const sideways = await sidewaysScroll(page);
          assert.ok(sideways <= 1, `the page scrolls sideways by ${sideways}px`);
        }
        assert.doesNotMatch(await page.locator('header').innerText(), DEVELOPER_WORDS);
        await shoot(page, view);
        await context.close();
      }
    });
  }

  it('asks the market state of nobody while the market view refreshes for minutes', async () => {
    const { context } = await offlineContext(browser, VIEWPORTS[0]!);
    const page = await context.newPage();
    await page.clock.install();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/market/status') asked.push(r.url());
    });
    await page.goto(`${service.url}/`);
    await page.locator('.hero-level[data-index="KSE100"]').waitFor(WAIT);
    await page.clock.runFor(3 * 60_000);
    await page.locator('.hero-level').waitFor(WAIT);
    // The overview says the state and when it changes; nothing polls the clock's endpoint.
    assert.deepEqual(asked, []);
    await context.close();
  });

  it('says a malformed symbol once, and never streams an unknown one', async () => {
    const { context } = await offlineContext(browser, VIEWPORTS[0]!);
    const page = await context.newPage();
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/stream/quotes')) streams.push(decodeURIComponent(r.url()));
    });
    await page.goto(`${service.url}/#/symbol/BAD$$`);
    await page.locator('#invalid-symbol').waitFor(WAIT);
    const said = (await page.locator('body').innerText()).match(/not a valid symbol/gi) ?? [];
    assert.equal(said.length, 1, await page.locator('main').innerText());

    await page.evaluate(() => (location.hash = '#/symbol/NOSUCH'));
    await page.getByText('NOSUCH is not a symbol the exchange lists.').waitFor(WAIT);
    // The stream is re-aimed a moment after a view asks (live.ts); give it that moment and more.
    await page.waitForTimeout(1_500);
    assert.deepEqual(
      streams.filter((u) => u.includes('NOSUCH')),
      [],
    );
    await context.close();
  });
});

describe('a part that waits for the exchange', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // One page's fetches a minute for this client: a second symbol's pages wait for the next minute.
    ({ portal, service, browser } = await startBrowserRig({}, { EXCHANGE_FETCH_LIMIT_PER_IP: '1' }));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says in how long, counting down, not at what clock time', async () => {
    const { context } = await offlineContext(browser, VIEWPORTS[1]!);
    const page = await context.newPage();
    await page.goto(`${service.url}/#/symbol/HBL`);
    await page.locator('.chart-panel .chart').waitFor(WAIT);
    await page.evaluate(() => (location.hash = '#/symbol/LUCK'));
    const note = page.locator('.chart-panel .pending');
    await note.waitFor(WAIT);
    const first = (await note.textContent()) ?? '';
    assert.match(first, /will follow in (\d+ seconds?|1 minute)/, first);
    assert.doesNotMatch(first, /\d\d:\d\d|PKT|cannot be reached/, first);
    const seconds = Number(await note.getAttribute('data-retry-in'));
    assert.ok(seconds > 1 && seconds <= 60, String(seconds));
    await page.waitForFunction(
      (before) => {
        const now = document.querySelector('.chart-panel .pending')?.textContent ?? '';
        return now !== '' && now !== before;
      },
      first,
      WAIT,
    );
    assert.notEqual(await note.textContent(), first, 'it counts down');
    await shoot(page, 'waiting');
    await context.close();
  });
});
