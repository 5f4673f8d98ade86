// `npm run lighthouse`: Lighthouse (mobile preset: emulated phone, simulated slow 4G and CPU
// slowdown) on every dashboard view, in Debian's Chromium, against the demo's fake portal and the
// service, all on 127.0.0.1. Prints the scores and writes them to test-results/lighthouse.json.
// A benchmark-like measure, not a test: docs/lighthouse.md records the figures and the targets.
//   npm run lighthouse [-- --runs N] [-- --views market,sector]   (the median run of N per view;
//   default 3; every view unless --views names some)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { startFakePortal } from '../dev/fake-portal/server.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger, createService } from '../src/service.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = new URL('../', import.meta.url).pathname;
// As in test/web/support.ts: nothing but 127.0.0.1 may be contacted.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const VIEWS = [
  { name: 'market', hash: '#/' },
  { name: 'symbol', hash: '#/symbol/ENGRO' },
  { name: 'sector', hash: '#/sector/0804' },
  { name: 'week', hash: '#/week' },
  { name: 'debt', hash: '#/debt' },
];
// What the views ask for, fetched once before measuring: scores are for a service whose cache is
// warm, as it is during a trading day, not for its first portal fetches.
const WARM = [
  '/indices',
  '/indices/KSE100',
  '/indices/ALLSHR',
  '/sectors',
  '/screener',
  '/stocks/ENGRO/quote',
  '/stocks/ENGRO/historical',
  '/stocks/ENGRO/fundamentals',
  '/sectors/0804/stocks',
  // The overviews the views ask for (each part from the same cached pages as above).
  '/market/overview?index=KSE100&movers=6',
  '/stocks/ENGRO/overview',
  '/debt',
  '/boards/bills-and-bonds',
  ...weekPaths(Date.now()),
];

/** The week view's two requests (web/src/views/week.ts): its Karachi week and 45 days back. */
function weekPaths(now: number): string[] {
  const day = 86_400_000;
  const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const local = now + 5 * 3_600_000;
  const monday = local - ((new Date(local).getUTCDay() + 6) % 7) * day;
  return [
    `/market/payouts?from=${iso(local - 45 * day)}&to=${iso(local)}`,
    `/market/calendar?from=${iso(monday)}&to=${iso(monday + 6 * day)}`,
  ];
}
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 3) : 3;
const viewsArg = process.argv.indexOf('--views');
const ONLY = viewsArg > 0 ? new Set((process.argv[viewsArg + 1] ?? '').split(',')) : null;

interface Scores {
  performance: number;
  accessibility: number;
  'best-practices': number;
  cls: number;
  lcpMs: number;
  tbtMs: number;
}

async function main(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'web/vite.config.ts'), logLevel: 'warn' });

  const portal = await startFakePortal({ delayMs: 150 });
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-lighthouse-'));
  const config = loadConfig({
    EXCHANGE_BASE_URL: portal.url,
    CACHE_DIR: dir,
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    LOG_LEVEL: 'warn',
    PARSER_WARM_UP: 'false',
    // Three runs of three views from one address load ~30 endpoints a minute each: past the default
    // 60 requests a minute, later runs met 429s (console errors, the countdown panels shifting the
    // layout). One person browsing does not; the limit's own view is tested in test/web.
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const service = await createService(config, createLogger(config.logLevel));
  const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
  for (const path of WARM) await (await fetch(`${base}${path}`)).arrayBuffer();

  const chrome = await startChromium();
  const results: Record<string, Scores> = {};
  try {
    for (const view of VIEWS.filter((v) => !ONLY || ONLY.has(v.name))) {
      const runs: Scores[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(`${base}/${view.hash}`, chrome.port));
      runs.sort((a, b) => a.performance - b.performance);
      results[view.name] = runs[Math.floor(runs.length / 2)]!;
    }
  } finally {
    chrome.process.kill();
    await service.close();
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(`Lighthouse ${lighthouseVersion()}, mobile preset, median of ${RUNS} run(s) per view\n`);
  console.log('| view | performance | accessibility | best practices | CLS | LCP | TBT |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, s] of Object.entries(results)) {
    console.log(
      `| ${name} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.cls.toFixed(3)} | ${(s.lcpMs / 1000).toFixed(1)} s | ${Math.round(s.tbtMs)} ms |`,
    );
  }
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(join(ROOT, 'test-results/lighthouse.json'), JSON.stringify(results, null, 2));
}

async function measure(url: string, port: number): Promise<Scores> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (process.env.LIGHTHOUSE_SAVE) {
    writeFileSync(
      join(process.env.LIGHTHOUSE_SAVE, `${url.replace(/\W+/g, '_')}.json`),
      JSON.stringify(result.lhr),
    );
  }
  if (runtimeError) throw new Error(`${url}: ${runtimeError.code} ${runtimeError.message}`);
  const score = (c: (typeof CATEGORIES)[number]): number => Math.round((categories[c]?.score ?? 0) * 100);
  for (const c of CATEGORIES) {
    const failing = (categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${ref.id} (${audits[ref.id]?.displayValue ?? audits[ref.id]?.score})`);
    if (failing.length > 0) console.error(`${url} ${c}: below 0.9: ${failing.join(', ')}`);
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
  };
}

/** Debian's Chromium with a DevTools port of its choosing, on loopback. */
function startChromium(): Promise<{ process: ChildProcess; port: number }> {
  const profile = mkdtempSync(join(tmpdir(), 'psxmd-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.on('exit', () => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Chromium's helpers may still be closing files; a temporary profile left behind is harmless.
    }
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
      if (m) resolve({ process: child, port: Number(m[1]) });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`chromium exited (${code}) before listening:\n${seen}`)));
  });
}

function lighthouseVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return '';
  }
}

await main();
