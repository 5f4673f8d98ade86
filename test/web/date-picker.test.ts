// The market view's date picker (issue #39) in Debian's Chromium at 1400 and 390 px, against the
// real service with ARCHIVE=on and the fake portal's daily closing files backfilled: the picker's
// bounds are the archive's first and last file (asked only when the picker is opened), a picked
// day shows that day's market with the day in the header and the closes of the fake portal's file,
// a symbol delisted since is there and said to be, a weekday holiday says so in words, the address
// carries the day (and a reload shows it again), and "Back to today" returns to the live market.
// The service's clock is injected: Friday 2016-07-01 17:00 Karachi, files from 2016-03-21.
// Screenshots: test-results/date-picker-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DELISTED, FILE_HOLIDAYS, dailyFileLines } from '../../dev/fake-portal/daily-files.ts';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import { waitForFiles } from '../helpers/archive.ts';
import { type RunningService } from '../helpers/service.ts';
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

const CLOCK = Date.parse('2016-07-01T12:00:00Z');
const FILES_FROM = '2016-03-21';
/** A Tuesday DLTX still traded on (it left the board on 2016-06-30). */
const DAY = '2016-05-10';
const DLTX = DELISTED.find((d) => d.symbol === 'DLTX')!;
const HOLIDAY = '2016-03-23';

/** Closes by symbol in the fake portal's closing file of `date` (`date|SYMBOL|sector|name|open|high|low|close|…`). */
function fileCloses(portal: FakePortal, date: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of dailyFileLines(portal.dataset, date)) {
    const f = line.split('|');
    if (f[2]!.length === 4) out.set(f[1]!, Number(f[7]));
  }
  return out;
}

const price = (x: number): string =>
  x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function headerAsOf(page: Page): Promise<string> {
  return (await page.locator('#as-of').textContent()) ?? '';
}

async function noSideways(page: Page): Promise<void> {
  const sideways = await sidewaysScroll(page);
  assert.ok(sideways <= 1, `the page scrolls sideways by ${sideways}px`);
}

describe('the market on a past day (date picker)', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  let status: Record<string, unknown>;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig(
      // Every listed symbol's history starts in April 2016: the day's file holds them too, and the
      // holiday in March is before every history page's first row (as the fake portal's files expect).
      { historyRows: 2_776 },
      {
        ARCHIVE: 'on',
        ARCHIVE_FILES_FROM: FILES_FROM,
        EXCHANGE_FETCH_LIMIT_GLOBAL: '60000',
        ARCHIVE_BACKOFF_MS: '200',
      },
      { overrides: { now: () => CLOCK } },
    ));
    status = await waitForFiles(service.url);
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('the fake portal has what the test needs', () => {
    assert.ok(FILE_HOLIDAYS.includes(HOLIDAY));
    assert.ok(DLTX.until > DAY);
    // The listed symbols' history pages start between the holiday and the day picked.
    const first = portal.dataset.history('ENGRO').at(-1)!.date;
    assert.ok(first > HOLIDAY && first <= DAY, first);
    assert.equal(status.files_first_date, FILES_FROM);
    assert.equal(status.files_last_date, '2016-07-01');
  });

  for (const viewport of VIEWPORTS) {
    it(`picks ${DAY} at ${viewport.width} px: the day's closes, a delisted symbol, a holiday, back to live`, async () => {
      const { context, external } = await offlineContext(browser, viewport);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const statusAsks: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/archive/status') statusAsks.push(r.url());
      });
      await page.goto(`${service.url}/`);
      await page.locator('.hero-level').waitFor(WAIT);
      const liveAsOf = await headerAsOf(page);

      // The picker is a button until opened; opening it asks the archive's bounds.
      const toggle = page.getByRole('button', { name: 'Another day…' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await page.locator('#day-input').isVisible(), false);
      await toggle.click();
      const input = page.getByLabel('Market on', { exact: true });
      await input.waitFor(WAIT);
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>('#day-input')?.max,
        null,
        WAIT,
      );
      assert.equal(await input.getAttribute('min'), FILES_FROM);
      assert.equal(await input.getAttribute('max'), '2016-07-01');
      assert.match(
        (await page.locator('#day-note').textContent()) ?? '',
        /Mon 21 Mar 2016 to Fri 1 Jul 2016/,
      );
      assert.equal(statusAsks.length, 1, 'the bounds are asked once, when the picker opens');
      await noSideways(page);
      await page.screenshot({ path: join(RESULTS_DIR, `date-picker-open-${viewport.width}.png`) });

      await input.fill(DAY);
      await page.getByRole('button', { name: 'Show day', exact: true }).click();
      await page.waitForURL(`**/#/market?date=${DAY}`, WAIT);
      await page.locator('#day-table tbody tr').first().waitFor(WAIT);

      // The header says the day's close, not the live time.
      assert.match(await headerAsOf(page), /Data as of Tue 10 May 2016/);
      assert.equal(await page.locator('#live').isVisible(), false);
      assert.equal(await page.locator('h1').textContent(), 'Market on Tue 10 May 2016');

      // Closes as in the fake portal's closing file of that day.
      const closes = fileCloses(portal, DAY);
      const row = (symbol: string) => page.locator(`#day-table tbody tr[data-symbol="${symbol}"]`);
      for (const symbol of ['ENGRO', 'HBL', 'LUCK']) {
        assert.ok(closes.has(symbol), symbol);
        assert.equal(await row(symbol).locator('td.close').textContent(), price(closes.get(symbol)!), symbol);
      }
      const shown = await page
        .locator('#day-table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.symbol));
      // Every equity of the day's file is on the page (with, as the service serves, bars the
      // archive holds from symbols' history pages, such as a right's).
      assert.deepEqual(
        [...closes.keys()].filter((s) => !shown.includes(s)),
        [],
        'every equity of the file is shown',
      );
      // A symbol delisted since: there, with its close, and said to be no longer listed.
      assert.equal(await row('DLTX').locator('td.close').textContent(), price(closes.get('DLTX')!));
      assert.equal(await row('DLTX').locator('.day-notes').textContent(), 'No longer listed');
      assert.equal(await row('DLTX').locator('a').count(), 0, 'no page to open for a delisted symbol');
      // The change is against the previous close the file printed.
      const engro = dailyFileLines(portal.dataset, DAY)
        .find((l) => l.split('|')[1] === 'ENGRO')!
        .split('|');
      const change = Math.round((Number(engro[7]) - Number(engro[9])) * 100) / 100;
      assert.match(
        (await row('ENGRO').locator('td.change').innerText()).replace(/\s+/g, ' '),
        new RegExp(`${change > 0 ? '\\+' : ''}${price(change).replace(/[.+]/g, '\\$&')} \\(`),
      );
      const text = await page.locator('main').innerText();
      assert.doesNotMatch(text, /\bXD\b|\bXB\b|\bXR\b|listed_today|ldcp|null|undefined/);

      // Phones: nothing cut off; the table scrolls sideways under a hint.
      await noSideways(page);
      if (viewport.width < 600) {
        const overflow = await page.locator('.day-scroll').evaluate((el) => el.scrollWidth - el.clientWidth);
        assert.ok(overflow > 1, 'nine columns do not fit 390 px');
        assert.ok(await page.locator('#day-panel .scroll-hint').isVisible(), 'the hint says it scrolls');
      }
      await page.screenshot({
        path: join(RESULTS_DIR, `date-picker-day-${viewport.width}.png`),
        fullPage: viewport.width < 600,
      });

      // Filtering by name finds the delisted company.
      await page.getByLabel('Filter').fill(DLTX.name.slice(0, 5));
      assert.ok(await row('DLTX').isVisible());
      assert.equal(await row('ENGRO').isVisible(), false);

      // A weekday holiday: a sentence naming the days around it, not an empty table.
      await page.getByLabel('Market on', { exact: true }).fill(HOLIDAY);
      await page.getByRole('button', { name: 'Show day', exact: true }).click();
      await page.waitForURL(`**/#/market?date=${HOLIDAY}`, WAIT);
      const closed = page.locator('.day-closed');
      await closed.waitFor(WAIT);
      assert.match(
        (await closed.innerText()).replace(/\s+/g, ' '),
        /did not trade on Wed 23 Mar 2016.*before was Tue 22 Mar 2016; the next was Thu 24 Mar 2016/,
      );
      assert.equal(await page.locator('#day-table').count(), 0);
      await closed.getByRole('link', { name: 'Tue 22 Mar 2016' }).click();
      await page.waitForURL('**/#/market?date=2016-03-22', WAIT);
      await page.locator('#day-table tbody tr').first().waitFor(WAIT);
      assert.match(await headerAsOf(page), /Data as of Tue 22 Mar 2016/);
      await noSideways(page);

      // The address is the day: a reload shows it again.
      await page.reload();
      await page.locator('#day-table tbody tr').first().waitFor(WAIT);
      assert.match(await headerAsOf(page), /Data as of Tue 22 Mar 2016/);
      assert.equal(await page.getByLabel('Market on', { exact: true }).inputValue(), '2016-03-22');

      // Back to today: the live market, the header's live time.
      await page.getByRole('link', { name: 'Back to today (live)' }).click();
      await page.locator('.hero-level').waitFor(WAIT);
      await page.waitForFunction(
        () => !/2016/.test(document.getElementById('as-of')?.textContent ?? ''),
        null,
        WAIT,
      );
      assert.doesNotMatch(await headerAsOf(page), /2016/);
      if (!/—/.test(liveAsOf)) assert.match(await headerAsOf(page), /^Data as of /);
      assert.ok(await page.locator('#live').isVisible(), 'Live/Delayed is back');
      assert.equal(await page.locator('#day-table').count(), 0);
      await noSideways(page);
      assert.deepEqual(errors, []);
      assert.deepEqual(external, []);
      await context.close();
    });
  }

  it('an address with a day yet to come, or no date at all, says so in words', async () => {
    const { context } = await offlineContext(browser, VIEWPORTS[1]!);
    const page = await context.newPage();
    await page.goto(`${service.url}/#/market?date=2016-07-04`);
    await page.locator('.day-closed').waitFor(WAIT);
    assert.match(await page.locator('.day-closed').innerText(), /Mon 4 Jul 2016 has not come yet/);
    await page.goto(`${service.url}/#/market?date=yesterday`);
    await page.getByText('“yesterday” is not a date; pick a day above.').waitFor(WAIT);
    await context.close();
  });
});

describe('the date picker without the archive', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig());
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says that past days need the archive, and a past day’s address says so too', async () => {
    const { context } = await offlineContext(browser, VIEWPORTS[1]!);
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    await page.locator('.hero-level').waitFor(WAIT);
    await page.getByRole('button', { name: 'Another day…' }).click();
    const note = page.locator('#day-note');
    await page.waitForFunction(
      () => /archive/.test(document.getElementById('day-note')?.textContent ?? ''),
      null,
      WAIT,
    );
    assert.match((await note.textContent()) ?? '', /Past days need the service’s archive/);
    assert.ok(await page.getByLabel('Market on', { exact: true }).isDisabled());

    await page.goto(`${service.url}/#/market?date=${DAY}`);
    await page.locator('#day-panel .day-closed').waitFor(WAIT);
    await page.waitForFunction(
      () => /archive/.test(document.getElementById('day-note')?.textContent ?? ''),
      null,
      WAIT,
    );
    assert.match((await note.textContent()) ?? '', /Past days need the service’s archive/);
    const text = await page.locator('main').innerText();
    assert.match(text, /The archive holds no past day yet/);
    assert.doesNotMatch(text, /GET \/|\b404\b|not_found|ARCHIVE/);
    await noSideways(page);
    await context.close();
  });
});

describe('a past day’s ex-markers, in words', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // The fake market's own week (files from 2026-11-16, the test default): its last day's file
    // marks the symbols going ex that day.
    ({ portal, service, browser } = await startBrowserRig(
      { historyRows: 30 },
      { ARCHIVE: 'on', EXCHANGE_FETCH_LIMIT_GLOBAL: '60000', ARCHIVE_BACKOFF_MS: '200' },
    ));
    await waitForFiles(service.url);
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says ex-dividend, ex-bonus and ex-rights, not XD, XB, XR', async () => {
    const date = portal.dataset.asOfDate;
    const words: Record<string, string> = { XD: 'Ex-dividend', XB: 'Ex-bonus', XR: 'Ex-rights' };
    // Equities whose name carries a marker in the fake portal's file of that day.
    const marked = dailyFileLines(portal.dataset, date)
      .map((l) => l.split('|'))
      .filter((f) => f[2]!.length === 4 && /(XD|XB|XR)$/.test(f[3]!))
      .map((f) => ({ symbol: f[1]!, marker: f[3]!.slice(-2) }));
    assert.ok(marked.length > 0, 'the fake file marks some symbols');
    const { context } = await offlineContext(browser, VIEWPORTS[0]!);
    const page = await context.newPage();
    await page.goto(`${service.url}/#/market?date=${date}`);
    await page.locator('#day-table tbody tr').first().waitFor(WAIT);
    for (const { symbol, marker } of marked) {
      const note = page.locator(`#day-table tbody tr[data-symbol="${symbol}"] .day-notes`);
      assert.equal(await note.textContent(), words[marker], symbol);
    }
    assert.doesNotMatch(await page.locator('main').innerText(), /\bXD\b|\bXB\b|\bXR\b/);
    await context.close();
  });
});
