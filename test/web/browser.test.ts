// End to end: Debian's Chromium (playwright-core) against the real service and the fake portal.
// Each view is checked for what a reader would look at (the fake portal's values), and every view
// is photographed at 1400 and 390 px into test-results/. Parts that need endpoints this service
// may not have yet (intraday, movers, breadth, the live stream, company data, adjusted history)
// are exercised when the service has them and skipped, with the reason, when it answers 404.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FakePortal } from '../../dev/fake-portal/server.ts';
import { HISTORY_ANOMALIES } from '../../dev/fake-portal/dataset.ts';
import { priceLimitBand } from '../../src/market/price-limit.ts';
import { http, type RunningService } from '../helpers/service.ts';
import {
  browserSkipReason,
  DESKTOP,
  LOW_CONTRAST_SCRIPT,
  offlineContext,
  PHONE,
  RESULTS_DIR,
  startBrowserRig,
  stopBrowserRig,
} from './support.ts';

const skip = browserSkipReason();
if (skip) console.log(`# ${skip}`);

const COLOURS = { up: [10, 107, 53], down: [180, 35, 24], flag: [154, 77, 0] } as const;
const price = (n: number): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const signed = (n: number): string => `${n > 0 ? '+' : ''}${price(n)}`;
const ENGRO = 'ENGRO';

/** Why a test of `path` cannot run on this service (it does not route it), or undefined. */
async function missing(service: RunningService, path: string): Promise<string | undefined> {
  // A stream never ends: ask for its headers only (HEAD answers them without holding it open).
  if (path.startsWith('/stream/')) {
    const head = await http(service.url, path, { method: 'HEAD' });
    return head.status === 404
      ? `the service has no ${path.split('?')[0]} yet (another issue adds it): skipped`
      : undefined;
  }
  const res = await http(service.url, path);
  if (res.status === 404 && /^no such endpoint/.test(res.json?.error?.message ?? '')) {
    return `the service has no ${path.split('?')[0]} yet (another issue adds it): skipped`;
  }
  return undefined;
}

async function skipUnless(t: TestContext, service: RunningService, path: string): Promise<boolean> {
  const reason = await missing(service, path);
  if (reason) t.skip(reason);
  return reason === undefined;
}

describe('dashboard in Chromium', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;
  let context: BrowserContext;
  let external: string[];
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    // The live test moves the fake market; a short poll brings each move to the page quickly.
    ({ portal, service, browser } = await startBrowserRig({}, { STREAM_POLL_SECONDS: '2' }));
    ({ context, external } = await offlineContext(browser, DESKTOP));
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says when: the market state and the as-of time of what is shown', async () => {
    await page.goto(`${service.url}/`);
    const state = page.locator('#market-state');
    // The tests' service runs with the market clock off: the market counts as open, and says so.
    await page.locator('#market-state[data-state="open"]').waitFor();
    assert.equal(await state.textContent(), 'Market open');
    assert.equal(await page.locator('#market-next').textContent(), 'open around the clock');
    await page.locator('.hero-level').waitFor();
    const asOf = page.locator('#as-of');
    await page.waitForFunction(() => document.getElementById('as-of')?.dataset.asOf);
    const iso = (await asOf.getAttribute('data-as-of')) ?? '';
    assert.ok(!Number.isNaN(Date.parse(iso)), iso);
    assert.match((await asOf.textContent()) ?? '', /^Data as of (\w{3} \d{1,2} \w{3}, )?\d\d:\d\d PKT/);
    assert.match((await page.locator('#live').textContent()) ?? '', /^(Live|Delayed)$/);
  });

  it('shows the chosen index’s level and change, and every index in a compact table', async () => {
    const kse100 = portal.dataset.indexLevels.rows.find((r) => r.index === 'KSE100');
    assert.ok(kse100?.current != null && kse100.change != null && kse100.changePct != null);
    const hero = page.locator('.hero-level[data-index="KSE100"]');
    await hero.waitFor();
    assert.equal(await hero.locator('.level').textContent(), price(kse100.current));
    const change = (await hero.locator('.hero-change').textContent()) ?? '';
    assert.ok(change.includes(signed(kse100.change)), change);
    assert.ok(change.includes(`${signed(kse100.changePct)}%`), change);
    assert.match(
      (await hero.locator('.hero-change').getAttribute('class')) ?? '',
      kse100.change < 0 ? /\bdown\b/ : /\bup\b/,
    );

    const row = page.locator('table.indices tr[data-index="KSE100"]');
    assert.equal(await row.locator('td.level').textContent(), price(kse100.current));
    assert.equal(
      await page.locator('table.indices tbody tr').count(),
      portal.dataset.indexLevels.rows.length,
    );

    // Which constituents moved the index: the largest contributor is named.
    const constituents = (await http(service.url, '/indices/KSE100')).json.data as {
      symbol: string;
      idx_point: number | null;
    }[];
    const top = [...constituents].sort((a, b) => (b.idx_point ?? 0) - (a.idx_point ?? 0))[0];
    assert.ok(top);
    await page.locator('.contrib-list a').first().waitFor();
    assert.equal(await page.locator('.contrib-col').first().locator('a').first().textContent(), top.symbol);
  });

  it('picks another index and keeps the choice', async () => {
    await page.selectOption('#index-picker', 'KSE30');
    const kse30 = portal.dataset.indexLevels.rows.find((r) => r.index === 'KSE30');
    assert.ok(kse30?.current != null);
    await page.locator('.hero-level[data-index="KSE30"]').waitFor();
    assert.equal(await page.locator('.hero-level .level').textContent(), price(kse30.current));
    await page.reload();
    await page.locator('.hero-level[data-index="KSE30"]').waitFor();
    await page.selectOption('#index-picker', 'KSE100');
    await page.locator('.hero-level[data-index="KSE100"]').waitFor();
  });

  it('shows the breadth counts of the day', async () => {
    const counts = page.locator('#breadth-panel [data-breadth="advances"]');
    await counts.waitFor();
    let expected: { advances: number; declines: number; unchanged: number };
    const res = await http(service.url, '/market/breadth');
    if (res.status === 200) expected = res.json.data;
    else {
      // Without the breadth endpoint the page adds up the sector summary, as the portal's own page does.
      const sectors = (await http(service.url, '/sectors')).json.data as {
        advance: number | null;
        decline: number | null;
        unchanged: number | null;
      }[];
      const sum = (f: (s: (typeof sectors)[number]) => number | null): number =>
        sectors.reduce((n, s) => n + (f(s) ?? 0), 0);
      expected = {
        advances: sum((s) => s.advance),
        declines: sum((s) => s.decline),
        unchanged: sum((s) => s.unchanged),
      };
    }
    assert.equal(await counts.textContent(), `▲ ${expected.advances}`);
    assert.equal(await page.locator('[data-breadth="declines"]').textContent(), `▼ ${expected.declines}`);
    assert.equal(await page.locator('[data-breadth="unchanged"]').textContent(), String(expected.unchanged));
    assert.equal(
      await page.locator('#breadth-panel .breadth-bar').getAttribute('aria-label'),
      `${expected.advances} advancing, ${expected.unchanged} unchanged, ${expected.declines} declining`,
    );
  });

  it('lists the day’s top gainer, loser and most active symbol', async () => {
    type Row = { symbol: string; change_pct: number | null; volume: number | null };
    let gainer: string;
    let loser: string;
    let active: string;
    const res = await http(service.url, '/market/movers?by=gainers&limit=6');
    if (res.status === 200) {
      const first = async (by: string): Promise<string> =>
        ((await http(service.url, `/market/movers?by=${by}&limit=6`)).json.data as Row[])[0]!.symbol;
      [gainer, loser, active] = [await first('gainers'), await first('losers'), await first('active')];
    } else {
      const all = (await http(service.url, '/indices/ALLSHR')).json.data as Row[];
      gainer = [...all].sort((a, b) => (b.change_pct ?? 0) - (a.change_pct ?? 0))[0]!.symbol;
      loser = [...all].sort((a, b) => (a.change_pct ?? 0) - (b.change_pct ?? 0))[0]!.symbol;
      active = [...all].sort((a, b) => (b.volume ?? 0) - (a.volume ?? 0))[0]!.symbol;
    }
    for (const [id, symbol] of [
      ['gainers', gainer],
      ['losers', loser],
      ['active', active],
    ] as const) {
      const first = page.locator(`#movers-${id} tbody tr`).first();
      await first.waitFor();
      assert.equal(await first.getAttribute('data-symbol'), symbol, id);
    }
  });

  it('shows the screener with the day’s change, names, units, and a dash for no P/E', async () => {
    const table = page.locator('#screener-panel table');
    await table.locator('tbody tr').first().waitFor();
    const headings = await table.locator('thead th').allTextContents();
    for (const h of ['Price (PKR)', 'Change (PKR)', 'Change %', 'Volume (shares)', 'Market cap (PKR bn)']) {
      assert.ok(
        headings.some((x) => x.startsWith(h)),
        `${h} in ${headings.join(' | ')}`,
      );
    }
    const engro = (
      (await http(service.url, '/indices/ALLSHR')).json.data as {
        symbol: string;
        name: string;
        change: number;
        change_pct: number;
      }[]
    ).find((r) => r.symbol === ENGRO);
    assert.ok(engro);
    const row = table.locator(`tbody tr[data-symbol="${ENGRO}"]`);
    assert.match((await row.locator('th').textContent()) ?? '', new RegExp(`^${ENGRO}${engro.name}`));
    assert.match(
      (await row.locator('td[data-field="change"]').textContent()) ?? '',
      new RegExp(`${signed(engro.change).replace('+', '\\+')}$`),
    );
    assert.equal(
      await row.locator('td[data-field="change_pct"]').textContent(),
      `${signed(engro.change_pct)}%`,
    );
    // The first 50 by market cap are drawn; the rest on request.
    const total = ((await http(service.url, '/screener')).json.data as unknown[]).length;
    assert.equal(await table.locator('tbody tr').count(), Math.min(50, total));
    if (total > 50)
      await page.locator('#screener-panel button.more', { hasText: `Show all ${total}` }).click();
    assert.equal(await table.locator('tbody tr').count(), total);
    // POWER has no earnings: no ratio, never 0.00.
    const pe = await table.locator('tbody tr[data-symbol="POWER"] td').nth(5).textContent();
    assert.equal(pe, '—');
  });

  it('filters, sorts, and says when nothing matches', async () => {
    const table = page.locator('#screener-panel table');
    await page.getByLabel('Filter').fill('KSE30');
    assert.equal(await table.locator('tbody tr').count(), 30);
    await table.getByRole('button', { name: 'Price (PKR)' }).click();
    assert.equal(await table.locator('th[aria-sort]').textContent(), 'Price (PKR) ↓');
    const prices = await table.locator('tbody td[data-field="price"]').allTextContents();
    const values = prices.map((p) => Number(p.replace(/,/g, '')));
    assert.deepEqual(
      values,
      [...values].sort((a, b) => b - a),
    );
    await page.getByLabel('Filter').fill('engro corp');
    assert.equal(await table.locator('tbody tr').count(), 1, 'company names are searched');
    await page.getByLabel('Filter').fill('zzzz');
    assert.equal(await table.locator('tbody tr').count(), 0);
    assert.match(
      (await page.locator('#screener-panel .empty').textContent()) ?? '',
      /No symbol matches “zzzz”/,
    );
    await page.getByLabel('Filter').fill('');
    await shoot(page, 'market');
  });

  it('draws the index’s intraday chart', async (t) => {
    if (!(await skipUnless(t, service, '/indices/KSE100/intraday'))) return;
    await page.locator('.hero-chart[data-chart="intraday"] canvas').first().waitFor();
    assert.match((await page.locator('.hero-chart').getAttribute('aria-label')) ?? '', /KSE100 today/);
  });

  it('opens a symbol’s page from the search, with its header', async () => {
    await page.getByLabel(/Find a company/).fill('engro');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/symbol\/ENGRO$/);
    await page.locator('h1', { hasText: /^ENGRO$/ }).waitFor();
    const quote = (await http(service.url, '/stocks/ENGRO/quote')).json.data as {
      price: number;
      name: string;
      change: number;
      ldcp: number;
      low: number;
      high: number;
    };
    await page.locator('.quote-card .price').waitFor();
    assert.equal(await page.locator('.quote-card .price').textContent(), price(quote.price));
    assert.equal(await page.locator('.subtitle').textContent(), quote.name);
    assert.match(
      (await page.locator('.quote-change').textContent()) ?? '',
      new RegExp(signed(quote.change).replace('+', '\\+')),
    );
    assert.equal(await page.locator('.sector-chip').textContent(), 'FERTILIZER');
    const fact = (label: string) => page.locator(`[data-fact="${label}"] dd`);
    assert.equal(await fact('Day range (PKR)').textContent(), `${price(quote.low)} – ${price(quote.high)}`);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Karachi' }).format(Date.now());
    const band = priceLimitBand(quote.ldcp, today);
    const shownBand = (await fact('Circuit breaker (PKR)').textContent()) ?? '';
    // Quote extras, when the service gives them, may state the band themselves.
    assert.match(shownBand, /^[\d,.]+ – [\d,.]+$/);
    if (!(await http(service.url, '/stocks/ENGRO/quote')).json.data.circuit_breaker_low) {
      assert.equal(shownBand, `${price(band.lower)} – ${price(band.upper)}`);
    }
    await page.waitForFunction(() =>
      /\d/.test(document.querySelector('[data-fact="52-week range"] dd')?.textContent ?? ''),
    );
    // Focus moved to the new page's heading for keyboard and screen-reader users.
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
  });

  it('draws candles with volume on its own scale, and keeps the flags visible at every long range', async () => {
    await page.locator('.chart-canvas canvas').first().waitFor();
    assert.ok(await canvasHasColour(page, COLOURS.up), 'no up-coloured candle drawn');
    assert.ok(await canvasHasColour(page, COLOURS.down), 'no down-coloured candle drawn');
    // Two panes: price above, volume below, each with its own labelled scale.
    const panes = await page.locator('.chart-canvas table tr').count();
    assert.ok(panes >= 3, `expected price pane, separator and volume pane, got ${panes} rows`);
    for (const range of ['1M', '6M', '5Y', 'ALL', '1Y']) {
      const button = page.locator(`.ranges button[data-range="${range}"]`);
      await button.click();
      assert.equal(await button.getAttribute('aria-pressed'), 'true');
      if (range === '5Y' || range === 'ALL') {
        // The chart redraws on the next frames: poll for the flags rather than wait a fixed time.
        let drawn = false;
        for (let tries = 0; tries < 50 && !drawn; tries++) {
          drawn = await canvasHasColour(page, COLOURS.flag);
          if (!drawn) await page.waitForTimeout(100);
        }
        assert.ok(drawn, `flag markers not drawn at ${range}`);
      }
    }
    await shoot(page, 'symbol');
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');
  });

  it('marks the anomalous days and gives their reasons on hover', async () => {
    const { bonusExDate, zeroVolumeMoveDate, ohlcInconsistentDate } = HISTORY_ANOMALIES;
    const list = page.locator('.flag-list');
    // Each reason in words (its code only as data, not on screen).
    assert.equal(
      await list.locator(`li[data-date="${bonusExDate}"] li[data-reason="beyond_price_limit"]`).count(),
      1,
    );
    // Each reason in words (its code only as data, not on screen).
    assert.equal(
      await list.locator(`li[data-date="${zeroVolumeMoveDate}"] li[data-reason="zero_volume_move"]`).count(),
      1,
    );
    // Each reason in words (its code only as data, not on screen).
    assert.equal(
      await list
        .locator(`li[data-date="${ohlcInconsistentDate}"] li[data-reason="ohlc_inconsistent"]`)
        .count(),
      1,
    );

    await page.getByRole('button', { name: `Show ${bonusExDate} on the chart` }).click();
    const tooltip = page.locator('.chart-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    assert.match(
      (await tooltip.textContent()) ?? '',
      /2025-06-16: flagged.*beyond_price_limit.*circuit breaker/s,
    );
    assert.ok(await canvasHasColour(page, COLOURS.flag), 'no anomaly marker drawn');

    const pane = await page.locator('.chart-canvas table tr').first().locator('td').nth(1).boundingBox();
    assert.ok(pane);
    // Hovering the flagged day gives its reasons.
    await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2);
    await tooltip.waitFor({ state: 'visible' });
    assert.match((await tooltip.textContent()) ?? '', /beyond_price_limit/);
    await shoot(page, 'symbol-anomaly', false);
  });

  it('shows today’s intraday chart behind the 1D button', async (t) => {
    if (!(await skipUnless(t, service, '/stocks/ENGRO/intraday'))) return;
    const oneDay = page.locator('.ranges button[data-range="1D"]');
    await oneDay.waitFor();
    await oneDay.click();
    await page.locator('.intraday-canvas canvas').first().waitFor();
    await page.locator('.ranges button[data-range="1Y"]').click();
  });

  it('switches to adjusted prices with corporate-action markers', async (t) => {
    if (!(await skipUnless(t, service, '/stocks/ENGRO/corporate-actions'))) return;
    const adjusted = page.locator('.mode-toggle button[data-mode="adjusted"]');
    await adjusted.waitFor();
    await adjusted.click();
    await page.locator('.mode-toggle button[data-mode="adjusted"][aria-pressed="true"]').waitFor();
    await page.locator('.chart-canvas canvas').first().waitFor();
    assert.match((await page.locator('.chart-key').textContent()) ?? '', /adjusted/);
    await page.locator('.mode-toggle button[data-mode="raw"]').click();
    await page.locator('.mode-toggle button[data-mode="raw"][aria-pressed="true"]').waitFor();
  });

  it('shows the company profile, announcements and financials', async (t) => {
    const needs = [
      '/stocks/ENGRO/profile',
      '/stocks/ENGRO/announcements',
      '/stocks/ENGRO/financials?period=annual',
    ];
    const reasons = (await Promise.all(needs.map((p) => missing(service, p)))).filter(Boolean);
    // The financial reports list is there in any case.
    await page.locator('.report-list li').first().waitFor();
    if (reasons.length === needs.length) return t.skip(reasons.join('; '));
    if (!reasons.some((r) => r?.includes('/profile'))) {
      const profile = (await http(service.url, '/stocks/ENGRO/profile')).json.data as {
        description: string | null;
      };
      await page.locator('#profile-heading').waitFor();
      if (profile.description)
        assert.equal(await page.locator('.profile-text').textContent(), profile.description);
    }
    if (!reasons.some((r) => r?.includes('/announcements'))) {
      const items = (await http(service.url, '/stocks/ENGRO/announcements')).json.data as { title: string }[];
      if (items[0]) await page.locator('.news-list li', { hasText: items[0].title }).first().waitFor();
    }
    if (!reasons.some((r) => r?.includes('/financials'))) {
      await page.locator('#financials-heading').waitFor();
    }
  });

  it('leaves out, without any error, the parts whose endpoints the service lacks', async () => {
    assert.equal(await page.locator('main [role="alert"]').count(), 0);
    const text = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(text, /\b(HTTP|404|not_found|undefined|NaN)\b/);
  });

  it('brings live prices from the stream to the page', async (t) => {
    if (!(await skipUnless(t, service, '/stream/quotes?symbols=ENGRO'))) return;
    t.diagnostic('moves the fake portal’s market and waits for the service to stream it');
    await page.goto(`${service.url}/#/symbol/${ENGRO}`);
    await page.locator('.quote-card .price').waitFor();
    const mover = setInterval(() => portal.motion.tick([ENGRO]), 1_000);
    t.after(() => clearInterval(mover));
    const streamed = await collectStream(service.url, ENGRO, 90_000);
    await page.locator('#live[data-state="live"]').waitFor({ timeout: 90_000 });
    const before = await page.locator('.quote-card .price').textContent();
    await page.waitForFunction(
      (old) => document.querySelector('.quote-card .price')?.textContent !== old,
      before,
      { timeout: 90_000 },
    );
    const now = (await page.locator('.quote-card .price').textContent()) ?? '';
    assert.ok(
      streamed.prices.some((p) => price(p) === now),
      `${now} is not among the streamed prices ${streamed.prices.join(', ')}`,
    );
    streamed.stop();
  });

  it('shows a sector’s symbols', async () => {
    await page.goto(`${service.url}/#/`);
    await page.locator('table.sectors a', { hasText: 'CEMENT' }).click();
    await page.waitForURL(/#\/sector\/0804$/);
    await page.locator('h1', { hasText: 'CEMENT' }).waitFor();
    const members = (await http(service.url, '/sectors/0804/stocks')).json.data as string[];
    await page.locator('.screener tbody tr').first().waitFor();
    assert.equal(await page.locator('.screener tbody tr').count(), members.length);
    await shoot(page, 'sector');
  });

  it('is usable by keyboard, labelled, and readable', async () => {
    await page.goto(`${service.url}/`);
    await page.locator('#screener-panel tbody tr').first().waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    const sort = page.locator('#screener-panel').getByRole('button', { name: 'Symbol' });
    await sort.focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#screener-panel th[aria-sort]').getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');
    const unlabelled = await page.evaluate(
      () =>
        [...document.querySelectorAll('input, select')].filter(
          (i) => (i as HTMLInputElement).labels === null || (i as HTMLInputElement).labels!.length === 0,
        ).length,
    );
    assert.equal(unlabelled, 0);
  });

  it('fits a phone: no page-wide sideways scrolling, and a hint where a table scrolls', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize(PHONE);
    for (const [hash, name, ready] of [
      ['#/', 'market', '#screener-panel tbody tr'],
      ['#/symbol/ENGRO', 'symbol', '.chart-canvas canvas'],
      ['#/sector/0804', 'sector', '.screener tbody tr'],
    ] as const) {
      await phone.goto(`${service.url}/${hash}`);
      // The symbol's chart is drawn once it is scrolled into view.
      if (hash === '#/symbol/ENGRO') await phone.locator('.chart').scrollIntoViewIfNeeded();
      await phone.locator(ready).first().waitFor();
      await phone.waitForTimeout(300);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${hash} is ${overflow}px wider than the screen`);
      if (hash !== '#/symbol/ENGRO')
        assert.ok(await phone.locator('.scroll-hint').first().isVisible(), `${hash}: no scroll hint`);
      await shoot(phone, name);
    }
    await phone.goto(`${service.url}/docs`);
    await phone.locator('.opblock').first().waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `/docs is ${overflow}px wider than the screen`);
    await shoot(phone, 'docs', false);
    await phone.close();
  });

  it('serves the API reference offline, in the project’s colours, with examples', async () => {
    await page.goto(`${service.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    assert.equal(await page.title(), 'PSX market data · API reference');
    const doc = (await http(service.url, '/openapi.json')).json as { paths: Record<string, object> };
    assert.equal(await page.locator('.opblock').count(), Object.keys(doc.paths).length);
    const bar = await page.evaluate(
      () => getComputedStyle(document.querySelector('.topbar')!).backgroundColor,
    );
    assert.equal(bar, 'rgb(11, 42, 34)');
    assert.match(
      (await page.locator('.topbar a.link img').getAttribute('src')) ?? '',
      /^data:image\/svg\+xml/,
    );
    await page.locator('#operations-stocks-getQuote button.opblock-summary-control').click();
    const body = page.locator('#operations-stocks-getQuote .opblock-body');
    await body.locator('.example, .highlight-code').first().waitFor();
    const text = (await body.textContent()) ?? '';
    assert.ok(text.includes('Engro Corporation Limited'), 'success example shown');
    assert.ok(text.includes("api.GET('/stocks/{symbol}/quote'"), 'typed-client call shown');
    await shoot(page, 'docs', false);
  });

  it('loaded nothing from outside the service and raised no script errors', () => {
    assert.deepEqual(external, []);
    assert.deepEqual(pageErrors, []);
  });
});

describe('dashboard when the portal is down', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // A service of its own: its cache is cold, so with the portal down it has nothing to answer.
    ({ portal, service, browser } = await startBrowserRig());
    portal.fail({ mode: 'down' });
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says what is wrong in plain words, and Retry loads once the portal is back', async () => {
    const { context, external } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${service.url}/`);
    // The market's overview is answered, each part saying why it is missing, in words.
    const alert = page.locator('#indices-panel [data-part-pending="exchange_unavailable"]');
    await alert.waitFor();
    assert.equal((await http(service.url, '/indices')).json.error.code, 'exchange_unavailable');
    assert.match((await alert.textContent()) ?? '', /portal cannot be reached/);
    await page.locator('#screener-panel [role="alert"]').waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    assert.doesNotMatch(
      text,
      /HTTP|503|exchange_unavailable|UND_ERR/,
      'no status codes or internals on screen',
    );
    await shoot(page, 'error');
    assert.deepEqual(await page.evaluate<string[]>(LOW_CONTRAST_SCRIPT), [], 'text below WCAG AA contrast');

    portal.clear();
    await alert.getByRole('button', { name: 'Try again now' }).click();
    await page.locator('table.indices tr[data-index="KSE100"]').waitFor();
    assert.deepEqual(external, []);
    await context.close();
  });
});

describe('dashboard over its request limit', { skip }, () => {
  let portal: FakePortal;
  let service: RunningService;
  let browser: Browser;

  before(async () => {
    // Fewer requests a minute than a sector's first load makes (the market overview, its members,
    // their quotes): 2 a minute refuses the members' quotes at first and lets them through once
    // the window has passed.
    ({ portal, service, browser } = await startBrowserRig({}, { RATE_LIMIT_PER_MINUTE: '2' }));
  });

  after(() => stopBrowserRig({ portal, service, browser }));

  it('says how long to wait, counts down, and loads by itself afterwards', async () => {
    const { context } = await offlineContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${service.url}/#/sector/0804`);
    const wait = page.locator('.retry-wait').first();
    await wait.waitFor();
    // A wait of the whole window reads "1 minute".
    const match = /^It will ask again in (?:(\d+) seconds?|(1) minute)\.$/.exec(
      (await wait.textContent()) ?? '',
    );
    assert.ok(match, (await wait.textContent()) ?? '');
    const seconds = match[1] !== undefined ? Number(match[1]) : 60;
    assert.ok(seconds > 0 && seconds <= 60, `waits ${seconds} s, within the limit's one-minute window`);
    assert.match(
      (await page.locator('main .error .error-message').first().textContent()) ?? '',
      /asked this page to wait/,
    );
    assert.doesNotMatch(
      (await page.locator('main').textContent()) ?? '',
      /HTTP|rate_limited|Too Many Requests|Retry-After/,
    );
    await shoot(page, 'rate-limited', false);
    // The window passes and every refused panel loads without anyone pressing anything.
    try {
      await page.waitForFunction(() => document.querySelectorAll('main .error').length === 0, undefined, {
        timeout: 150_000,
        polling: 1000,
      });
    } catch (err) {
      await shoot(page, 'rate-limited-still', false);
      throw new Error(`still refused: ${(await page.locator('main').innerText()).slice(0, 600)}`, {
        cause: err,
      });
    }
    await page.locator('.sector-members tbody tr').first().waitFor();
    await page.locator('.sector-summary dl').waitFor();
    await context.close();
  });
});

/** A full-page screenshot as test-results/<name>-<viewport width>.png. */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(RESULTS_DIR, `${name}-${width}.png`), fullPage });
}

/** Prices the service streams for `symbol`, collected in the background until stop(). */
async function collectStream(
  base: string,
  symbol: string,
  maxMs: number,
): Promise<{ prices: number[]; stop: () => void }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), maxMs);
  const prices: number[] = [];
  const res = await fetch(`${base}/stream/quotes?symbols=${symbol}`, { signal: controller.signal });
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split('\n').find((l) => l.startsWith('data:'));
          if (!data) continue;
          const q = JSON.parse(data.slice(5)) as { price: number | null };
          if (q.price !== null) prices.push(q.price);
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    prices,
    stop: () => {
      clearTimeout(timer);
      controller.abort();
    },
  };
}

/** Whether any chart canvas has a pixel of about this colour. */
function canvasHasColour(page: Page, rgb: readonly [number, number, number]): Promise<boolean> {
  // No named helpers inside: tsx compiles them with a `__name` wrapper the page does not have.
  return page.evaluate(
    ([r, g, b]) => {
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
    },
    rgb as [number, number, number],
  );
}
