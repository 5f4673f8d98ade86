// The dashboard's "this week" and debt pages in Chromium against the service and the fake portal:
// what a reader looks for, and how many requests each page makes on its first load.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import type { RunningService } from '../helpers/service.ts';
import { browserSkipReason, offlineContext, startBrowserRig, stopBrowserRig } from './support.ts';

const skip = browserSkipReason();

// Wednesday of the fake market's following week, 10:00 in Karachi: the week is 2026-11-23 … 29.
const NOW = new Date('2026-11-25T05:00:00Z');
/** The header's market-state poll is the page shell's, not the view's. */
const SHELL = new Set(['/market/status']);

describe('this week and debt pages in Chromium', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let requests: string[] = [];

  before(async () => {
    ({ portal, service, browser } = await startBrowserRig());
    ({ context } = await offlineContext(browser, { width: 1400, height: 900 }));
    page = await context.newPage();
    await page.clock.setFixedTime(NOW);
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.resourceType() === 'fetch' && !SHELL.has(url.pathname)) requests.push(url.pathname);
    });
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('lists this week’s ex-dates with the last day to buy, and the week’s meetings', async () => {
    requests = [];
    await page.goto(`${service.url}/#/week`);
    await page.locator('#week-payouts table').waitFor();
    const heading = await page.locator('h1').textContent();
    assert.match(heading ?? '', /2026-11-23 – 2026-11-29/);
    const engro = page.locator('#week-payouts tr', { hasText: 'ENGRO' });
    assert.deepEqual(await engro.locator('td').allTextContents(), [
      'Cash dividend 350% (F) (Rs 35.00 a share)',
      '2026-11-20',
      '2026-11-23',
      '2026-11-24 – 2026-11-26',
    ]);
    // Not readable: the announcement as printed, not left out.
    assert.match(
      (await page.locator('#week-payouts tr', { hasText: 'SYS' }).textContent()) ?? '',
      /BONUS 1 FOR 10/,
    );
    await page.locator('#week-meetings table').waitFor();
    const meetings = await page.locator('#week-meetings tr', { hasText: 'ENGRO' }).count();
    assert.equal(meetings, 2, 'an AGM and an EOGM');
    assert.ok(requests.length <= 3, `at most 3 requests: ${requests.join(', ')}`);
  });

  it('lists the debt market with the board’s quotes', async () => {
    const fresh = await context.newPage();
    await fresh.clock.setFixedTime(NOW);
    const seen: string[] = [];
    fresh.on('request', (r) => {
      const url = new URL(r.url());
      if (r.resourceType() === 'fetch' && !SHELL.has(url.pathname)) seen.push(url.pathname);
    });
    await fresh.goto(`${service.url}/#/debt`);
    await fresh.locator('#debt-panel table').waitFor();
    const tfc = await fresh
      .locator('#debt-panel tr', { hasText: 'BAFLTFC8' })
      .locator('td')
      .allTextContents();
    assert.equal(tfc[0], 'Bank Al-Falah(TFC8');
    assert.ok(tfc.includes('5,012.50'), tfc.join(' | '));
    const unquoted = await fresh
      .locator('#debt-panel tr', { hasText: 'HBLTFC3' })
      .locator('td')
      .allTextContents();
    assert.equal(unquoted.at(-1), '—');
    assert.ok(seen.length <= 3, `at most 3 requests: ${seen.join(', ')}`);
    await fresh.close();
  });
});
