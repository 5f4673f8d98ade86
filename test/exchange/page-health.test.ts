// The drift alarm over HTTP: the fake portal changes a page's structure (a column dropped, the
// tables removed) and restores it; GET /health/portal, the log and /metrics say so, and the
// answers keep serving what parsed.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

// Fri 2026-11-20 17:00 Karachi: after the close, the fake portal's default day.
const START = Date.parse('2026-11-20T12:00:00Z');
const PAST_FRESHNESS_MS = 10 * 60_000;

interface PortalPageJson {
  page: string;
  state: string;
  last_fetch: string | null;
  last_ok: string | null;
  missing_fields: string[];
  detail: string | null;
}

describe('GET /health/portal against a drifting portal', () => {
  let portal: FakePortal;
  let svc: RunningService | undefined;
  let clock = START;
  let logs: string[] = [];

  before(async () => {
    portal = await startFakePortal();
  });
  afterEach(async () => {
    portal.restore();
    portal.clear();
    await svc?.close();
    svc = undefined;
  });
  after(async () => {
    await portal.close();
  });

  async function start(): Promise<RunningService> {
    clock = START;
    logs = [];
    svc = await startService(
      portal.url,
      // Plain TTLs (a minute) and no stale-while-revalidate: moving the clock past the minute makes
      // the next request fetch the page again.
      { CACHE_INTRADAY_TTL: '60', CACHE_REPORTS_TTL: '60', CACHE_SWR: '0', LOG_LEVEL: 'warn' },
      { overrides: { now: () => clock }, logLines: logs },
    );
    return svc;
  }

  async function pages(base: string): Promise<Map<string, PortalPageJson>> {
    const res = await http(base, '/health/portal');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const list = res.json.data as PortalPageJson[];
    assert.equal(res.json.meta.count, list.length);
    return new Map(list.map((p) => [p.page, p]));
  }

  const warningsAbout = (page: string): Record<string, unknown>[] =>
    logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.level === 40 && l.page === page && typeof l.state === 'string');

  async function metricLines(base: string, page: string): Promise<string[]> {
    const res = await http(base, '/metrics');
    return res.text
      .split('\n')
      .filter((l) => l.startsWith('psxmd_exchange_page_') && l.includes(`page="${page}"`));
  }

  it('lists every page kind as unknown before any fetch', async () => {
    const { url } = await start();
    const byPage = await pages(url);
    assert.ok(byPage.size >= 19, `page kinds listed: ${[...byPage.keys()].join(', ')}`);
    for (const kind of ['market-watch', 'screener', 'token', 'company', 'sector-summary', 'eod']) {
      assert.deepEqual(byPage.get(kind), {
        page: kind,
        state: 'unknown',
        last_fetch: null,
        last_ok: null,
        missing_fields: [],
        detail: null,
      });
    }
    assert.equal(portal.counts().total, 0, 'the health answer never fetches');
    assert.ok(
      (await metricLines(url, 'market-watch')).includes(
        'psxmd_exchange_page_state{page="market-watch",state="unknown"} 1',
      ),
    );
  });

  it('goes ok → changed (the column named, one warning, the metric) → ok when the page is restored', async () => {
    const { url } = await start();
    const first = await http(url, '/stocks/HBL/quote');
    assert.equal(first.status, 200);
    assert.equal(typeof first.json.data.ldcp, 'number');
    let byPage = await pages(url);
    assert.equal(byPage.get('market-watch')!.state, 'ok');
    assert.equal(byPage.get('market-watch')!.last_fetch, '2026-11-20T12:00:00+00:00');
    assert.equal(byPage.get('market-watch')!.last_ok, '2026-11-20T12:00:00+00:00');
    assert.equal(byPage.get('screener')!.state, 'ok');
    assert.equal(byPage.get('token')!.state, 'ok');
    assert.deepEqual(warningsAbout('market-watch'), [], 'a first good fetch is no news');

    portal.drift({ path: '/market-watch', dropColumn: 'LDCP' });
    clock += PAST_FRESHNESS_MS;
    const drifted = await http(url, '/stocks/HBL/quote');
    assert.equal(drifted.status, 200, 'the quote is still served: from the last complete copy');
    assert.equal(drifted.headers['x-cache'], 'STALE');
    assert.equal(drifted.json.data.ldcp, first.json.data.ldcp, 'not replaced by a null');
    byPage = await pages(url);
    const changed = byPage.get('market-watch')!;
    assert.equal(changed.state, 'changed');
    assert.deepEqual(changed.missing_fields, ['ldcp']);
    assert.match(changed.detail!, /ldcp/);
    assert.equal(changed.last_fetch, '2026-11-20T12:10:00+00:00');
    assert.equal(changed.last_ok, '2026-11-20T12:00:00+00:00', 'last_ok stays at the last good fetch');
    assert.equal(byPage.get('screener')!.state, 'ok', 'only the drifted page changes');

    let metrics = await metricLines(url, 'market-watch');
    assert.ok(
      metrics.includes('psxmd_exchange_page_state{page="market-watch",state="changed"} 1'),
      metrics.join('\n'),
    );
    assert.ok(metrics.includes('psxmd_exchange_page_state{page="market-watch",state="ok"} 0'));
    assert.ok(metrics.includes('psxmd_exchange_page_missing_field{page="market-watch",field="ldcp"} 1'));

    // The same drift fetched again is no new change: still one warning.
    clock += PAST_FRESHNESS_MS;
    assert.equal((await http(url, '/stocks/HBL/quote')).status, 200);
    assert.equal(portal.counts().requests['GET /market-watch'], 3, 'the page was fetched a third time');
    let warnings = warningsAbout('market-watch');
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0]!.state, 'changed');
    assert.equal(warnings[0]!.previous, 'ok');
    assert.deepEqual(warnings[0]!.missing_fields, ['ldcp']);

    portal.restore('/market-watch');
    clock += PAST_FRESHNESS_MS;
    const restored = await http(url, '/stocks/HBL/quote');
    assert.equal(typeof restored.json.data.ldcp, 'number');
    byPage = await pages(url);
    assert.equal(byPage.get('market-watch')!.state, 'ok');
    assert.deepEqual(byPage.get('market-watch')!.missing_fields, []);
    assert.equal(byPage.get('market-watch')!.detail, null);
    assert.equal(byPage.get('market-watch')!.last_ok, '2026-11-20T12:30:00+00:00');
    warnings = warningsAbout('market-watch');
    assert.equal(warnings.length, 2, 'the recovery is logged once too');
    assert.equal(warnings[1]!.state, 'ok');
    metrics = await metricLines(url, 'market-watch');
    assert.ok(metrics.includes('psxmd_exchange_page_state{page="market-watch",state="ok"} 1'));
    assert.ok(!metrics.some((l) => l.startsWith('psxmd_exchange_page_missing_field')), metrics.join('\n'));
  });

  it('serves what parsed, the missing column null (never 0), when no complete copy is held', async () => {
    portal.drift({ path: '/market-watch', dropColumn: 'LDCP' });
    const { url } = await start();
    const res = await http(url, '/stocks/HBL/quote');
    assert.equal(res.status, 200);
    assert.equal(res.json.data.ldcp, null);
    assert.equal(typeof res.json.data.price, 'number');
    assert.equal(typeof res.json.data.volume, 'number');
    const watch = (await pages(url)).get('market-watch')!;
    assert.equal(watch.state, 'changed');
    assert.equal(watch.last_ok, null);
    // Fetched again while still drifted: the copy held lacked the column too, so the newer one is served.
    clock += PAST_FRESHNESS_MS;
    const again = await http(url, '/stocks/HBL/quote');
    assert.equal(again.headers['x-cache'], 'MISS');
    assert.equal(again.json.data.ldcp, null);
  });

  it('reports failing when the table is removed, and keeps serving the last good copy', async () => {
    const { url } = await start();
    const good = await http(url, '/sectors');
    assert.equal(good.status, 200);
    portal.drift({ path: '/sector-summary/sectorwise', removeTables: true });
    clock += PAST_FRESHNESS_MS;
    const res = await http(url, '/sectors');
    // A parse failure never replaces good data: the old copy is served, marked stale.
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-cache'], 'STALE');
    assert.deepEqual(res.json.data, good.json.data);
    const failing = (await pages(url)).get('sector-summary')!;
    assert.equal(failing.state, 'failing');
    assert.match(failing.detail!, /no table/);
    assert.equal(failing.last_fetch, '2026-11-20T12:10:00+00:00');
    assert.equal(failing.last_ok, '2026-11-20T12:00:00+00:00');
    const warnings = warningsAbout('sector-summary');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.state, 'failing');
    const metrics = await metricLines(url, 'sector-summary');
    assert.ok(metrics.includes('psxmd_exchange_page_state{page="sector-summary",state="failing"} 1'));
  });

  it('names a missing required column of a page that fails', async () => {
    const { url } = await start();
    portal.drift({ path: '/market-watch', dropColumn: 'CURRENT' });
    const res = await http(url, '/stocks/HBL/quote');
    assert.equal(res.status, 502);
    assert.equal(res.json.error.code, 'upstream_data_error');
    const failing = (await pages(url)).get('market-watch')!;
    assert.equal(failing.state, 'failing');
    assert.deepEqual(failing.missing_fields, ['current']);
    assert.equal(failing.last_ok, null);
  });

  it('takes no query parameters', async () => {
    const { url } = await start();
    const res = await http(url, '/health/portal?page=screener');
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, 'bad_request');
  });
});
