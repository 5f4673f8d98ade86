// The fake portal over real HTTP: the gate, counting, failure injection, page structure basics,
// determinism, the control API and the CLI.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { createDataset, ENGRO_HISTORY_ROWS, HISTORY_ANOMALIES } from '../../dev/fake-portal/dataset.ts';
import { dateOrder, formatDateText } from '../../dev/fake-portal/pages.ts';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const agent = new Agent({ keepAliveTimeout: 10_000 });

async function call(
  base: string,
  path: string,
  opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const res = await request(base + path, {
    method: opts.method ?? 'GET',
    headers: opts.headers ?? {},
    body: opts.body,
    dispatcher: agent,
  });
  return { status: res.statusCode, body: await res.body.text(), headers: res.headers };
}

function browser(token: string): Record<string, string> {
  return {
    'user-agent': UA,
    'x-requested-with': 'XMLHttpRequest',
    'x-req-id': token,
    referer: 'https://dps.psx.com.pk/',
  };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function tbodyRows(html: string, tableMarker: string): number {
  const start = html.indexOf(tableMarker);
  assert.ok(start >= 0, `table ${tableMarker} present`);
  const body = html.slice(html.indexOf('<tbody', start), html.indexOf('</tbody>', start));
  return body.split('<tr').length - 1;
}

function tokenOf(home: string): string {
  const m = /window\.__ps = (\{.*?\});<\/script>/.exec(home);
  assert.ok(m, 'home page carries window.__ps');
  const ps = JSON.parse(m[1] as string) as { _k: string; lc: string; tz: string; rv: string };
  assert.equal(ps.lc, 'en');
  assert.equal(ps.tz, 'Asia/Karachi');
  return ps._k;
}

let portal: FakePortal;

before(async () => {
  portal = await startFakePortal();
});

after(async () => {
  await portal.close();
  await agent.close();
});

beforeEach(() => {
  portal.clear();
  portal.resetCounts();
});

describe('gate', () => {
  test('GET / needs no X-Requested-With and issues the current 43-character token', async () => {
    const res = await call(portal.url, '/', { headers: { 'user-agent': UA } });
    assert.equal(res.status, 200);
    const token = tokenOf(res.body);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(token, portal.token());
    assert.match(res.body, /class="topIndices__item"/);
  });

  test('a non-browser User-Agent gets 404', async () => {
    const res = await call(portal.url, '/screener', {
      headers: { 'x-requested-with': 'XMLHttpRequest', 'x-req-id': portal.token() },
    });
    assert.equal(res.status, 404);
    assert.equal(portal.counts().rejected['user-agent'], 1);
  });

  test('no X-Requested-With, a bad token or a foreign Origin get 403', async () => {
    const good = browser(portal.token());
    const noXrw = { ...good };
    delete noXrw['x-requested-with'];
    assert.equal((await call(portal.url, '/screener', { headers: noXrw })).status, 403);
    assert.equal((await call(portal.url, '/screener', { headers: browser('x'.repeat(43)) })).status, 403);
    const noToken = { ...good };
    delete noToken['x-req-id'];
    assert.equal((await call(portal.url, '/screener', { headers: noToken })).status, 403);
    const foreign = { ...good, origin: 'https://example.com' };
    assert.equal((await call(portal.url, '/screener', { headers: foreign })).status, 403);
    const own = { ...good, origin: 'https://dps.psx.com.pk' };
    assert.equal((await call(portal.url, '/screener', { headers: own })).status, 200);
    assert.deepEqual(portal.counts().rejected, { 'x-requested-with': 1, token: 2, origin: 1 });
  });

  test('a valid token gets 200; rotation invalidates the old token', async () => {
    const old = portal.token();
    assert.equal((await call(portal.url, '/market-watch', { headers: browser(old) })).status, 200);
    const fresh = portal.rotateToken();
    assert.notEqual(fresh, old);
    assert.equal((await call(portal.url, '/market-watch', { headers: browser(old) })).status, 403);
    const home = await call(portal.url, '/', { headers: { 'user-agent': UA } });
    assert.equal(tokenOf(home.body), fresh);
    assert.equal((await call(portal.url, '/market-watch', { headers: browser(fresh) })).status, 200);
  });

  test('full pages carry the current token after rotation (cached pages are not stale)', async () => {
    const t1 = portal.rotateToken();
    const first = await call(portal.url, '/screener', { headers: browser(t1) });
    assert.equal(tokenOf(first.body), t1);
    const t2 = portal.rotateToken();
    const second = await call(portal.url, '/screener', { headers: browser(t2) });
    assert.equal(tokenOf(second.body), t2);
    assert.ok(second.body.replace(t2, '') === first.body.replace(t1, ''), 'only the token differs');
  });

  test('tokens rotate on a timer when asked to', async () => {
    const p = await startFakePortal({ tokenRotateMs: 30 });
    try {
      const t1 = p.token();
      await new Promise((r) => setTimeout(r, 100));
      assert.notEqual(p.token(), t1);
    } finally {
      await p.close();
    }
  });

  test('responses keep the connection alive', async () => {
    const res = await call(portal.url, '/symbols', { headers: browser(portal.token()) });
    assert.equal(res.headers.connection, 'keep-alive');
  });
});

describe('counts', () => {
  test('per METHOD path, with historical per symbol', async () => {
    const h = browser(portal.token());
    await call(portal.url, '/', { headers: { 'user-agent': UA } });
    await call(portal.url, '/screener', { headers: h });
    await call(portal.url, '/screener', { headers: h });
    for (const sym of ['ENGRO', 'ENGRO', 'HBL']) {
      await call(portal.url, '/historical', {
        method: 'POST',
        headers: { ...h, ...FORM },
        body: `symbol=${sym}`,
      });
    }
    await call(portal.url, '/indices/KSE100', { headers: h });
    const c = portal.counts();
    assert.equal(c.total, 7);
    assert.deepEqual(c.requests, {
      'GET /': 1,
      'GET /screener': 2,
      'POST /historical': 3,
      'GET /indices/KSE100': 1,
    });
    assert.deepEqual(c.historical, { ENGRO: 2, HBL: 1 });
    portal.resetCounts();
    assert.deepEqual(portal.counts(), {
      total: 0,
      requests: {},
      historical: {},
      rejected: {},
      injected: {},
      limited: 0,
    });
  });
});

describe('rate limit', () => {
  test('requestsPerMinute: data requests beyond it in a minute get 429 and are counted', async () => {
    const limited = await startFakePortal({ requestsPerMinute: 2 });
    try {
      const h = browser(limited.token());
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await call(limited.url, '/screener', { headers: h })).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.equal(
        (await call(limited.url, '/', { headers: { 'user-agent': UA } })).status,
        200,
        'the page that issues the token is not limited',
      );
      assert.equal(limited.counts().limited, 1);
    } finally {
      await limited.close();
    }
  });
});

describe('pages', () => {
  test('POST /historical for ENGRO returns 2,162 rows, newest first, with the anomalies', async () => {
    const res = await call(portal.url, '/historical', {
      method: 'POST',
      headers: { ...browser(portal.token()), ...FORM },
      body: 'symbol=ENGRO',
    });
    assert.equal(res.status, 200);
    assert.equal(tbodyRows(res.body, 'id="historicalTable"'), ENGRO_HISTORY_ROWS);
    assert.match(res.body, /<th data-name="time" data-type="string">DATE <\/th>/);
    const first = `<td data-order="${dateOrder('2026-11-20')}">Nov 20, 2026</td>`;
    assert.ok(res.body.includes(first), 'newest row first');
    for (const date of [
      HISTORY_ANOMALIES.bonusExDate,
      HISTORY_ANOMALIES.zeroVolumeMoveDate,
      HISTORY_ANOMALIES.ohlcInconsistentDate,
    ]) {
      assert.ok(res.body.includes(`>${formatDateText(date)}</td>`), date);
    }
  });

  test('the date cell is 16:00 Asia/Karachi in epoch seconds', () => {
    assert.equal(dateOrder('2025-01-03'), 1735902000);
    assert.equal(formatDateText('2025-01-03'), 'Jan 3, 2025');
  });

  test('POST /historical for an unknown symbol or the debt instrument gives an empty table', async () => {
    for (const sym of ['NOSUCH', 'BAFLTFC8']) {
      const res = await call(portal.url, '/historical', {
        method: 'POST',
        headers: { ...browser(portal.token()), ...FORM },
        body: `symbol=${sym}`,
      });
      assert.equal(res.status, 200);
      assert.equal(tbodyRows(res.body, 'id="historicalTable"'), 0);
    }
  });

  test('index constituents: size column per index, HBLTTI empty, unknown index without a table', async () => {
    const h = browser(portal.token());
    const kse = await call(portal.url, '/indices/KSE100', { headers: h });
    assert.match(kse.body, /<h2 style="margin-top:0;">KSE 100 INDEX Constituents<\/h2>/);
    assert.match(kse.body, /FREEFLOAT \(M\)/);
    assert.match(kse.body, /IDX POINT <\/th>/);
    assert.equal(tbodyRows(kse.body, '<table'), portal.dataset.indexConstituents('KSE100')?.rows.length);
    const all = await call(portal.url, '/indices/ALLSHR', { headers: h });
    assert.match(all.body, /SHARES \(M\)/);
    assert.doesNotMatch(all.body, /FREEFLOAT/);
    const stale = await call(portal.url, '/indices/HBLTTI', { headers: h });
    assert.equal(tbodyRows(stale.body, '<table'), 0);
    const unknown = await call(portal.url, '/indices/NOSUCH', { headers: h });
    assert.equal(unknown.status, 200);
    assert.match(unknown.body, /<title>Not Found<\/title>/);
    assert.doesNotMatch(unknown.body, /<table/);
  });

  test('reports: a table per known symbol, empty for WTL, Not Found for an unknown symbol', async () => {
    const h = browser(portal.token());
    const hbl = await call(portal.url, '/company/reports/HBL', { headers: h });
    assert.match(hbl.body, /<th>Reports<\/th>/);
    assert.match(hbl.body, /href="https:\/\/financials\.psx\.com\.pk\/lib\/DownloadPDF\.php\?id=\d{6}"/);
    assert.equal(tbodyRows(hbl.body, '<table'), portal.dataset.reports('HBL')?.length);
    const wtl = await call(portal.url, '/company/reports/WTL', { headers: h });
    assert.equal(tbodyRows(wtl.body, '<table'), 0);
    const unknown = await call(portal.url, '/company/reports/NOSUCH', { headers: h });
    assert.equal(unknown.status, 200);
    assert.match(unknown.body, /<title>Not Found<\/title>/);
    assert.doesNotMatch(unknown.body, /<table/);
  });

  test('market watch and screener differ in membership; tags follow the symbol link', async () => {
    const h = browser(portal.token());
    const mw = (await call(portal.url, '/market-watch', { headers: h })).body;
    const sc = (await call(portal.url, '/screener', { headers: h })).body;
    assert.ok(mw.includes('data-order="UBLP-ETF"') && !sc.includes('data-order="UBLP-ETF"'));
    assert.ok(sc.includes('data-order="FEROZ"') && !mw.includes('data-order="FEROZ"'));
    assert.ok(sc.includes('data-order="786"') && sc.includes('data-order="786R"'));
    assert.match(sc, /<strong>HBL<\/strong><\/a><div class="tag tag--skim tag--xd">XD<\/div>/);
    assert.equal(tbodyRows(mw, '<table'), portal.dataset.marketWatch.length);
    assert.equal(tbodyRows(sc, 'id="screenerTable"'), portal.dataset.screener.length);
  });

  test('/indices has the As of line, 18 levels with HBLTTI stale, and an empty Sector Indices table', async () => {
    const body = (await call(portal.url, '/indices', { headers: browser(portal.token()) })).body;
    assert.match(body, /id="indicesTable"><div[^>]*>As of Nov 20, 2026 4:35 PM<\/div>/);
    assert.equal(tbodyRows(body, 'id="indicesTable"'), 18);
    assert.match(
      body,
      /<b style="color:#009d49;">HBLTTI<\/b><span style="color:#888;"> \(19-11-2026 18:30:00\)<\/span>/,
    );
    assert.match(body, /<th><a href="\/sector-summary">Sector Indices<\/a><\/th><\/tr><\/thead><\/table>/);
  });

  test('sector summary: one member table per sector, JUTE empty, comments between cells', async () => {
    const body = (await call(portal.url, '/sector-summary/sectorwise', { headers: browser(portal.token()) }))
      .body;
    const ds = portal.dataset;
    assert.equal(body.split('class="sectorSummary__companies__table"').length - 1, ds.sectors.length);
    assert.match(
      body,
      /data-code="0814"><h3>JUTE<\/h3><div class="tbl__wrapper"><table[^>]*><thead class="tbl__head"><\/thead>/,
    );
    assert.match(body, /<\/td><!-- td\.right/);
    assert.match(body, /OIL &amp; GAS EXPLORATION COMPANIES/);
  });

  test('/symbols is JSON with the debt instrument and no isGEM on it', async () => {
    const res = await call(portal.url, '/symbols', { headers: browser(portal.token()) });
    assert.match(String(res.headers['content-type']), /application\/json/);
    const list = JSON.parse(res.body) as { symbol: string; sectorName: string; isGEM?: boolean }[];
    assert.equal(list.length, portal.dataset.symbols.length);
    const debt = list.find((s) => s.sectorName === 'BILLS AND BONDS');
    assert.ok(debt);
    assert.equal('isGEM' in debt, false);
    assert.ok(list.some((s) => s.symbol === 'UBLP-ETF'));
  });
});

describe('failure injection', () => {
  test('down destroys the socket', async () => {
    portal.fail({ mode: 'down' });
    await assert.rejects(call(portal.url, '/screener', { headers: browser(portal.token()) }));
    assert.equal(portal.counts().injected.down, 1);
  });

  test('slow delays responses, and delayMs adds always-on latency', async () => {
    portal.fail({ mode: 'slow', delayMs: 150 });
    let t0 = Date.now();
    assert.equal((await call(portal.url, '/market-watch', { headers: browser(portal.token()) })).status, 200);
    assert.ok(Date.now() - t0 >= 140);
    const p = await startFakePortal({ delayMs: 120 });
    try {
      t0 = Date.now();
      assert.equal((await call(p.url, '/', { headers: { 'user-agent': UA } })).status, 200);
      assert.ok(Date.now() - t0 >= 110);
    } finally {
      await p.close();
    }
  });

  test('status answers the given status (default 503)', async () => {
    for (const status of [500, 502, 429]) {
      portal.clear();
      portal.fail({ mode: 'status', status });
      assert.equal(
        (await call(portal.url, '/screener', { headers: browser(portal.token()) })).status,
        status,
      );
    }
    portal.clear();
    portal.fail({ mode: 'status' });
    assert.equal((await call(portal.url, '/', { headers: { 'user-agent': UA } })).status, 503);
  });

  test('garbage answers 200 without any table', async () => {
    portal.fail({ mode: 'garbage' });
    const res = await call(portal.url, '/screener', { headers: browser(portal.token()) });
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.body, /<table/);
  });

  test('refuse-token refuses data requests with a valid token but still issues tokens', async () => {
    portal.fail({ mode: 'refuse-token' });
    assert.equal((await call(portal.url, '/screener', { headers: browser(portal.token()) })).status, 403);
    const home = await call(portal.url, '/', { headers: { 'user-agent': UA } });
    assert.equal(home.status, 200);
    assert.equal(tokenOf(home.body), portal.token());
  });

  test('a path prefix scopes a rule; times limits it; clear() removes rules', async () => {
    const h = browser(portal.token());
    portal.fail({ mode: 'status', status: 502, path: '/historical', times: 1 });
    assert.equal((await call(portal.url, '/screener', { headers: h })).status, 200);
    const hist = { method: 'POST' as const, headers: { ...h, ...FORM }, body: 'symbol=HBL' };
    assert.equal((await call(portal.url, '/historical', hist)).status, 502);
    assert.equal((await call(portal.url, '/historical', hist)).status, 200);
    portal.fail({ mode: 'status', status: 503 });
    assert.equal((await call(portal.url, '/indices', { headers: h })).status, 503);
    portal.clear();
    assert.equal((await call(portal.url, '/indices', { headers: h })).status, 200);
  });
});

describe('determinism', () => {
  test('two instances serve identical bytes, tokens included', async () => {
    const [a, b] = await Promise.all([startFakePortal(), startFakePortal()]);
    try {
      assert.equal(a.token(), b.token());
      const paths = [
        '/',
        '/symbols',
        '/screener',
        '/market-watch',
        '/indices',
        '/indices/KSE100',
        '/indices/ALLSHR',
        '/sector-summary/sectorwise',
        '/company/reports/HBL',
      ];
      for (const path of paths) {
        const ra = await call(a.url, path, { headers: browser(a.token()) });
        const rb = await call(b.url, path, { headers: browser(b.token()) });
        assert.equal(ra.status, 200, path);
        // Not assert.equal: a mismatch would print two whole pages.
        assert.ok(ra.body === rb.body, `${path} differs`);
      }
      const post = (p: FakePortal): Promise<Reply> =>
        call(p.url, '/historical', {
          method: 'POST',
          headers: { ...browser(p.token()), ...FORM },
          body: 'symbol=ENGRO',
        });
      assert.ok((await post(a)).body === (await post(b)).body, 'historical differs');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('the dataset is consistent across pages and unchanged by extra symbols', () => {
    const ds = createDataset();
    const hbl = ds.marketWatch.find((r) => r.symbol === 'HBL');
    const [today, yesterday] = ds.history('HBL');
    assert.ok(hbl && today && yesterday);
    assert.equal(today.date, ds.asOfDate);
    assert.equal(hbl.current, today.close);
    assert.equal(hbl.volume, today.volume);
    assert.equal(hbl.ldcp, yesterday.close);
    assert.equal(ds.screener.find((r) => r.symbol === 'HBL')?.price, today.close);

    const big = createDataset({ extraSymbols: 1000 });
    assert.equal(big.instruments.length, ds.instruments.length + 1000);
    assert.deepEqual(big.history('ENGRO'), ds.history('ENGRO'));
    assert.equal(createDataset({ historyRows: 50 }).history('HBL').length, 50);
  });
});

describe('control API', () => {
  test('counts, reset, fail, clear and rotate-token over HTTP, ungated', async () => {
    await call(portal.url, '/', { headers: { 'user-agent': UA } });
    const counts = JSON.parse((await call(portal.url, '/__fake/counts')).body) as {
      requests: Record<string, number>;
    };
    assert.deepEqual(counts.requests, { 'GET /': 1 });
    assert.equal((await call(portal.url, '/__fake/reset', { method: 'POST' })).status, 200);
    assert.equal(portal.counts().total, 0);

    const rule = JSON.stringify({ mode: 'status', status: 429, path: '/screener' });
    assert.equal((await call(portal.url, '/__fake/fail', { method: 'POST', body: rule })).status, 200);
    assert.equal((await call(portal.url, '/screener', { headers: browser(portal.token()) })).status, 429);
    await call(portal.url, '/__fake/clear', { method: 'POST' });
    assert.equal((await call(portal.url, '/screener', { headers: browser(portal.token()) })).status, 200);

    const old = portal.token();
    const rotated = JSON.parse((await call(portal.url, '/__fake/rotate-token', { method: 'POST' })).body) as {
      token: string;
    };
    assert.notEqual(rotated.token, old);
    assert.equal(rotated.token, portal.token());
    const bad = await call(portal.url, '/__fake/fail', { method: 'POST', body: '{"mode":"explode"}' });
    assert.equal(bad.status, 400);
  });
});

describe('CLI', () => {
  test('main.ts prints its URL, serves, and exits on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'dev/fake-portal/main.ts', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /fake portal listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1] as string);
      });
      child.once('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const home = await call(url, '/', { headers: { 'user-agent': UA } });
    assert.equal(home.status, 200);
    const token = JSON.parse((await call(url, '/__fake/token')).body) as { token: string };
    assert.equal(tokenOf(home.body), token.token);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });
});
