// `npm run canary` as operators run it: a child process against the fake portal (never the real
// one), normal and drifted. What a cron job sees: the exit status, the table, the lines naming the
// page and the field, and how many requests reached the portal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, afterEach, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';

interface CanaryRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

async function runCanary(env: Record<string, string>, args: string[] = []): Promise<CanaryRun> {
  const started = performance.now();
  const base: Record<string, string | undefined> = { ...process.env };
  // Only what the test sets: an operator's own settings must not leak into the run.
  for (const key of Object.keys(base)) if (/^(EXCHANGE_|CANARY_)/.test(key)) delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/canary.ts', ...args], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr, ms: performance.now() - started };
}

/** The table's row for `page`, split into its columns. */
function rowOf(stdout: string, page: string): string[] {
  const line = stdout.split('\n').find((l) => l.startsWith(`${page} `));
  assert.ok(line, `no row for ${page} in:\n${stdout}`);
  return line.trim().split(/\s{2,}/);
}

const KINDS = [
  'token',
  'symbols',
  'screener',
  'market-watch',
  'index-constituents',
  'index-levels',
  'sector-summary',
  'history',
  'reports',
  'company',
  'eod',
  'payouts',
  'intraday',
  'index-series',
  'market-payouts',
  'calendar',
  'announcements',
  'debt-market',
  'trading-board',
  'eligible-scrips',
];

describe('npm run canary', () => {
  let portal: FakePortal;

  before(async () => {
    portal = await startFakePortal();
  });
  afterEach(() => {
    portal.restore();
    portal.clear();
    portal.resetCounts();
  });
  after(async () => {
    await portal.close();
  });

  it('exits 0 with every kind ok, one request per kind plus the token page, paced to the global budget', async () => {
    // 600 a minute: one request every 100 ms, so the 20 requests take at least 1.9 s.
    const run = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '600' });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.stderr, '');
    for (const kind of KINDS) assert.equal(rowOf(run.stdout, kind).at(-1), 'ok', kind);
    const screener = rowOf(run.stdout, 'screener');
    assert.deepEqual(screener.slice(1, 5), ['GET /screener', '200', '62', '11/11']);
    assert.equal(rowOf(run.stdout, 'market-watch')[4], '11/11');

    const counts = portal.counts();
    assert.equal(counts.total, KINDS.length, JSON.stringify(counts.requests));
    for (const [request, n] of Object.entries(counts.requests)) assert.equal(n, 1, request);
    assert.equal(counts.requests['GET /'], 1, 'the token page once');
    assert.deepEqual(counts.rejected, {}, 'every request carried the token and the browser headers');
    assert.ok(run.ms >= 1_900, `20 requests paced 100 ms apart took ${Math.round(run.ms)} ms`);
  });

  it('exits 1 naming the page and the field when a column is dropped or a table removed', async () => {
    portal.drift({ path: '/market-watch', dropColumn: 'LDCP' });
    portal.drift({ path: '/debt-market', removeTables: true });
    const run = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '0' });
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);

    const watch = rowOf(run.stdout, 'market-watch');
    assert.deepEqual(watch.slice(2), ['200', '61', '10/11', 'ldcp', 'changed']);
    const debt = rowOf(run.stdout, 'debt-market');
    assert.equal(debt.at(-1), 'failing');
    assert.equal(rowOf(run.stdout, 'screener').at(-1), 'ok', 'the other pages are still ok');

    assert.match(run.stderr, /^canary: market-watch \(GET \/market-watch\) is changed; missing "ldcp"/m);
    assert.match(run.stderr, /^canary: debt-market \(GET \/debt-market\) is failing.*no table/m);
    assert.equal(run.stderr.trim().split('\n').length, 2, run.stderr);
    assert.equal(portal.counts().total, KINDS.length, 'a drifted page is not asked again');
  });

  it('asks for the token page once even when it fails, and the pages go out without a token', async () => {
    // The first request (the home page) answers 503; the portal then refuses every tokenless page.
    portal.fail({ mode: 'status', status: 503, path: '/', times: 1 });
    // 200 a minute: 300 ms apart, so the run outlasts the client's usual 5 s before asking again.
    const run = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '200' });
    assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
    assert.equal(rowOf(run.stdout, 'token').at(-1), 'unreachable');
    assert.equal(rowOf(run.stdout, 'screener').slice(2, 3)[0], '403');
    const counts = portal.counts();
    assert.equal(counts.requests['GET /'], 1, JSON.stringify(counts.requests));
    assert.equal(counts.total, KINDS.length);
  });

  it('exits 2 when a page cannot be reached, without retrying it; --json gives the same findings', async () => {
    portal.fail({ mode: 'status', status: 503, path: '/eligible-scrips' });
    const run = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '0' }, [
      '--json',
    ]);
    assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
    const report = JSON.parse(run.stdout) as {
      portal: string;
      pages: { page: string; status: number | null; state: string; missing: string[] }[];
    };
    assert.equal(report.portal, portal.url);
    assert.deepEqual(
      report.pages.map((p) => p.page),
      KINDS,
    );
    const scrips = report.pages.find((p) => p.page === 'eligible-scrips')!;
    assert.equal(scrips.state, 'unreachable');
    assert.equal(scrips.status, 503);
    assert.equal(portal.counts().requests['GET /eligible-scrips'], 1, 'no retry');
    assert.match(run.stderr, /^canary: eligible-scrips \(GET \/eligible-scrips\) is unreachable/m);
  });
});
