// The company page parser: every value of the recorded HBL page (../shared/dps-recorded, skipped
// when absent), the fake portal's generated pages against the facts they were generated from, and
// pages with sections missing or renamed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { companyFacts, renderCompanyPage } from '../../../dev/fake-portal/company.ts';
import { createDataset } from '../../../dev/fake-portal/dataset.ts';
import { renderGarbagePage, renderNotFoundPage } from '../../../dev/fake-portal/pages.ts';
import { UpstreamDataError } from '../../../src/errors.ts';
import { lineKey, parseCompany, parseCompanyAsOf } from '../../../src/exchange/parsers/company.ts';
import type { CompanyPage } from '../../../src/exchange/types.ts';

const RECORDED = fileURLToPath(
  new URL('../../../../shared/dps-recorded/2026-09/company-hbl.html', import.meta.url),
);

function recorded(t: TestContext): string | null {
  if (!existsSync(RECORDED)) {
    t.skip(`recorded portal pages not found (${RECORDED}); conformance not checked`);
    return null;
  }
  return readFileSync(RECORDED, 'utf8');
}

const pdf = (id: string) => `https://dps.psx.com.pk/download/document/${id}.pdf`;

describe('company page: the recorded HBL page', () => {
  it('reads the quote header and the REG panel', (t) => {
    const html = recorded(t);
    if (html === null) return;
    const page = parseCompany(html)!;
    assert.deepEqual(page.missing, []);
    assert.deepEqual(page.quote, {
      name: 'Habib Bank Limited',
      sectorName: 'COMMERCIAL BANKS',
      close: 306.1,
      change: 3.95,
      changePct: 1.31,
      asOf: '2026-09-30T15:47:00+05:00',
    });
    // The FUT and CSF panels carry their own OPEN, LDCP and circuit breaker: only REG counts.
    assert.deepEqual(page.stats, {
      open: 302.8,
      high: 309,
      low: 302.8,
      volume: 1153509,
      circuitBreakerLow: 271.94,
      circuitBreakerHigh: 332.37,
      dayRangeLow: 302.8,
      dayRangeHigh: 309,
      week52Low: 235.55,
      week52High: 369.99,
      askPrice: null,
      askVolume: 0,
      bidPrice: null,
      bidVolume: 0,
      ldcp: 302.15,
      var: 12,
      haircut: 15,
      peRatio: 6.95,
      change1yPct: 4.76,
      ytdChangePct: -5.35,
    });
  });

  it('reads the profile and the equity block (market cap from thousands to PKR)', (t) => {
    const html = recorded(t);
    if (html === null) return;
    const page = parseCompany(html)!;
    assert.deepEqual(page.profile, {
      description:
        'Habib Bank Limited is incorporated in Pakistan and is engaged in commercial banking related services in Pakistan and overseas. The Aga Khan Fund for Economic Development (AKFED), S.A. is the parent company of the Bank and its registered office is in Geneva, Switzerland.',
      keyPeople: [
        { name: 'Muhammad Nassir Salim', role: 'CEO' },
        { name: 'Sultan Ali Allana', role: 'Chairperson' },
        { name: 'Uzman Naveed Chaudhary', role: 'Company Secretary' },
      ],
      address: '9th Floor, Habib Bank tower, Jinnah Avenue, Blue Area, Islamabad',
      website: 'http://www.hbl.com',
      registrar:
        'CDC Share Registrar Services Limited CDC House, 99 – B, Block ‘B’, S.M.C.H.S., Main Shahra-e-Faisal Karachi',
      auditor: 'A.F. Ferguson & Co. Chartered Accountants',
      fiscalYearEnd: 'December',
    });
    assert.deepEqual(page.equity, {
      marketCap: 449_003_552_700,
      shares: 1_466_852_508,
      freeFloatShares: 586_741_003,
      freeFloatPct: 40,
    });
  });

  it('reads the announcements of all three tabs, with the PDF link where there is one and the images the View link shows', (t) => {
    const html = recorded(t);
    if (html === null) return;
    const rows = parseCompany(html)!.announcements!;
    const fr = 'financial-results';
    const bm = 'board-meetings';
    assert.deepEqual(rows, [
      {
        category: fr,
        date: '2026-08-10',
        title: 'Transmission of Half Yearly Report for the Period Ended June 30, 2026',
        documentUrl: pdf('280977'),
        images: ['280977-1.gif'],
      },
      {
        category: fr,
        date: '2026-08-04',
        title: 'Announcement of Financial Results for the Half Year Ended June 30, 2026',
        documentUrl: pdf('280734'),
        images: ['280734-1.gif'],
      },
      {
        category: fr,
        date: '2026-04-28',
        title: 'Transmission of Quarterly Report for the Period Ended March 31, 2026',
        documentUrl: pdf('275409'),
        images: ['275409-1.gif'],
      },
      {
        category: fr,
        date: '2026-04-17',
        title: 'Announcement of Financial Results for the First Quarter Ended March 31, 2026',
        documentUrl: pdf('274357'),
        images: ['274357-1.gif'],
      },
      {
        category: fr,
        date: '2026-03-06',
        title: 'HBL | Habib Bank Limited Transmission of Annual Report for the Year Ended December 31, 2025',
        documentUrl: 'https://dps.psx.com.pk/download/attachment/272195-1.pdf',
        images: [],
      },
      {
        category: bm,
        date: '2026-07-23',
        title: 'Board Meeting for Announcement of Financial Results for the Half Year ended June 30, 2026',
        documentUrl: pdf('280267'),
        images: ['280267-1.gif'],
      },
      {
        category: bm,
        date: '2026-06-17',
        title: 'Board Meeting for Agenda Other than Financial Results',
        documentUrl: pdf('278725'),
        images: ['278725-1.gif'],
      },
      {
        category: bm,
        date: '2026-06-08',
        title: 'Board Meeting Other Than Financial Results',
        documentUrl: pdf('278301'),
        images: ['278301-1.gif'],
      },
      {
        category: bm,
        date: '2026-04-28',
        title:
          'Certified Copy of Resolutions passed and adopted by the Shareholders of Habib Bank Limited at Extraordinary General Meeting',
        documentUrl: pdf('275456'),
        images: ['275456-1.gif'],
      },
      {
        category: bm,
        date: '2026-04-08',
        title:
          'Board Meeting for Announcement of Financial Results for the First Quarter Ended March 31, 2026',
        documentUrl: pdf('273762'),
        images: ['273762-1.gif'],
      },
      {
        category: 'others',
        date: '2026-08-21',
        title: 'Credit of Second Interim Cash Dividend D-2026 (II)',
        documentUrl: pdf('281512'),
        images: ['281512-1.gif'],
      },
      {
        category: 'others',
        date: '2026-06-24',
        title:
          'Disclosure of Interest by a Director CEO, or Executive of a listed company and their Spouses and the Substantial Shareholders u/c 5.6.1.(d) of PSX Regulations',
        documentUrl: null,
        images: ['279077-1.gif'],
      },
      {
        category: 'others',
        date: '2026-06-24',
        title:
          'Disclosure of Interest by a Director CEO, or Executive of a listed company and their Spouses and the Substantial Shareholders u/c 5.6.1.(d) of PSX Regulations',
        documentUrl: null,
        images: ['279036-1.gif'],
      },
      {
        category: 'others',
        date: '2026-05-07',
        title: 'Newspaper Advertisement for Credit of First Interim Cash Dividend D-2026 (I)',
        documentUrl: pdf('276833'),
        images: ['276833-1.gif'],
      },
      {
        category: 'others',
        date: '2026-05-07',
        title: 'Credit of Interim Cash Dividend D-2026 (I)',
        documentUrl: null,
        images: ['276832-1.gif'],
      },
    ]);
  });

  it('reads the financials (thousands to PKR, EPS as printed) and the ratios (parentheses negative)', (t) => {
    const html = recorded(t);
    if (html === null) return;
    const page = parseCompany(html)!;
    const line = (m: number, ti: number, p: number, eps: number) => ({
      mark_up_earned: m * 1000,
      total_income: ti * 1000,
      profit_after_taxation: p * 1000,
      eps,
    });
    assert.deepEqual(page.financials, {
      annual: [
        { period: '2025', lines: line(634_895_672, 320_648_511, 62_492_417, 42.6) },
        { period: '2024', lines: line(768_558_718, 313_235_711, 56_765_819, 38.7) },
        { period: '2023', lines: line(670_134_034, 277_297_213, 56_855_995, 38.76) },
        { period: '2022', lines: line(408_973_236, 190_393_360, 30_867_003, 21.04) },
      ],
      quarterly: [
        { period: 'Q2 2026', lines: line(176_329_475, 84_625_681, 18_127_829, 12.36) },
        { period: 'Q1 2026', lines: line(172_134_268, 82_780_007, 15_415_506, 10.51) },
        { period: 'Q3 2025', lines: line(167_695_843, 82_338_452, 15_968_959, 10.89) },
        { period: 'Q2 2025', lines: line(155_047_661, 82_096_458, 16_302_991, 11.12) },
      ],
    });
    const ratio = (margin: number, growth: number, peg: number) => ({
      net_profit_margin_pct: margin,
      eps_growth_pct: growth,
      peg,
    });
    assert.deepEqual(page.ratios, [
      { period: '2025', lines: ratio(9.84, 10.08, 0.75) },
      { period: '2024', lines: ratio(7.39, -0.15, -29.12) },
      { period: '2023', lines: ratio(8.48, 84.22, 0.03) },
      { period: '2022', lines: ratio(7.55, -9.93, -0.3) },
    ]);
  });
});

describe('company page: generated pages', () => {
  const ds = createDataset();

  function parsed(symbol: string): CompanyPage {
    const html = renderCompanyPage(ds, symbol, 'TOKEN');
    assert.ok(html !== null, symbol);
    const page = parseCompany(html);
    assert.ok(page !== null);
    assert.deepEqual(page.missing, [], symbol);
    return page;
  }

  it('agrees with the facts the page was generated from, in several sectors', () => {
    const sectors = new Set<string>();
    for (const symbol of ['HBL', 'ENGRO', 'LUCK', 'OGDC', 'SYS', 'HASCOL', 'FEROZ', 'INDU']) {
      const f = companyFacts(ds, symbol)!;
      const page = parsed(symbol);
      sectors.add(f.inst.sectorName);
      assert.equal(page.quote?.name, f.inst.name);
      assert.equal(page.quote?.sectorName, f.inst.sectorName);
      assert.equal(page.quote?.close, f.close);
      assert.equal(page.quote?.asOf, ds.asOfIso);
      assert.equal(page.stats?.ldcp, f.ldcp);
      assert.deepEqual([page.stats?.circuitBreakerLow, page.stats?.circuitBreakerHigh], f.circuitBreaker);
      assert.deepEqual([page.stats?.week52Low, page.stats?.week52High], f.week52);
      assert.equal(page.equity?.shares, f.inst.shares);
      assert.equal(page.equity?.freeFloatShares, f.inst.freeFloat);
      assert.equal(page.equity?.marketCap, Math.round(f.marketCapThousands * 1000 * 100) / 100);
      assert.equal(page.profile?.fiscalYearEnd, f.fiscalYearEnd);
      assert.deepEqual(
        page.financials?.annual?.map((p) => p.period),
        f.annual.map((p) => p.period),
      );
      for (const [i, period] of f.annual.entries()) {
        const got: Record<string, number | null> = page.financials!.annual![i]!.lines;
        assert.equal(got.eps, period.lines.eps);
        assert.equal(got.profit_after_taxation, period.lines.profit_after_taxation! * 1000);
      }
    }
    assert.ok(sectors.size >= 6, [...sectors].join());
  });

  it('agrees with the market watch and the screener of the same fake market', () => {
    const mw = ds.marketWatch.find((r) => r.symbol === 'LUCK')!;
    const sc = ds.screener.find((r) => r.symbol === 'LUCK')!;
    const page = parsed('LUCK');
    assert.equal(page.quote?.close, mw.current);
    assert.equal(page.stats?.ldcp, mw.ldcp);
    assert.equal(page.stats?.open, mw.open);
    assert.equal(page.stats?.volume, mw.volume);
    assert.ok(Math.abs(page.equity!.marketCap! - sc.marketCap!) < 1, 'market cap = shares × close');
    assert.equal(page.equity?.freeFloatShares, sc.freeFloat);
  });

  it('reads a loss-maker: parenthesised profit, EPS and ratios are negative', () => {
    const page = parsed('HASCOL');
    const latest = page.financials!.annual![0]!.lines;
    assert.ok(latest.profit_after_taxation! < 0 && latest.eps! < 0);
    assert.ok(page.ratios![0]!.lines.net_profit_margin_pct! < 0);
    assert.ok(page.financials!.quarterly!.every((q) => q.lines.eps! < 0));
    assert.ok('sales' in latest && !('mark_up_earned' in latest), 'non-banks report sales');
  });

  it('reads a symbol without financials as empty tables', () => {
    for (const symbol of ['WTL', 'UBLP-ETF', '786R']) {
      const page = parsed(symbol);
      assert.deepEqual(page.financials, { annual: [], quarterly: [] }, symbol);
      assert.deepEqual(page.ratios, [], symbol);
      assert.ok(page.announcements!.every((a) => a.category !== 'financial-results'));
    }
  });

  it('reads the Not Found page as null', () => {
    assert.equal(renderCompanyPage(ds, 'BAFLTFC8', 'T'), null);
    assert.equal(parseCompany(renderNotFoundPage(ds, 'T', '/company/NOSUCH')), null);
  });
});

describe('company page: missing and renamed sections', () => {
  const ds = createDataset();
  const html = renderCompanyPage(ds, 'HBL', 'T')!;

  it('keeps the sections that parse and names the ones that do not', () => {
    const broken = html
      .replace('>Equity Profile<', '>Shareholding<')
      .replace('id="equity"', 'id="shareholding"')
      .replace('data-name="REG"><div class="stats', 'data-name="REGULAR"><div class="stats');
    const page = parseCompany(broken)!;
    assert.equal(page.equity, null);
    assert.equal(page.stats, null);
    assert.deepEqual(
      page.missing.map((m) => m.section),
      ['stats', 'equity'],
    );
    assert.match(page.missing[1]!.reason, /Equity Profile/);
    assert.ok(page.profile !== null && page.financials !== null && page.announcements !== null);
  });

  it('throws on a page with none of them (a maintenance page)', () => {
    assert.throws(() => parseCompany(renderGarbagePage()), UpstreamDataError);
    assert.throws(() => parseCompany(''), UpstreamDataError);
  });
});

describe('company page: helpers', () => {
  it('reads the as-of line with or without the weekday', () => {
    assert.equal(parseCompanyAsOf('^ As of Wed, Sep 30, 2026 3:47 PM'), '2026-09-30T15:47:00+05:00');
    assert.equal(parseCompanyAsOf('As of Sep 30, 2026 12:05 AM'), '2026-09-30T00:05:00+05:00');
    assert.equal(parseCompanyAsOf('As of Sep 31, 2026 3:47 PM'), null);
  });

  it('names lines from their labels', () => {
    assert.equal(lineKey('Mark-up Earned'), 'mark_up_earned');
    assert.equal(lineKey('Profit after Taxation'), 'profit_after_taxation');
    assert.equal(lineKey('EPS Growth (%)'), 'eps_growth_pct');
    assert.equal(lineKey('Net Profit Margin (%)'), 'net_profit_margin_pct');
  });
});
