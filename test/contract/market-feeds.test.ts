// The market-wide feeds over real HTTP (service + fake portal): payouts across the portal's pages,
// meetings, announcements with a cursor, the debt market, the other boards; failures and bad input.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { marketPayouts } from '../../dev/fake-portal/feeds.ts';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { assertAsOf, assertError, assertRow } from '../helpers/shape.ts';

const harness = portalHarness();
const fresh = harness.fresh;

// A year of announcements: more rows than one portal page (the fake serves 25 a page).
const YEAR = 'from=2025-11-27&to=2026-11-26';
const nullableNum: ('number' | 'null')[] = ['number', 'null'];
const nullableStr: ('string' | 'null')[] = ['string', 'null'];

function portalRowsIn(from: string, to: string): number {
  return marketPayouts(harness.portal.dataset).filter((p) => p.announcedDate >= from && p.announcedDate <= to)
    .length;
}

describe('GET /market/payouts', () => {
  it('reads every portal page of the range; one row per entitlement with its dates', async () => {
    const svc = await fresh();
    const res = await http(svc.url, `/market/payouts?${YEAR}`);
    assert.equal(res.status, 200);
    const total = portalRowsIn('2025-11-27', '2026-11-26');
    assert.ok(total > 50, `${total} rows span three portal pages`);
    assert.equal(harness.portal.counts().requests['POST /payouts'], Math.ceil(total / 25));
    const { data, meta } = res.json;
    assertAsOf(meta.as_of);
    assert.equal(meta.count, data.length);
    assert.deepEqual(meta.coverage, {
      from: '2025-11-27',
      to: '2026-11-26',
      face_value: 10,
      portal_rows: total,
      complete: true,
      missing: null,
    });
    for (const row of data) {
      assertRow(row, {
        symbol: ['string'],
        company: nullableStr,
        sector: nullableStr,
        kind: nullableStr,
        percent: nullableNum,
        label: nullableStr,
        amount_per_share: nullableNum,
        announced_at: nullableStr,
        book_closure_from: nullableStr,
        book_closure_to: nullableStr,
        ex_date: nullableStr,
        last_day_to_buy: nullableStr,
        settlement_cycle: nullableStr,
        details: ['string'],
        raw: nullableStr,
      });
    }
    // Two entitlements in one cell: two rows.
    const ffc = data.filter(
      (r: { symbol: string; details: string }) => r.details === '10%(i) (D) - 5%(i) (D)',
    );
    assert.deepEqual(
      ffc.map((r: { percent: number; amount_per_share: number }) => [r.percent, r.amount_per_share]),
      [
        [10, 1],
        [5, 0.5],
      ],
    );
    // Book closure from Monday 2026-11-30: record Friday, buy by Thursday under T+1.
    const sys = data.find((r: { symbol: string }) => r.symbol === 'SYS');
    assert.deepEqual(
      { kind: sys.kind, percent: sys.percent, raw: sys.raw, ex: sys.ex_date, buy: sys.last_day_to_buy },
      { kind: null, percent: null, raw: 'BONUS 1 FOR 10 (B)', ex: '2026-11-27', buy: '2026-11-26' },
    );
    assert.equal(sys.settlement_cycle, 'T+1');
    const mebl = data.find(
      (r: { symbol: string; percent: number }) => r.symbol === 'MEBL' && r.percent === 23.855376,
    );
    assert.equal(mebl.kind, 'right');
    assert.equal(mebl.amount_per_share, null);
    const mcb = data.find((r: { symbol: string }) => r.symbol === 'MCB');
    assert.equal(mcb.book_closure_from, null);
    assert.equal(mcb.ex_date, null);
    assert.equal(mcb.raw, null);
  });

  it('filters by kind (keeping unreadable rows) and by exact symbol though the portal prefix-matches', async () => {
    const svc = await fresh();
    const bonus = await http(svc.url, `/market/payouts?${YEAR}&kind=bonus`);
    assert.equal(bonus.status, 200);
    const kinds = new Set(bonus.json.data.map((r: { kind: string | null }) => r.kind));
    assert.deepEqual([...kinds].sort(), ['bonus', null]);
    const only = await http(svc.url, `/market/payouts?${YEAR}&symbol=786`);
    assert.equal(only.status, 200);
    assert.ok(only.json.data.length > 0);
    assert.ok(
      only.json.data.every((r: { symbol: string }) => r.symbol === '786'),
      '786R left out',
    );
  });

  it('answers CSV with a header row', async () => {
    const svc = await fresh();
    const res = await http(svc.url, `/market/payouts?from=2026-11-01&to=2026-11-26&format=csv`);
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /text\/csv/);
    assert.match(res.text.split('\r\n')[0]!, /^symbol,company,sector,kind,percent,label,amount_per_share,/);
  });

  it('serves the pages it could fetch within the budget and says what is missing', async () => {
    const svc = await fresh({ EXCHANGE_FETCH_LIMIT_PER_IP: '2' });
    const res = await http(svc.url, `/market/payouts?${YEAR}`);
    assert.equal(res.status, 200);
    assert.equal(res.json.meta.coverage.complete, false);
    assert.match(res.json.meta.coverage.missing, /^rows 51–\d+ of the portal's \d+: /);
    assert.equal(harness.portal.counts().requests['POST /payouts'], 2);
    // Fresh for a minute at most, not the filings' hours (6 h here): the missing pages are tried again soon.
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers['cache-control']!)?.[1]);
    assert.ok(maxAge <= 60, `max-age ${maxAge}`);
  });

  it('a page that no longer parses is 502; a good copy is served stale', async () => {
    const svc = await fresh({ CACHE_REPORTS_TTL: '1', CACHE_SWR: '0' });
    harness.portal.fail({ mode: 'garbage', path: '/payouts', times: 1 });
    const bad = await http(svc.url, '/market/payouts?from=2026-11-01&to=2026-11-26');
    assert.equal(bad.status, 502);
    assertError(bad.json, 502, 'upstream_data_error', /payouts/);
    const good = await http(svc.url, '/market/payouts?from=2026-11-01&to=2026-11-26');
    assert.equal(good.status, 200);
    await sleep(1100);
    harness.portal.fail({ mode: 'garbage', path: '/payouts' });
    const stale = await http(svc.url, '/market/payouts?from=2026-11-01&to=2026-11-26');
    assert.equal(stale.status, 200);
    assert.equal(stale.headers['x-cache'], 'STALE');
    assert.deepEqual(stale.json.data, good.json.data);
  });

  it('refuses bad input naming what is accepted', async () => {
    const svc = await fresh();
    const long = await http(svc.url, '/market/payouts?from=2025-01-01&to=2026-01-02');
    assertError(long.json, 400, 'bad_request', /spans 367 days; at most 366 days \(one year\)/);
    const reversed = await http(svc.url, '/market/payouts?from=2026-11-02&to=2026-11-01');
    assertError(reversed.json, 400, 'bad_request', 'from (2026-11-02) is after to (2026-11-01)');
    const kind = await http(svc.url, '/market/payouts?kind=dividend');
    assertError(kind.json, 422, 'bad_request', 'kind must be cash_dividend, bonus or right (got "dividend")');
    const date = await http(svc.url, '/market/payouts?from=26-11-01');
    assertError(date.json, 422, 'bad_request', /from must be a calendar date as YYYY-MM-DD/);
    const unknown = await http(svc.url, '/market/payouts?sym=HBL');
    assertError(
      unknown.json,
      400,
      'bad_request',
      /unknown query parameter "sym"; this endpoint takes from, to, kind, symbol, format/,
    );
    assert.equal(harness.portal.counts().requests['POST /payouts'], undefined);
  });
});

describe('GET /market/calendar', () => {
  it('lists meetings in date order, cities cleaned, filtered by type and symbol', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/market/calendar?from=2026-09-01&to=2026-12-31');
    assert.equal(res.status, 200);
    const data = res.json.data as {
      date: string;
      time: string;
      city: string | null;
      symbol: string;
      type: string;
    }[];
    assert.ok(data.length > 5);
    for (let i = 1; i < data.length; i++)
      assert.ok(`${data[i - 1]!.date} ${data[i - 1]!.time}` <= `${data[i]!.date} ${data[i]!.time}`);
    assert.ok(data.every((m) => m.city === null || !/[.,\s]$/.test(m.city)));
    assert.ok(data.some((m) => m.city === 'Lahore' || m.city === 'Karachi'));
    const engro = await http(svc.url, '/market/calendar?from=2026-11-25&to=2026-11-25&symbol=engro');
    assert.deepEqual(
      engro.json.data.map((m: { type: string }) => m.type),
      ['AGM', 'EOGM'],
    );
    const eogm = await http(svc.url, '/market/calendar?from=2026-09-01&to=2026-12-31&type=EOGM');
    assert.ok(eogm.json.data.length > 0);
    assert.ok(eogm.json.data.every((m: { type: string }) => m.type === 'EOGM'));
  });

  it('refuses an unknown type and a range over a year', async () => {
    const svc = await fresh();
    assertError(
      (await http(svc.url, '/market/calendar?type=agm')).json,
      422,
      'bad_request',
      'type must be AGM or EOGM (got "agm")',
    );
    assertError(
      (await http(svc.url, '/market/calendar?from=2026-01-01&to=2027-06-01')).json,
      400,
      'bad_request',
      /at most 366 days/,
    );
  });

  it('a calendar answer that is not the JSON described is 502', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/calendar' });
    const res = await http(svc.url, '/market/calendar?from=2026-11-01&to=2026-11-30');
    assertError(res.json, 502, 'upstream_data_error', /calendar/);
  });
});

describe('GET /announcements', () => {
  it('pages through meta.next until the last page, every row once', async () => {
    const svc = await fresh();
    let path: string | null = '/announcements?type=psx&limit=5';
    const titles: string[] = [];
    let total = 0;
    let pages = 0;
    while (path !== null) {
      const res = await http(svc.url, path);
      assert.equal(res.status, 200);
      total = res.json.meta.total;
      titles.push(
        ...res.json.data.map(
          (r: { date: string; time: string; title: string }) => `${r.date} ${r.time} ${r.title}`,
        ),
      );
      path = res.json.meta.next;
      pages++;
      assert.ok(pages < 10);
    }
    assert.equal(total, 12);
    assert.equal(titles.length, 12);
    assert.equal(new Set(titles).size, 12);
    assert.equal(pages, 3);
  });

  it('marks image-only and revoked announcements; documents are absolute', async () => {
    const svc = await fresh();
    const engro = await http(svc.url, '/announcements?symbol=ENGRO');
    assert.equal(engro.status, 200);
    const image = engro.json.data.find((r: { image_only: boolean }) => r.image_only);
    assert.ok(image);
    assert.equal(image.document_url, null);
    assert.match(image.images[0], /^\d+-1\.gif$/);
    const hbl = await http(svc.url, '/announcements?symbol=HBL&limit=100');
    const revoked = hbl.json.data.filter((r: { revoked: boolean }) => r.revoked);
    assert.equal(revoked.length, 1);
    assert.doesNotMatch(revoked[0].title, /REVOKED/);
    for (const r of hbl.json.data) {
      assert.equal(r.symbol, 'HBL');
      assert.match(r.document_url, /^https:\/\/dps\.psx\.com\.pk\/download\//);
      // The portal's cell is `View` (images) then `PDF`: the PDF is the document, not image-only.
      assert.equal(r.image_only, false);
      assert.equal(r.images.length, 1);
      assert.match(r.published_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+05:00$/);
    }
  });

  it('searches titles within a date range', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/announcements?type=secp&q=press&from=2026-09-01&to=2026-11-30');
    assert.equal(res.status, 200);
    assert.ok(res.json.data.length > 0);
    assert.ok(res.json.data.every((r: { title: string }) => /press/i.test(r.title)));
  });

  it('refuses bad input', async () => {
    const svc = await fresh();
    assertError(
      (await http(svc.url, '/announcements?type=sec')).json,
      422,
      'bad_request',
      /type must be companies, psx, secp, cdc or nccpl/,
    );
    assertError(
      (await http(svc.url, '/announcements?type=psx&symbol=HBL')).json,
      400,
      'bad_request',
      /type=companies only/,
    );
    assertError(
      (await http(svc.url, '/announcements?cursor=abc')).json,
      400,
      'bad_request',
      /cursor is not one this service gave/,
    );
    assertError((await http(svc.url, '/announcements?limit=500')).json, 422, 'bad_request', /limit/);
    assertError(
      (await http(svc.url, '/announcements?from=2026-11-02&to=2026-11-01')).json,
      400,
      'bad_request',
      /is after to/,
    );
  });
});

describe('GET /debt and /debt/{code}/quote', () => {
  it('lists the debt market and quotes an instrument from the bills-and-bonds board', async () => {
    const svc = await fresh();
    const list = await http(svc.url, '/debt');
    assert.equal(list.status, 200);
    const codes = list.json.data.map((d: { code: string }) => d.code);
    assert.ok(codes.includes('P01GIS080227') && codes.includes('BAFLTFC8'));
    const bill = list.json.data.find((d: { code: string }) => d.code === 'P01GIS080227');
    assert.equal(bill.issue_size, 53_710_000_000);
    const quote = await http(svc.url, '/debt/bafltfc8/quote');
    assert.equal(quote.status, 200);
    assert.deepEqual(quote.json.data, {
      code: 'BAFLTFC8',
      name: 'Bank Al-Falah(TFC8',
      bid_volume: 20,
      bid_price: 5012.5,
      offer_volume: 10,
      offer_price: 5025,
      ldcp: 5010,
      change: 2.5,
      volume: 30,
      bid_yield: 21.4012,
      offer_yield: 21.2107,
      last_price: 5012.5,
      last_yield: 21.3301,
      ldcy: 21.4409,
    });
  });

  it('says why there is no quote; a debt symbol’s equity quote points to its debt quote', async () => {
    const svc = await fresh();
    assertError(
      (await http(svc.url, '/debt/HBLTFC3/quote')).json,
      404,
      'not_found',
      /on the debt market, but the bills and bonds board has no quote/,
    );
    assertError((await http(svc.url, '/debt/NOSUCH/quote')).json, 404, 'not_found', /not on the debt market/);
    const equity = await http(svc.url, '/stocks/BAFLTFC8/quote');
    assertError(equity.json, 404, 'not_found', /its debt-market quote is at \/debt\/BAFLTFC8\/quote$/);
  });

  it('a debt-market page that no longer parses is 502', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/debt-market' });
    assertError((await http(svc.url, '/debt')).json, 502, 'upstream_data_error', /debt-market/);
  });

  it('a quote without the debt-market page is the board’s row, and meta.missing says so', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/debt-market' });
    const quote = await http(svc.url, '/debt/BAFLTFC8/quote');
    assert.equal(quote.status, 200, quote.text);
    assert.equal(quote.json.data.bid_price, 5012.5);
    assert.equal(quote.json.data.last_yield, 21.3301);
    assert.deepEqual(
      quote.json.meta.missing.map((m: { part: string }) => m.part),
      ['debt_market'],
    );
  });

  it('reads the coupon columns the page heads with inline pieces, and each table’s tab title', async () => {
    const svc = await fresh();
    const list = await http(svc.url, '/debt');
    const tfc = list.json.data.find((d: { code: string }) => d.code === 'BAFLTFC8');
    assert.deepEqual(
      {
        coupon_rate: tfc.coupon_rate,
        previous_coupon_date: tfc.previous_coupon_date,
        next_coupon_date: tfc.next_coupon_date,
        group: tfc.group,
        table: tfc.table,
      },
      {
        coupon_rate: 21.66,
        previous_coupon_date: '2026-06-26',
        next_coupon_date: '2026-12-26',
        group: 'Government Debt Securities',
        table: 4,
      },
    );
    const bill = list.json.data.find((d: { code: string }) => d.code === 'P01GIS080227');
    assert.equal(bill.group, 'GoP Ijarah Sukuk');
  });
});

describe('GET /boards/{board}', () => {
  it('joins the board with the eligible scrips: an eligible symbol without a row today is listed', async () => {
    const svc = await fresh();
    const res = await http(svc.url, '/boards/futures');
    assert.equal(res.status, 200);
    const mcb = res.json.data.find((r: { symbol: string }) => r.symbol === 'MCB-DEC');
    assert.deepEqual(
      { eligible: mcb.eligible, on_board: mcb.on_board, volume: mcb.volume, name: mcb.name },
      { eligible: true, on_board: false, volume: null, name: 'MCB Bank Limited' },
    );
    const engro = res.json.data.find((r: { symbol: string }) => r.symbol === 'ENGRO-DEC');
    assert.equal(engro.on_board, true);
    assert.equal(typeof engro.ldcp, 'number');
    const odd = await http(svc.url, '/boards/odd-lot?format=csv');
    assert.equal(odd.status, 200);
    assert.match(odd.text, /^symbol,name,eligible,on_board,/);
  });

  // The board page 404 (a board the portal dropped), 500, or a page that no longer parses: the
  // eligible-scrips page still names the board's symbols, so they are served with null prices.
  for (const [label, rule] of [
    ['404', { mode: 'status', status: 404 }],
    ['500', { mode: 'status', status: 500 }],
    ['garbage', { mode: 'garbage' }],
  ] as const) {
    it(`without the board page (${label}) serves the eligible symbols with null prices and meta.missing`, async () => {
      const svc = await fresh();
      harness.portal.fail({ ...rule, path: '/trading-board/FUT/fut' });
      const res = await http(svc.url, '/boards/futures');
      assert.equal(res.status, 200, res.text);
      const symbols = res.json.data.map((r: { symbol: string }) => r.symbol);
      assert.deepEqual(symbols, [
        'ENGRO-DEC',
        'HBL-DEC',
        'LUCK-DEC',
        'OGDC-DEC',
        'PPL-DEC',
        'FFC-DEC',
        'SYS-DEC',
        'MCB-DEC',
      ]);
      for (const row of res.json.data) {
        assert.equal(row.eligible, true);
        assert.equal(row.on_board, null);
        for (const field of ['bid_price', 'offer_price', 'ldcp', 'change', 'volume', 'last_price']) {
          assert.equal(row[field], null, `${row.symbol} ${field}`);
        }
      }
      assert.equal(
        res.json.data.find((r: { symbol: string }) => r.symbol === 'MCB-DEC').name,
        'MCB Bank Limited',
      );
      assert.equal(res.json.meta.missing.length, 1);
      assert.equal(res.json.meta.missing[0].part, 'board');
      assert.match(res.json.meta.missing[0].reason, /trading-board|portal|exchange/i);
      assertAsOf(res.json.meta.as_of);
    });
  }

  it('without the eligible-scrips page serves the board’s rows, eligible null', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/eligible-scrips' });
    const res = await http(svc.url, '/boards/futures');
    assert.equal(res.status, 200, res.text);
    const engro = res.json.data.find((r: { symbol: string }) => r.symbol === 'ENGRO-DEC');
    assert.equal(engro.eligible, null);
    assert.equal(engro.on_board, true);
    assert.equal(typeof engro.ldcp, 'number');
    assert.equal(
      res.json.data.some((r: { symbol: string }) => r.symbol === 'MCB-DEC'),
      false,
      'MCB-DEC is only on the eligible list',
    );
    assert.deepEqual(
      res.json.meta.missing.map((m: { part: string }) => m.part),
      ['eligible_scrips'],
    );
  });

  it('fails only when both pages fail', async () => {
    const svc = await fresh();
    harness.portal.fail({ mode: 'garbage', path: '/trading-board/FUT/fut' });
    harness.portal.fail({ mode: 'garbage', path: '/eligible-scrips' });
    assertError((await http(svc.url, '/boards/futures')).json, 502, 'upstream_data_error', /trading-board/);
  });

  it('refuses an unknown board naming the accepted ones', async () => {
    const svc = await fresh();
    assertError(
      (await http(svc.url, '/boards/regular')).json,
      422,
      'bad_request',
      'board must be futures, cash-settled-futures, index-futures, odd-lot or bills-and-bonds (got "regular")',
    );
  });
});
