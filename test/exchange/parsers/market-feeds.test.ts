// The market-wide pages' parsers (upstream.md §5, §6): against the fake portal's pages (generated
// in the recorded structures), hand-written cells of every shape upstream.md lists, pages of
// another structure, and the recorded trading boards where ../shared/dps-recorded exists.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { createDataset } from '../../../dev/fake-portal/dataset.ts';
import { PLANTED_PAYOUTS, renderFeed } from '../../../dev/fake-portal/feeds.ts';
import { UpstreamDataError } from '../../../src/errors.ts';
import {
  parseAnnouncements,
  parseCalendar,
  parseDebtMarket,
  parseEligibleScrips,
  parseMarketPayouts,
  parseTradingBoard,
} from '../../../src/exchange/parsers/index.ts';
import { parsePaging } from '../../../src/exchange/parsers/paging.ts';

const RECORDED = fileURLToPath(new URL('../../../../shared/dps-recorded/', import.meta.url));
const ds = createDataset();

function page(method: string, path: string, form: Record<string, string> = {}): string {
  const p = renderFeed(ds, method, path, new URLSearchParams(form));
  assert.ok(p, path);
  return p.text;
}

function payoutsTable(cells: string[][]): string {
  const rows = cells.map((c) => `<tr>${c.map((x) => `<td>${x}</td>`).join('')}</tr>`).join('');
  return (
    '<div>Showing  1 to 3 of 3 entries</div><table class="tbl" id="announcementsTable"><thead class="tbl__head"><tr>' +
    '<th>Symbol</th><th>Company</th><th>Sector</th><th>Dividend Announcement</th>' +
    `<th>Date / Time of Announcement</th><th>Book Closure Date</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

describe('parseMarketPayouts', () => {
  it('reads every planted shape of the fake page: two entitlements in one cell, no %, stray parentheses', () => {
    const parsed = parseMarketPayouts(
      page('POST', '/payouts', { date_from: '2026-10-01', date_to: '2026-11-30', count: '25', offset: '0' }),
    );
    assert.deepEqual(parsed.paging, { first: 1, last: 25, total: parsed.paging!.total });
    assert.ok(parsed.paging!.total > 25, 'more rows than a page');
    const all = [
      ...parsed.rows,
      ...parseMarketPayouts(
        page('POST', '/payouts', {
          date_from: '2026-10-01',
          date_to: '2026-11-30',
          count: '25',
          offset: '25',
        }),
      ).rows,
    ];
    const bySymbol = new Map(all.map((r) => [r.symbol, r]));
    const entries = (s: string) => bySymbol.get(s)?.entries.map((e) => [e.kind, e.percent, e.label]);
    assert.deepEqual(entries('ENGRO'), [['dividend', 350, 'F']]);
    assert.deepEqual(entries('HBL'), [['dividend', 50, 'F']]);
    assert.deepEqual(entries('LUCK'), [['bonus', 10, 'F']]);
    assert.deepEqual(entries('MEBL'), [['right', 23.855376, null]]);
    assert.deepEqual(entries('FFC'), [
      ['dividend', 10, 'i'],
      ['dividend', 5, 'i'],
    ]);
    assert.deepEqual(entries('OGDC'), [['dividend', 80, 'ii']]);
    assert.deepEqual(entries('PPL'), [['dividend', 40, 'ii']]);
    assert.deepEqual(entries('UBL'), [['dividend', 32.5, 'iii']]);
    // Not one of the known shapes: no entries, the text kept for the caller to report.
    assert.deepEqual(bySymbol.get('SYS')?.entries, []);
    assert.equal(bySymbol.get('SYS')?.details, 'BONUS 1 FOR 10 (B)');
    // `-` in the book-closure cell: no dates, nothing unreadable either.
    const mcb = bySymbol.get('MCB')!;
    assert.equal(mcb.bookClosureFrom, null);
    assert.equal(mcb.bookClosureText, null);
    const engro = bySymbol.get('ENGRO')!;
    assert.equal(engro.bookClosureFrom, '2026-11-24');
    assert.equal(engro.bookClosureTo, '2026-11-26');
    assert.match(engro.announced!, /^2026-1[01]-\d\dT\d\d:\d\d:00\+05:00$/);
    assert.equal(engro.company, 'Engro Corporation Limited');
    assert.equal(
      PLANTED_PAYOUTS.every((p) => bySymbol.has(p.symbol)),
      true,
    );
  });

  it('keeps an unreadable book closure and announcement time as text', () => {
    const parsed = parseMarketPayouts(
      payoutsTable([
        [
          '<strong>ABC</strong>',
          'A B C Ltd',
          'CEMENT',
          ' 10% (B) ',
          'July 10, 2026 4:54 PM',
          '21/07/2026  - 21/07/2026 ',
        ],
        ['<strong>XYZ</strong>', 'X', 'BANKS', '85% (R)', 'sometime', 'to be announced'],
      ]),
    );
    assert.equal(parsed.rows[0]!.announced, '2026-07-10T16:54:00+05:00');
    assert.equal(parsed.rows[0]!.bookClosureFrom, '2026-07-21');
    assert.equal(parsed.rows[1]!.announced, null);
    assert.equal(parsed.rows[1]!.announcedText, 'sometime');
    assert.equal(parsed.rows[1]!.bookClosureText, 'to be announced');
  });

  it('an empty result is no rows; a page without the table or its columns throws', () => {
    assert.deepEqual(parseMarketPayouts(payoutsTable([])).rows, []);
    assert.throws(() => parseMarketPayouts('<html><body>Maintenance</body></html>'), UpstreamDataError);
    assert.throws(
      () =>
        parseMarketPayouts(
          '<table class="tbl"><thead><tr><th>Symbol</th><th>Price</th></tr></thead></table>',
        ),
      /missing column "dividend announcement"/,
    );
  });

  it('reads the pager line with its two spaces and markup between the numbers', () => {
    assert.deepEqual(parsePaging('<div>Showing  1 to 25 of 559 entries</div>'), {
      first: 1,
      last: 25,
      total: 559,
    });
    assert.deepEqual(parsePaging('Showing <b>26</b> to <b>50</b> of <b>1,559</b> entries'), {
      first: 26,
      last: 50,
      total: 1559,
    });
    assert.equal(parsePaging('<table></table>'), null);
  });
});

describe('parseCalendar', () => {
  it('reads meetings, cleans trailing punctuation off cities, keeps an AGM and an EOGM on one day', () => {
    const rows = parseCalendar(page('POST', '/calendar', { from: '2026-11-25', to: '2026-11-25' }));
    const engro = rows.filter((r) => r.symbol === 'ENGRO');
    assert.deepEqual(engro.map((r) => r.type).sort(), ['AGM', 'EOGM']);
    assert.equal(engro.find((r) => r.type === 'EOGM')!.periodEnd, '2024-12-31');
    const all = parseCalendar(page('POST', '/calendar', { from: '2026-01-01', to: '2026-12-31' }));
    assert.ok(
      all.every((r) => r.city === null || !/[.,\s]$/.test(r.city)),
      'no trailing punctuation',
    );
    assert.ok(all.some((r) => r.city === 'Pezu, KPK'));
    assert.ok(all.some((r) => r.city === 'TRICON LAHORE'));
  });

  it('throws on a page that is not the calendar JSON', () => {
    assert.throws(() => parseCalendar('<html>Not Found</html>'), /malformed JSON/);
    assert.throws(() => parseCalendar('{"status":0,"message":"error"}'), UpstreamDataError);
    assert.throws(() => parseCalendar('{"status":1,"data":{}}'), /no data array/);
    assert.deepEqual(parseCalendar('{"status":1,"message":"","data":[]}'), []);
  });
});

describe('parseAnnouncements', () => {
  it('reads companies rows: revoked tag, image-only rows, absolute documents, a title ending in a space', () => {
    const parsed = parseAnnouncements(
      page('POST', '/announcements', { type: 'C', count: '25', symbol: 'HBL' }),
    );
    assert.ok(parsed.paging!.total >= parsed.rows.length);
    assert.ok(parsed.rows.some((r) => r.revoked && !r.title.includes('REVOKED')));
    for (const r of parsed.rows) {
      assert.equal(r.symbol, 'HBL');
      assert.match(r.document!, /^https:\/\/dps\.psx\.com\.pk\/download\/(document|attachment)\//);
      assert.equal(r.title, r.title.trim());
    }
    const engro = parseAnnouncements(
      page('POST', '/announcements', { type: 'C', count: '25', symbol: 'ENGRO' }),
    );
    const image = engro.rows.find((r) => r.documentKind === 'image');
    assert.ok(image, 'an image-only row');
    assert.equal(image.document, null);
  });

  it('reads the other types without symbol and name columns', () => {
    const parsed = parseAnnouncements(page('POST', '/announcements', { type: 'B', count: '5' }));
    assert.equal(parsed.rows.length, 5);
    assert.ok(parsed.rows.every((r) => r.symbol === null && r.name === null && r.documentKind === 'pdf'));
    assert.match(parsed.rows[0]!.time!, /^\d\d:\d\d$/);
  });

  it('throws on a page of another structure', () => {
    assert.throws(() => parseAnnouncements('<p>Service unavailable</p>'), UpstreamDataError);
  });
});

describe('parseDebtMarket', () => {
  it('reads the four tables: abbreviated sizes, percent rates, names cut short', () => {
    const rows = parseDebtMarket(page('GET', '/debt-market'));
    assert.deepEqual([...new Set(rows.map((r) => r.table))], [1, 2, 3, 4]);
    const bill = rows.find((r) => r.code === 'P01GIS080227')!;
    assert.equal(bill.issueSize, 53_710_000_000);
    assert.equal(bill.faceValue, 5000);
    assert.equal(bill.listingDate, '2026-02-11');
    assert.equal(bill.couponRate, 0);
    assert.equal(bill.previousCouponDate, null);
    assert.equal(rows.find((r) => r.code === 'P05GIS150530')!.issueSize, 1e12);
    assert.equal(rows.find((r) => r.code === 'P05GIS150530')!.couponRate, 11.44);
    assert.equal(rows.find((r) => r.code === 'BAFLTFC8')!.name, 'Bank Al-Falah(TFC8');
  });

  it('throws when no table has its columns', () => {
    assert.throws(
      () => parseDebtMarket('<table class="tbl"><thead><tr><th>Symbol</th></tr></thead></table>'),
      /missing column/,
    );
  });
});

describe('parseTradingBoard', () => {
  it('reads the bills-and-bonds board with yields, and a futures board', () => {
    const bnb = parseTradingBoard(page('GET', '/trading-board/BNB/bnb'));
    const gis = bnb.find((r) => r.symbol === 'P05GIS150530')!;
    assert.equal(gis.bidPrice, 107.3627);
    assert.equal(gis.bidYield, 11.2003);
    assert.equal(gis.offerPrice, 0);
    assert.equal(gis.name, null);
    const fut = parseTradingBoard(page('GET', '/trading-board/FUT/fut'));
    assert.ok(fut.every((r) => /-DEC$/.test(r.symbol) && r.name !== null && r.bidYield === null));
  });

  for (const file of ['trading_board_REG_main.html', 'trading_board_reg_gem.html']) {
    it(`reads the recorded ${file}`, (t: TestContext) => {
      const path = `${RECORDED}2026-04/${file}`;
      if (!existsSync(path)) return t.skip(`recorded portal pages not found (${path})`);
      const rows = parseTradingBoard(readFileSync(path, 'utf8'));
      assert.ok(rows.length > 0);
      for (const r of rows) {
        assert.match(r.symbol, /^[A-Z0-9][A-Z0-9.-]*$/);
        assert.equal(typeof r.volume, 'number');
        assert.equal(typeof r.ldcp, 'number');
      }
      // The GEM page's values: test/exchange/real-pages.test.ts (its copy is in the repository).
    });
  }

  it('throws on a page without the board table', () => {
    assert.throws(() => parseTradingBoard('<html><h1>Not Found</h1></html>'), UpstreamDataError);
  });
});

describe('parseEligibleScrips', () => {
  it('reads every market table with its title; empty markets have no scrips', () => {
    const markets = parseEligibleScrips(page('GET', '/eligible-scrips'));
    assert.deepEqual(
      markets.map((m) => m.code),
      ['REG', 'FUT', 'IPO', 'CSF', 'SIF', 'BNB', 'NDM', 'ODL', 'SQR'],
    );
    const fut = markets.find((m) => m.code === 'FUT')!;
    assert.equal(fut.title, 'Future Deliverable Contract Market');
    assert.ok(fut.scrips.some((s) => s.symbol === 'ENGRO-DEC' && s.name === 'Engro Corporation Limited'));
    assert.deepEqual(markets.find((m) => m.code === 'IPO')!.scrips, []);
  });

  it('throws on a page without any market table', () => {
    assert.throws(() => parseEligibleScrips('<table class="tbl"></table>'), /no market table/);
  });
});
