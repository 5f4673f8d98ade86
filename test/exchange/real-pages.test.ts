// Real portal pages recorded by other public projects (test/fixtures/real, provenance in its
// README). Every expected value below was read off the page itself (its cells, links and counts),
// not taken from the parsers' output: a parser that disagrees with the page fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import {
  parseAnnouncements,
  parseDebtMarket,
  parseEligibleScrips,
  parseHistory,
  parseReports,
  parseTradingBoard,
} from '../../src/exchange/parsers/index.ts';

const real = (path: string): string =>
  readFileSync(new URL(`../fixtures/real/${path}`, import.meta.url), 'utf8');

// Pages that shared/dps-recorded already holds are read from there, not copied into the project;
// without that folder beside the repository their tests skip.
const SHARED = new URL('../../../shared/dps-recorded/2026-04/', import.meta.url);
const shared = (name: string): string | null =>
  existsSync(new URL(name, SHARED)) ? readFileSync(new URL(name, SHARED), 'utf8') : null;

describe('real page: GET /debt-market (2026-04-08)', () => {
  const rows = parseDebtMarket(real('debt-market/debt-market.html'));

  it('reads all four tabs: 67 + 7 + 26 + 182 instruments, each titled by its tab', () => {
    const count = (table: number) => rows.filter((r) => r.table === table).length;
    assert.deepEqual([count(1), count(2), count(3), count(4)], [67, 7, 26, 182]);
    assert.deepEqual(
      [1, 2, 3, 4].map((t) => rows.find((r) => r.table === t)?.heading),
      [
        'GoP Ijarah Sukuk',
        'Public Debt Securities',
        'Privately Debt Securities',
        'Government Debt Securities',
      ],
    );
  });

  it('fills the coupon columns headed <span>Coupon/</span><br/><span>Rental Rate</span>', () => {
    assert.deepEqual(
      rows.find((r) => r.code === 'P01GIS080227'),
      {
        table: 1,
        heading: 'GoP Ijarah Sukuk',
        code: 'P01GIS080227',
        name: '1 Year GIS Discounted Mat - 08-Feb-27',
        faceValue: 5000,
        listingDate: '2026-02-11',
        issueDate: '2026-02-09',
        issueSize: 53_710_000_000,
        maturityDate: '2027-02-08',
        couponRate: 0,
        previousCouponDate: '2026-02-09',
        nextCouponDate: '2027-02-08',
        outstandingDays: 305,
        remainingYears: 0.8,
      },
    );
    assert.deepEqual(
      rows.find((r) => r.code === 'BAFLTFC6'),
      {
        table: 2,
        heading: 'Public Debt Securities',
        code: 'BAFLTFC6',
        name: 'Bank Al-Falah(TFC6',
        faceValue: 5000,
        listingDate: '2018-03-28',
        issueDate: '2018-03-26',
        issueSize: 7_000_000_000,
        maturityDate: '2043-03-26',
        couponRate: 11.44,
        previousCouponDate: '2026-03-26',
        nextCouponDate: '2026-09-26',
        outstandingDays: 6195,
        remainingYears: 17,
      },
    );
    const tpl = rows.find((r) => r.code === 'TPLTFC3');
    assert.deepEqual(
      [tpl?.table, tpl?.name, tpl?.faceValue, tpl?.issueSize, tpl?.couponRate, tpl?.nextCouponDate],
      [3, 'TPLCorp(TFC3)', 49_999, 2_270_000_000, 11.43, '2026-06-28'],
    );
    const vrr = rows.find((r) => r.code === 'P10VRR300935');
    assert.deepEqual(
      [vrr?.couponRate, vrr?.previousCouponDate, vrr?.nextCouponDate, vrr?.issueSize, vrr?.remainingYears],
      [10.4805, '2026-03-31', '2026-09-30', 97_430_000_000, 9.5],
    );
    // A matured bill still listed: negative days and years as printed.
    const matured = rows.find((r) => r.code === 'PK12TB301025');
    assert.deepEqual(
      [
        matured?.table,
        matured?.issueSize,
        matured?.couponRate,
        matured?.outstandingDays,
        matured?.remainingYears,
      ],
      [4, 504_050_000_000, 0.01, -161, -0.4],
    );
    assert.equal(
      rows.filter((r) => r.couponRate === null).length,
      0,
      'every row of the page prints a coupon rate',
    );
  });
});

describe('real page: GET /eligible-scrips (2026-04-08)', () => {
  const markets = parseEligibleScrips(real('eligible-scrips/eligible-scrips.html'));

  it('reads the nine markets with their titles and row counts (IPO empty)', () => {
    assert.deepEqual(
      markets.map((m) => [m.code, m.title, m.scrips.length]),
      [
        ['REG', 'Regular Deliverable Equity Market', 565],
        ['FUT', 'Future Deliverable Contract Market', 312],
        ['IPO', 'Initial Public Offering Market', 0],
        ['CSF', 'Cash Settled Future Contract Market', 246],
        ['SIF', 'Stock Index Future Contract Market', 9],
        ['BNB', 'Bills and Bond Market', 282],
        ['NDM', 'Negotiated Deal Market', 565],
        ['ODL', 'Odd Lot Market', 9],
        ['SQR', 'Square-Up (Buy-In) Market', 565],
      ],
    );
  });

  it('reads linked and bare symbols with their names', () => {
    const first = (code: string) => markets.find((m) => m.code === code)?.scrips[0];
    assert.deepEqual(first('REG'), { symbol: '786', name: '786 Investments Limited' });
    assert.deepEqual(first('FUT'), { symbol: 'AGHA-APR', name: 'Agha Steel Ind.Ltd' });
    assert.deepEqual(first('CSF'), { symbol: 'ACPL-CAPR', name: 'Attock Cement Pakistan Limited' });
    assert.deepEqual(first('SIF'), { symbol: 'BKTI-APR', name: 'BKTi' });
    assert.deepEqual(first('BNB'), { symbol: 'AKBLTFC6', name: 'Askari Bank(TFC6)' });
    assert.deepEqual(first('ODL'), { symbol: 'ACIETF', name: 'Alfalah Consumer Index (ETF)' });
    const sif = markets.find((m) => m.code === 'SIF')?.scrips.map((s) => s.symbol);
    assert.ok(sif?.includes('KSE30-APR'));
  });
});

describe('real page: GET /trading-board/BNB/bnb (2026-04-08)', () => {
  const rows = parseTradingBoard(real('trading-board/bnb-bnb.html'));

  it('reads 24 rows with prices and yields to four decimals, zeros as the board prints them', () => {
    assert.equal(rows.length, 24);
    assert.deepEqual(rows[0], {
      symbol: 'P05FRR180929',
      name: null,
      bidVolume: 0,
      bidPrice: 0,
      bidYield: 0,
      offerVolume: 2_000_000,
      offerPrice: 107.3627,
      offerYield: 11.2003,
      lastPrice: 103.58,
      lastYield: 12.5243,
      ldcp: 103.58,
      ldcy: 12.5243,
      change: 0,
      volume: 525_000_000,
    });
    assert.deepEqual(rows[1], {
      symbol: 'P01GIS210127',
      name: null,
      bidVolume: 5000,
      bidPrice: 92.085,
      bidYield: 10.93,
      offerVolume: 4_995_000,
      offerPrice: 92.09,
      offerYield: 10.92,
      lastPrice: 92.09,
      lastYield: 10.92,
      ldcp: 92.045,
      ldcy: 10.99,
      change: 0.045,
      volume: 150_010_000,
    });
  });
});

describe('real page: GET /trading-board/REG/gem (2026-04-08)', () => {
  it('reads the GEM board with names', (t) => {
    const page = shared('trading_board_reg_gem.html');
    if (page === null) return t.skip('../shared/dps-recorded is not beside the repository');
    const rows = parseTradingBoard(page);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows[0], {
      symbol: 'GEMPACRA',
      name: 'The Pakistan Credit Rating Agency Ltd',
      bidVolume: 5000,
      bidPrice: 30,
      bidYield: null,
      offerVolume: 5000,
      offerPrice: 32.5,
      offerYield: null,
      lastPrice: null,
      lastYield: null,
      ldcp: 31,
      ldcy: null,
      change: 0,
      volume: 5001,
    });
    assert.deepEqual(
      [
        rows[1]?.symbol,
        rows[1]?.name,
        rows[1]?.bidVolume,
        rows[1]?.bidPrice,
        rows[1]?.offerPrice,
        rows[1]?.ldcp,
      ],
      ['GEMBCEM', 'Burj Clean Energy Modaraba(GEM)', 38_273, 10.5, 11, 10.71],
    );
  });
});

describe('real page: POST /announcements type C (2026-09-29)', () => {
  const page = parseAnnouncements(real('announcements/companies.html'));

  it('reads the pager and three rows, each with its PDF and the View link’s image', () => {
    assert.deepEqual(page.paging, { first: 1, last: 3, total: 224_309 });
    assert.deepEqual(page.rows, [
      {
        date: '2026-09-29',
        time: '15:28',
        symbol: 'ASC',
        name: 'Al Shaheer Corporation Limited',
        title: 'Applied for Extension for Holding Annual General Meeting for the Year Ended 06/30/2026',
        revoked: false,
        document: 'https://dps.psx.com.pk/download/document/283814.pdf',
        documentKind: 'pdf',
        images: ['283814-1.gif'],
      },
      {
        date: '2026-09-29',
        time: '15:27',
        symbol: 'BWCL',
        name: 'Bestway Cement Limited',
        title: 'Presentation of Corporate Briefing Session 2026',
        revoked: false,
        document: 'https://dps.psx.com.pk/download/document/283813.pdf',
        documentKind: 'pdf',
        images: ['283813-1.gif'],
      },
      {
        date: '2026-09-29',
        time: '15:27',
        symbol: 'ACPL',
        name: 'Attock Cement Pakistan Limited',
        title: 'Notice of EOGM - Published in Business Recorder & Nawaiwaqt',
        revoked: false,
        document: 'https://dps.psx.com.pk/download/document/283812.pdf',
        documentKind: 'pdf',
        images: ['283812-1.gif'],
      },
    ]);
  });
});

describe('real page: POST /historical by month (2026-09)', () => {
  it('reads a page that starts with a comment and has a tbody without a class', () => {
    assert.deepEqual(parseHistory(real('history/month.html')), [
      { date: '2026-09-29', open: 637, high: 638.5, low: 629, close: 630.3, volume: 337_455 },
      { date: '2026-09-28', open: 640.97, high: 641.99, low: 634.5, close: 635.09, volume: 244_578 },
      { date: '2026-09-25', open: 639, high: 642.9, low: 636.9, close: 639.62, volume: 286_082 },
    ]);
  });
});

describe('real page: GET /financial-reports-list (2026-04-08)', () => {
  it('reads the list’s column set with an empty body as no reports', (t) => {
    const page = shared('financial_reports.html');
    if (page === null) return t.skip('../shared/dps-recorded is not beside the repository');
    assert.deepEqual(parseReports(page, 'LUCK'), []);
  });
});
