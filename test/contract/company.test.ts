// Company data over real HTTP (service + fake portal): profile, financials, announcements, the
// quote's extras, failures of the company page, and symbol search.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { companyFacts } from '../../dev/fake-portal/company.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertError, assertListEnvelope, assertRow, assertSingleEnvelope } from '../helpers/shape.ts';

const harness = portalHarness();
const fresh = harness.fresh;

const nullableNum: ('number' | 'null')[] = ['number', 'null'];
const nullableStr: ('string' | 'null')[] = ['string', 'null'];

/** Intraday data that goes stale after one second and is not revalidated in the background. */
const SHORT_TTL = { CACHE_INTRADAY_TTL: '1', CACHE_SWR: '0' };

function facts(symbol: string) {
  const f = companyFacts(harness.portal.dataset, symbol);
  assert.ok(f, symbol);
  return f;
}

describe('GET /stocks/{symbol}/profile', () => {
  it("answers the company page's profile, with market cap in PKR", async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/hbl/profile');
    assert.equal(res.status, 200);
    const data = assertSingleEnvelope(res.json, false);
    const f = facts('HBL');
    assertRow(data, {
      symbol: ['string'],
      name: nullableStr,
      sector: nullableStr,
      description: nullableStr,
      key_people: ['array'],
      address: nullableStr,
      website: nullableStr,
      registrar: nullableStr,
      auditor: nullableStr,
      fiscal_year_end: nullableStr,
      shares_outstanding: nullableNum,
      free_float_shares: nullableNum,
      free_float_pct: nullableNum,
      market_cap: nullableNum,
    });
    assert.deepEqual(data, {
      symbol: 'HBL',
      name: 'Habib Bank Limited',
      sector: 'COMMERCIAL BANKS',
      description: f.description,
      key_people: f.keyPeople.map(([name, role]) => ({ name, role })),
      address: f.address,
      website: f.website,
      registrar: f.registrar,
      auditor: f.auditor,
      fiscal_year_end: 'December',
      shares_outstanding: f.inst.shares,
      free_float_shares: f.inst.freeFloat,
      free_float_pct: f.freeFloatPct,
      market_cap: f.marketCapThousands * 1000,
    });
    const screener = harness.portal.dataset.screener.find((r) => r.symbol === 'HBL')!;
    assert.ok(
      Math.abs((data.market_cap as number) - screener.marketCap!) < 1,
      'the same market cap as the screener',
    );
  });

  it('gives 404 for an unknown symbol without asking the portal for a company page', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/NOSUCH/profile');
    assert.equal(res.status, 404);
    assertError(res.json, 404, 'not_found', /NOSUCH not found/);
    assert.equal(harness.portal.counts().requests['GET /company/NOSUCH'], undefined);
  });

  it("gives 404 for a listed symbol whose company page is the portal's Not Found page", async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/BAFLTFC8/profile');
    assert.equal(res.status, 404);
    assertError(res.json, 404, 'not_found', /BAFLTFC8 not found/);
    assert.equal(harness.portal.counts().requests['GET /company/BAFLTFC8'], 1);
  });

  it('serves one company page fetch to the profile, financials and announcements', async () => {
    const svc = await fresh();
    for (const path of ['profile', 'financials', 'financials?period=quarterly', 'announcements']) {
      assert.equal((await http(svc.url, `/stocks/ENGRO/${path}`)).status, 200, path);
    }
    assert.equal(harness.portal.counts().requests['GET /company/ENGRO'], 1);
  });
});

describe('GET /stocks/{symbol}/financials', () => {
  it('lists annual periods with the ratios, in PKR (EPS per share)', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/HBL/financials');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    const f = facts('HBL');
    assert.deepEqual(
      rows,
      f.annual.map((p, i) => ({
        period: p.period,
        mark_up_earned: p.lines.mark_up_earned! * 1000,
        total_income: p.lines.total_income! * 1000,
        profit_after_taxation: p.lines.profit_after_taxation! * 1000,
        eps: p.lines.eps,
        ...f.ratios[i]!.lines,
      })),
    );
  });

  it('lists quarterly periods of a loss-maker with negative figures', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/HASCOL/financials?period=quarterly');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, number | string>>;
    const f = facts('HASCOL');
    assert.deepEqual(
      rows.map((r) => r.period),
      f.quarterly.map((p) => p.period),
    );
    assert.ok(rows.every((r) => (r.profit_after_taxation as number) < 0 && (r.eps as number) < 0));
    assert.equal(rows[0]!.sales, f.quarterly[0]!.lines.sales! * 1000);
    assert.ok(!('net_profit_margin_pct' in rows[0]!), 'ratios are annual only');
    const annual = assertListEnvelope((await http(svc.url, '/stocks/HASCOL/financials?period=annual')).json);
    assert.ok((annual[0] as Record<string, number>).net_profit_margin_pct! < 0);
  });

  it('answers an empty list for a symbol without financials', async () => {
    const svc = await fresh();
    for (const period of ['annual', 'quarterly']) {
      const res = await http(svc.url, `/stocks/WTL/financials?period=${period}`);
      assert.equal(res.status, 200);
      assert.deepEqual(assertListEnvelope(res.json), []);
    }
  });

  it('answers 422 naming the accepted periods', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/HBL/financials?period=monthly');
    assert.equal(res.status, 422);
    assertError(res.json, 422, 'bad_request', 'period must be annual or quarterly (got "monthly")');
  });

  it('answers CSV', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/HBL/financials?format=csv');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /text\/csv/);
    assert.match(
      res.text.split('\r\n')[0]!,
      /^period,mark_up_earned,total_income,profit_after_taxation,eps,/,
    );
  });
});

describe('GET /stocks/{symbol}/announcements', () => {
  it('lists every category newest first, and one category when asked', async () => {
    const svc = await fresh();
    const all = assertListEnvelope((await http(svc.url, '/stocks/HBL/announcements')).json) as Array<
      Record<string, unknown>
    >;
    const f = facts('HBL');
    assert.equal(all.length, f.announcements.length);
    for (const row of all) {
      assertRow(row, {
        date: ['string'],
        time: ['null'],
        title: ['string'],
        category: ['string'],
        document_url: nullableStr,
        images: ['array'],
      });
      // Every row of the portal's tabs has a `View` link naming its page image.
      assert.ok(Array.isArray(row.images) && (row.images as unknown[]).length > 0, 'the View link’s images');
    }
    const dates = all.map((r) => r.date as string);
    assert.deepEqual(dates, [...dates].sort().reverse());
    assert.ok(
      all.some((r) => r.document_url === null),
      'a row that links only images',
    );
    assert.ok(
      all.some(
        (r) =>
          typeof r.document_url === 'string' &&
          /^https:\/\/dps\.psx\.com\.pk\/download\/document\/\d+\.pdf$/.test(r.document_url),
      ),
    );

    const boards = assertListEnvelope(
      (await http(svc.url, '/stocks/HBL/announcements?category=board-meetings')).json,
    ) as Array<Record<string, unknown>>;
    assert.deepEqual(
      boards.map((r) => r.title),
      f.announcements.filter((a) => a.category === 'Board Meetings').map((a) => a.title.trim()),
    );
    assert.ok(boards.every((r) => r.category === 'board-meetings'));
  });

  it('answers 422 naming the accepted categories', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks/HBL/announcements?category=dividends');
    assert.equal(res.status, 422);
    assertError(
      res.json,
      422,
      'bad_request',
      /financial-results, board-meetings or others \(got "dividends"\)/,
    );
  });
});

/** A relay in front of the fake portal that rewrites company pages, to break one section. */
async function rewritingRelay(
  target: string,
  rewrite: (page: string) => string,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void (async () => {
      const headers = { ...req.headers } as Record<string, string>;
      delete headers.host;
      const upstream = await request(`${target}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: req.method === 'POST' ? req : undefined,
      });
      let body = Buffer.from(await upstream.body.arrayBuffer());
      if (req.url?.startsWith('/company/')) body = Buffer.from(rewrite(body.toString('utf8')), 'utf8');
      res.writeHead(upstream.statusCode, {
        'content-type': String(upstream.headers['content-type'] ?? 'text/html'),
      });
      res.end(body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('a company page that does not fully parse', () => {
  it('serves the sections that parse; a broken one is null (200), and its own endpoint is 502', async () => {
    const relay = await rewritingRelay(harness.portal.url, (page) =>
      page
        .replace('>Equity Profile<', '>Shareholding Pattern<')
        .replace('id="equity"', 'id="shareholding"')
        .replace('<th>Title</th>', '<th>Subject</th>')
        .replaceAll('<th>Title</th>', '<th>Subject</th>'),
    );
    try {
      const { startService } = await import('../helpers/service.ts');
      const logLines: string[] = [];
      const svc = await startService(relay.url, { LOG_LEVEL: 'warn' }, { logLines });
      try {
        const res = await http(svc.url, '/stocks/HBL/profile');
        assert.equal(res.status, 200);
        const data = assertSingleEnvelope(res.json);
        assert.equal(data.name, 'Habib Bank Limited');
        assert.equal(data.fiscal_year_end, 'December');
        assert.equal(data.market_cap, null);
        assert.equal(data.shares_outstanding, null);
        assert.equal((await http(svc.url, '/stocks/HBL/financials')).status, 200);
        const announcements = await http(svc.url, '/stocks/HBL/announcements');
        assert.equal(announcements.status, 502);
        assertError(
          announcements.json,
          502,
          'upstream_data_error',
          /announcements section: no announcement tab/,
        );
        assert.ok(
          logLines.some(
            (l) => l.includes('company page section could not be read') && l.includes('"section":"equity"'),
          ),
          'the reason is logged',
        );
        const metrics = await http(svc.url, '/metrics');
        assert.match(metrics.text, /psxmd_exchange_sections_missing_total\{section="equity"\} 1/);
      } finally {
        await svc.close();
      }
    } finally {
      relay.server.close();
    }
  });

  it('a page with none of the sections is 502 upstream_data_error', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/company/HBL' });
    const res = await http(svc.url, '/stocks/HBL/profile');
    assert.equal(res.status, 502);
    assertError(res.json, 502, 'upstream_data_error', /company/);
  });

  it('never replaces a good copy: the old page is served stale', async () => {
    const svc = await fresh(SHORT_TTL);
    const good = await http(svc.url, '/stocks/HBL/financials');
    assert.equal(good.status, 200);
    await sleep(1100);
    harness.portal.fail({ mode: 'garbage', path: '/company/HBL' });
    const res = await http(svc.url, '/stocks/HBL/financials');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-cache'], 'STALE');
    assert.deepEqual(res.json.data, good.json.data);
  });
});

describe('quote extras', () => {
  const EXTRAS = [
    'circuit_breaker_low',
    'circuit_breaker_high',
    'day_range_low',
    'day_range_high',
    'week52_low',
    'week52_high',
    'bid_price',
    'bid_volume',
    'ask_price',
    'ask_volume',
    'var',
    'haircut',
    'ytd_change_pct',
    'extras_as_of',
  ];

  it('a quote never waits for the company page: extras null at first, then from the page', async () => {
    const svc = await fresh();
    const first = await http(svc.url, '/stocks/HBL/quote');
    assert.equal(first.status, 200);
    const before = assertSingleEnvelope(first.json);
    for (const key of EXTRAS) assert.equal(before[key], null, key);
    assert.match(
      first.headers['cache-control']!,
      /^public, max-age=[0-2]$/,
      'cacheable for seconds only while the extras are pending',
    );

    // The page is fetched in the background; the pending answer stays fresh for 2 s at most.
    let later = before;
    for (let i = 0; i < 150 && later.extras_as_of === null; i++) {
      await sleep(100);
      later = assertSingleEnvelope((await http(svc.url, '/stocks/HBL/quote')).json);
    }
    assert.equal(harness.portal.counts().requests['GET /company/HBL'], 1, 'one background fetch');
    const f = facts('HBL');
    assert.deepEqual(Object.fromEntries(EXTRAS.map((k) => [k, later[k]])), {
      circuit_breaker_low: f.circuitBreaker[0],
      circuit_breaker_high: f.circuitBreaker[1],
      day_range_low: f.low,
      day_range_high: f.high,
      week52_low: f.week52[0],
      week52_high: f.week52[1],
      bid_price: f.bidPrice,
      bid_volume: f.bidVolume,
      ask_price: f.askPrice,
      ask_volume: f.askVolume,
      var: f.var,
      haircut: f.haircut,
      ytd_change_pct: f.ytdChangePct,
      extras_as_of: harness.portal.dataset.asOfIso,
    });
    // The spec fields keep their sources.
    for (const key of ['price', 'ldcp', 'open', 'high', 'low', 'volume', 'market_cap', 'pe_ratio']) {
      assert.deepEqual(later[key], before[key], key);
    }
  });

  it('a failing company page never fails the quote', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'status', status: 503, path: '/company/' });
    for (let i = 0; i < 3; i++) {
      const res = await http(svc.url, '/stocks/ENGRO/quote');
      assert.equal(res.status, 200);
      const data = assertSingleEnvelope(res.json);
      assert.equal(data.circuit_breaker_low, null);
      assert.equal(data.price, harness.portal.dataset.marketWatch.find((r) => r.symbol === 'ENGRO')!.current);
    }
  });

  it("a slow company page does not slow the quote: it answers without the page's extras", async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'slow', delayMs: 3000, path: '/company/' });
    const res = await http(svc.url, '/stocks/LUCK/quote');
    assert.equal(res.status, 200);
    assert.equal(assertSingleEnvelope(res.json).extras_as_of, null);
  });
});

describe('GET /stocks?q=', () => {
  it('finds by company name, case-insensitive, best matches first', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/stocks?q=HaBiB');
    assert.equal(res.status, 200);
    const rows = assertListEnvelope(res.json) as Array<Record<string, unknown>>;
    for (const row of rows) assertRow(row, { symbol: ['string'], name: ['string'], sector: ['string'] });
    // Names starting with the word first (shorter symbols first), then names with it as a later word.
    assert.deepEqual(
      rows.map((r) => r.symbol),
      ['HBL', 'HBLTFC3', 'AHL', 'AHCL', 'BAHL'],
    );
    assert.deepEqual(rows[0], { symbol: 'HBL', name: 'Habib Bank Limited', sector: 'COMMERCIAL BANKS' });
  });

  it('puts the exact symbol first, then symbol prefixes', async () => {
    const svc = await fresh();
    const rows = assertListEnvelope((await http(svc.url, '/stocks?q=hbl')).json) as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(
      rows.slice(0, 2).map((r) => r.symbol),
      ['HBL', 'HBLTFC3'],
    );
  });

  it('answers at most 50 matches, an empty list for no match, and 400 for an empty q', async () => {
    const svc = await fresh();
    const many = assertListEnvelope((await http(svc.url, '/stocks?q=l')).json);
    const expected = harness.portal.dataset.symbols.filter(
      (s) => s.symbol.toLowerCase().includes('l') || s.name.toLowerCase().includes('l'),
    ).length;
    assert.ok(expected > 50, `the fake market has ${expected} matches`);
    assert.equal(many.length, 50);
    assert.deepEqual(assertListEnvelope((await http(svc.url, '/stocks?q=zzzz')).json), []);
    const empty = await http(svc.url, '/stocks?q=%20');
    assert.equal(empty.status, 400);
    assertError(empty.json, 400, 'bad_request', /q must not be empty/);
  });

  it('without q the list is still plain symbols', async () => {
    const svc = await fresh();
    const rows = assertListEnvelope((await http(svc.url, '/stocks')).json);
    assert.ok(rows.every((r) => typeof r === 'string'));
  });
});
