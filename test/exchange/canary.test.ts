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
    // Monday 2026-11-23 09:00 Karachi: the latest weekday before it is the fake market's day.
    env: { ...base, CANARY_NOW: '2026-11-23T04:00:00Z', ...env },
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
  'daily-file',
];

/** Requests for the closing files, by path. */
function downloads(portal: FakePortal): Record<string, number> {
  return Object.fromEntries(
    Object.entries(portal.counts().requests).filter(([k]) => k.includes('/download/mkt_summary/')),
  );
}

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
    // 600 a minute: one request every 100 ms, so the 21 requests take at least 2 s.
    const run = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '600' });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.stderr, '');
    for (const kind of KINDS) assert.equal(rowOf(run.stdout, kind).at(-1), 'ok', kind);
    const screener = rowOf(run.stdout, 'screener');
    assert.deepEqual(screener.slice(1, 5), ['GET /screener', '200', '62', '11/11']);
    assert.equal(rowOf(run.stdout, 'market-watch')[4], '11/11');
    // The closing file of Friday 2026-11-20 (the latest weekday before Monday): every line read.
    const file = rowOf(run.stdout, 'daily-file');
    assert.equal(file[1], 'GET /download/mkt_summary/2026-11-20.Z');
    assert.equal(file[2], '200');
    assert.ok(Number(file[3]) > 60, `the day's rows: ${file[3]}`);
    assert.deepEqual(file.slice(4), ['12/12', '-', 'ok']);

    const counts = portal.counts();
    assert.equal(counts.total, KINDS.length, JSON.stringify(counts.requests));
    for (const [request, n] of Object.entries(counts.requests)) assert.equal(n, 1, request);
    assert.equal(counts.requests['GET /'], 1, 'the token page once');
    assert.deepEqual(counts.rejected, {}, 'every request carried the token and the browser headers');
    assert.ok(run.ms >= 2_000, `21 requests paced 100 ms apart took ${Math.round(run.ms)} ms`);
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

  it('exits 1 naming daily-file and its field when the closing file drifts; restored, 0', async () => {
    // SECTOR dropped from every line: the name then sits where the 4-digit code should be.
    portal.drift({ path: '/download/mkt_summary/', dropColumn: 'SECTOR' });
    const dropped = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '0' });
    assert.equal(dropped.code, 1, `${dropped.stdout}\n${dropped.stderr}`);
    assert.deepEqual(rowOf(dropped.stdout, 'daily-file').slice(1), [
      'GET /download/mkt_summary/2026-11-20.Z',
      '200',
      '-',
      '11/12',
      'sector',
      'changed',
    ]);
    assert.match(
      dropped.stderr,
      /^canary: daily-file \(GET \/download\/mkt_summary\/2026-11-20\.Z\) is changed; missing "sector": .*no line reads/m,
    );
    assert.equal(dropped.stderr.trim().split('\n').length, 1, 'only the closing file drifted');

    // A body that is neither ZIP nor gzip (the bare closing11.lis).
    portal.restore();
    portal.drift({ path: '/download/mkt_summary/', unpacked: true });
    const unpacked = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '0' });
    assert.equal(unpacked.code, 1, `${unpacked.stdout}\n${unpacked.stderr}`);
    assert.deepEqual(rowOf(unpacked.stdout, 'daily-file').slice(-2), ['zip or gzip', 'changed']);
    assert.match(
      unpacked.stderr,
      /daily-file .* is changed; missing "zip or gzip": .*a body that is neither ZIP nor gzip/,
    );

    portal.restore();
    const restored = await runCanary({ EXCHANGE_BASE_URL: portal.url, EXCHANGE_FETCH_LIMIT_GLOBAL: '0' });
    assert.equal(restored.code, 0, `${restored.stdout}\n${restored.stderr}`);
    assert.equal(rowOf(restored.stdout, 'daily-file').at(-1), 'ok');
  });

  it('steps back over days without a file (the no-session page) to the latest that has one', async () => {
    // Wednesday 2026-11-25: Tuesday and Monday answer the 404 page (the fake market ends on Friday
    // 2026-11-20); the weekend is skipped without a request.
    const run = await runCanary({
      EXCHANGE_BASE_URL: portal.url,
      EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
      CANARY_NOW: '2026-11-25T04:00:00Z',
    });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.deepEqual(downloads(portal), {
      'GET /download/mkt_summary/2026-11-24.Z': 1,
      'GET /download/mkt_summary/2026-11-23.Z': 1,
      'GET /download/mkt_summary/2026-11-20.Z': 1,
    });
    assert.equal(rowOf(run.stdout, 'daily-file')[1], 'GET /download/mkt_summary/2026-11-20.Z');
  });

  it('gives up after six weekdays without a file: exit 2, the closing file could not be checked', async () => {
    const run = await runCanary({
      EXCHANGE_BASE_URL: portal.url,
      EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
      CANARY_NOW: '2026-12-10T04:00:00Z',
    });
    assert.equal(run.code, 2, `${run.stdout}\n${run.stderr}`);
    assert.equal(Object.keys(downloads(portal)).length, 6, JSON.stringify(downloads(portal)));
    assert.deepEqual(rowOf(run.stdout, 'daily-file').slice(-3), ['-', '-', 'unreachable']);
    assert.match(
      run.stderr,
      /daily-file .* is unreachable: the 6 weekdays before 2026-12-10 each answered the no-session page/,
    );
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
