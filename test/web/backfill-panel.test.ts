// The archive's backfill panel on the market view, in Debian's Chromium against the real service
// and the fake portal. With ARCHIVE=on and an archiver slowed to one portal fetch a minute, the
// backfill of the fake market (124 symbols) is under way for the whole test: the panel shows it,
// its progressbar says what /archive/status says, it fits a phone, it asks again only while shown
// (the page's timers on Playwright's clock), and with the archive off the page asks once and
// shows nothing. The panel asks once the reader has scrolled to the sectors above it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import { waitForBackfill } from '../helpers/archive.ts';
import { http, type RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  DESKTOP,
  offlineContext,
  PHONE,
  RESULTS_DIR,
  startBrowserRig,
  stopBrowserRig,
  WAIT,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

/** The panel's poll (web/src/backfill-panel.ts POLL_MS). */
const POLL_MS = 20_000;

/** The reader scrolls down to the sectors, under which the panel sits: it asks from then on. */
async function reachBackfill(page: Page): Promise<void> {
  await page.locator('#sectors-panel').scrollIntoViewIfNeeded(WAIT);
}

/** Every /archive/status request the page makes. */
function statusRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/archive/status') seen.push(r.url());
  });
  return seen;
}

/** A script turning the tab hidden or visible, as switching tabs does (a string: no helpers of the test's compiler in it). */
const visibility = (state: 'hidden' | 'visible'): string =>
  `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });` +
  `document.dispatchEvent(new Event('visibilitychange'));`;

/** Waits (polling, up to WAIT) until `ok()`. */
async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT.timeout;
  while (!ok()) {
    assert.ok(Date.now() < deadline, 'waited too long');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The market view drawn: its hero and its screener. */
async function marketShown(page: Page): Promise<void> {
  await page.locator('.hero-level').waitFor(WAIT);
  await page.locator('#screener-panel tbody tr').first().waitFor(WAIT);
}

describe('backfill panel while the archiver backfills', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig(
      { extraSymbols: 60, historyRows: 20 },
      { ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: '1' },
    ));
    // The archiver has listed the symbols: the backfill is under way.
    for (let i = 0; i < 200; i++) {
      const s = (await http(service.url, '/archive/status')).json.data;
      if (s.archiver === 'backfill' && s.symbols_total !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('shows done of total as a labelled progressbar with the values /archive/status gives', async () => {
    const { context, external } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    const bar = page.getByRole('progressbar', { name: 'Archive backfill' });
    await bar.waitFor(WAIT);
    // The archiver moves on once a minute: read the status until two reads agree around the page's.
    let status: Record<string, unknown> | undefined;
    for (let i = 0; i < 20 && status === undefined; i++) {
      const before = (await http(service.url, '/archive/status')).json.data;
      const now = await bar.getAttribute('aria-valuenow');
      const afterRead = (await http(service.url, '/archive/status')).json.data;
      if (before.symbols_done === afterRead.symbols_done && now === String(before.symbols_done))
        status = before;
      else await page.waitForTimeout(250);
    }
    assert.ok(status, 'the progressbar says what /archive/status says');
    assert.equal(status.archiver, 'backfill');
    const total = status.symbols_total as number;
    const done = status.symbols_done as number;
    assert.ok(total > done, `${done} of ${total}: still running`);
    assert.equal(await bar.getAttribute('aria-valuemin'), '0');
    assert.equal(await bar.getAttribute('aria-valuemax'), String(total));
    assert.equal(await bar.getAttribute('aria-valuetext'), `${done} of ${total} symbols`);
    const panel = page.locator('#backfill-panel');
    assert.match(
      (await panel.locator('.backfill-summary').textContent()) ?? '',
      new RegExp(`^${done} of ${total} symbols \\(${Math.floor((done / total) * 100)}%\\); backfilling\\.$`),
    );
    const fact = async (name: string): Promise<string> =>
      (await panel.locator(`[data-fact="${name}"] dd`).textContent()) ?? '';
    assert.equal(await fact('Daily bars'), (status.rows as number).toLocaleString('en-US'));
    assert.match(
      await fact('Trading days'),
      new RegExp(`^${(status.days as number).toLocaleString('en-US')}\\b`),
    );
    assert.match(await fact('Time left'), status.eta_seconds === null ? /^—$/ : /^about /);
    assert.match(await fact('As of'), /^\d\d:\d\d PKT; asks again every 20 seconds$/);
    // The bar's fill is its share of the track.
    const widths = await page.evaluate(() => {
      const track = document.querySelector('.backfill-bar')!.getBoundingClientRect().width;
      const fill = document.querySelector('.backfill-fill')!.getBoundingClientRect().width;
      return { track, fill };
    });
    assert.ok(Math.abs(widths.fill - (widths.track - 2) * (done / total)) <= 2, JSON.stringify(widths));
    // Last on the page: everything else is above it.
    const last = await page.evaluate(() => document.querySelector('main')!.lastElementChild?.id);
    assert.equal(last, 'backfill-section');
    await page.screenshot({ path: join(RESULTS_DIR, 'backfill-panel-1400.png'), fullPage: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(external, []);
    await context.close();
  });

  it('fits a phone 390 px wide', async () => {
    const { context } = await offlineContext(browser, PHONE);
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    const panel = page.locator('#backfill-panel');
    await panel.getByRole('progressbar').waitFor(WAIT);
    await panel.scrollIntoViewIfNeeded();
    const box = await panel.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the market view is ${overflow}px wider than the screen`);
    await panel.screenshot({ path: join(RESULTS_DIR, 'backfill-panel-390.png') });
    await context.close();
  });

  it('asks again every 20 s while shown and visible, and never on another view', async () => {
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.clock.install();
    const asked = statusRequests(page);
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    await page.getByRole('progressbar', { name: 'Archive backfill' }).waitFor(WAIT);
    assert.equal(asked.length, 1);
    await page.clock.runFor(POLL_MS - 1_000);
    assert.equal(asked.length, 1, 'not before its time');
    await page.clock.runFor(1_000);
    await until(() => asked.length >= 2);
    assert.equal(asked.length, 2);

    // A hidden tab is asked nothing; it asks when looked at again.
    await page.evaluate(visibility('hidden'));
    await page.clock.runFor(POLL_MS * 3);
    await page.waitForTimeout(300);
    assert.equal(asked.length, 2, 'nothing asked while hidden');
    // From here the answer takes 1.5 s: leaving and coming back while it is on its way waits for
    // it rather than asking again.
    await page.route('**/archive/status', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.evaluate(visibility('visible'));
    await until(() => asked.length >= 3);
    assert.equal(asked.length, 3);

    // Away and straight back: what the page knows, and no question before the poll is due.
    await page.evaluate(() => (location.hash = '#/week'));
    await page.locator('h1', { hasText: /^This week/ }).waitFor(WAIT);
    await page.evaluate(() => (location.hash = '#/'));
    await reachBackfill(page);
    await marketShown(page);
    await page.getByRole('progressbar', { name: 'Archive backfill' }).waitFor(WAIT);
    await page.waitForTimeout(300);
    assert.equal(asked.length, 3, 'a return within the poll asks nothing');

    // Another view: the panel is gone and so is its polling.
    await page.evaluate(() => (location.hash = '#/week'));
    await page.locator('h1', { hasText: /^This week/ }).waitFor(WAIT);
    await page.clock.runFor(POLL_MS * 3);
    await page.waitForTimeout(300);
    assert.equal(asked.length, 3, 'no status request on a view without the panel');
    await context.close();
  });
});

describe('backfill panel refused by the request limit', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig(
      { extraSymbols: 60, historyRows: 20 },
      { ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: '1', RATE_LIMIT_PER_MINUTE: '15' },
    ));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('keeps what it shows, says so, and waits longer than its poll before asking again', async () => {
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.clock.install();
    const asked = statusRequests(page);
    const refused: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/archive/status' && r.status() === 429) refused.push(r.status());
    });
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    const bar = page.getByRole('progressbar', { name: 'Archive backfill' });
    await bar.waitFor(WAIT);
    const before = await bar.getAttribute('aria-valuenow');
    // This address (the page's and the test's) spends the rest of its minute.
    for (let i = 0; i < 20; i++) if ((await http(service.url, '/health')).status === 429) break;
    await page.clock.runFor(POLL_MS);
    await until(() => refused.length === 1);
    const note = page.locator('#backfill-panel .backfill-note');
    await page.waitForFunction(
      () => /asking again in/.test(document.querySelector('.backfill-note')?.textContent ?? ''),
      undefined,
      WAIT,
    );
    assert.match(
      (await note.textContent()) ?? '',
      /^Could not refresh the progress; asking again in (\d+ seconds?|1 minute( \d+ seconds?)?)\.$/,
    );
    assert.equal(await bar.getAttribute('aria-valuenow'), before, 'what was shown stays');
    assert.equal(await page.locator('main [role="alert"]').count(), 0);
    // Not at the next poll: the refusal doubled the wait (or Retry-After, when longer).
    await page.clock.runFor(POLL_MS);
    await page.waitForTimeout(300);
    assert.equal(asked.length, 2);
    await context.close();
  });
});

describe('backfill panel once the backfill is done', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // A fetch every 10 ms: the fake market's backfill is over in seconds.
    ({ portal, service, browser } = await startBrowserRig(
      { historyRows: 20 },
      { ARCHIVE: 'on', ARCHIVE_FETCHES_PER_MINUTE: '6000' },
    ));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('collapses to one quiet line of what the archive holds, and stops asking', async () => {
    const status = await waitForBackfill(service.url);
    const { context } = await offlineContext(browser, PHONE);
    const page = await context.newPage();
    await page.clock.install();
    const asked = statusRequests(page);
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    const summary = page.locator('#backfill-panel .backfill-summary');
    await summary.waitFor(WAIT);
    const total = (status.symbols_total as number).toLocaleString('en-US');
    assert.match(
      (await summary.textContent()) ?? '',
      new RegExp(
        `^Archive: ${total} of ${total} symbols, [\\d,]+ daily bars over [\\d,]+ trading days; up to date\\. As of `,
      ),
    );
    assert.equal(await page.getByRole('progressbar').count(), 0);
    assert.equal(await page.locator('#backfill-panel [data-fact]').count(), 0);
    const height = (await page.locator('#backfill-panel').boundingBox())?.height ?? 0;
    assert.ok(height > 0 && height < 120, `one quiet line: ${height}px`);
    await page.clock.runFor(POLL_MS * 3);
    await page.waitForTimeout(300);
    assert.equal(asked.length, 1, 'a finished backfill is not polled');
    await context.close();
  });
});

describe('backfill panel with the archive off', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig());
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('shows nothing, and asks once a page load', async () => {
    assert.equal((await http(service.url, '/archive/status')).json.data.archiver, 'off');
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    const asked = statusRequests(page);
    await page.goto(`${service.url}/`);
    await reachBackfill(page);
    await marketShown(page);
    await until(() => asked.length >= 1);
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#backfill-section').isHidden(), true);
    assert.equal(await page.getByRole('progressbar').count(), 0);
    // Away and back: the page remembers the archive is off.
    await page.evaluate(() => (location.hash = '#/week'));
    await page.locator('h1', { hasText: /^This week/ }).waitFor(WAIT);
    await page.evaluate(() => (location.hash = '#/'));
    await reachBackfill(page);
    await marketShown(page);
    await page.waitForTimeout(500);
    assert.equal(asked.length, 1);
    await context.close();
  });
});
