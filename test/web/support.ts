// Browser-test support: the dashboard build (made on demand, so a fresh clone's `npm test` works)
// and Debian's Chromium driven by playwright-core, never a downloaded browser.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startFakePortal, type FakePortal, type FakePortalOptions } from '../../dev/fake-portal/server.ts';
import { startService, type RunningService } from '../helpers/service.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS_DIR = join(ROOT, 'test-results');
const DIST_INDEX = join(ROOT, 'web/dist/index.html');
// Everything the bundle is built from: the app, and what it imports from src/.
const SOURCES = [
  'web/index.html',
  'web/vite.config.ts',
  'web/src',
  'web/public',
  'packages/client/src',
  'src/market/anomalies.ts',
  'src/market/price-limit.ts',
];

/** The two widths every view is tested at: a desktop and a phone. */
export const DESKTOP = { width: 1400, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const VIEWPORTS = [DESKTOP, PHONE];
/** How long a test waits for something a user would see (a loaded 2-core machine is slow). */
export const WAIT = { timeout: 20_000 };

/** How far the page scrolls sideways (≤ 1: nothing is cut off). */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return `Debian's Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it): browser tests skipped`;
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds web/dist with Vite unless it is newer than every source it is built from (≈1 s when it is not). */
export async function ensureWebBuild(): Promise<void> {
  const built = existsSync(DIST_INDEX) ? statSync(DIST_INDEX).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map((p) => newestMtime(join(ROOT, p))));
  if (built > newest) return;
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'web/vite.config.ts'), logLevel: 'warn' });
}

// Without the background-networking flags Chromium tries to reach Google's hosts at start; this
// machine's network is closed, and the tests must never depend on anything but 127.0.0.1.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium with a fresh profile (playwright makes a new temporary user-data-dir per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** What a browser test runs against: a fake portal, the service on it, and Chromium. */
export interface BrowserRig {
  portal: FakePortal;
  service: RunningService;
  browser: Browser;
}

/**
 * The dashboard built, then a fake portal with `portal`'s options, the service on it with `env`
 * (and `service`'s start options) and Chromium, in that order. A step that fails closes what the
 * steps before it started.
 */
export async function startBrowserRig(
  portal: FakePortalOptions = {},
  env: Record<string, string> = {},
  service?: Parameters<typeof startService>[2],
): Promise<BrowserRig> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  await ensureWebBuild();
  const started: Partial<BrowserRig> = {};
  try {
    started.portal = await startFakePortal(portal);
    started.service = await startService(started.portal.url, env, service);
    started.browser = await launchChromium();
    return started as BrowserRig;
  } catch (err) {
    await stopBrowserRig(started);
    throw err;
  }
}

/** Closes what startBrowserRig started, the browser first. */
export async function stopBrowserRig(rig: Partial<BrowserRig>): Promise<void> {
  await rig.browser?.close();
  await rig.service?.close();
  await rig.portal?.close();
}

/**
 * A context that refuses every request that does not go to the loopback service: the pages must
 * work offline, and `external` lists anything they tried to fetch from elsewhere.
 */
export async function offlineContext(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; external: string[] }> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const external: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    external.push(url.href);
    return route.abort('blockedbyclient');
  });
  return { context, external };
}

/**
 * Text whose contrast with its background is below WCAG AA (4.5:1; 3:1 for large text), as
 * `text (ratio)` strings. Plain JavaScript in a string: it runs in the page, untouched by tsx.
 */
export const LOW_CONTRAST_SCRIPT = `(() => {
  const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] >= 0.5)) return c;
    }
    return [255, 255, 255];
  };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.getClientRects().length === 0 || el.closest('.sr-only, [hidden]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const [a, b] = [lum(parse(style.color)), lum(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(el.textContent.trim().slice(0, 40) + ' (' + ratio.toFixed(2) + ')');
  }
  return out;
})()`;
