// `GET /company/{SYM}`: the company page in the recorded structure: quote header, stats tabs (REG, DFC, CSF, ODL), profile,
// equity, announcements in three tabs, annual and quarterly financials (the annual table's
// `<tbody>` sits inside its `<thead>`, as recorded), ratios, and the empty PAYOUTS and REPORTS
// shells. Every number agrees with the rest of the fake market: the quote and REG panel are the
// market watch's day, market cap is shares × close (printed in thousands), free float and shares
// are the instrument's, the 52-week range is the history's, the circuit breaker is the price
// limit around LDCP, and the latest annual EPS is the screener's close / P/E.
//
// On purpose: COMMERCIAL BANKS report `Mark-up Earned`, others `Sales`; HASCOL and PIAHCLA are
// loss-makers (parenthesised negatives); ETFs, rights and WTL have no financials (the tables have
// a header without periods); debt instruments and unknown symbols get the `Not Found` page.
import type { Dataset, Instrument } from './dataset.ts';
import { hashString, mulberry32, priceLimitFraction } from './dataset.ts';
import { escapeHtml, formatDateText, formatFixed, renderCarousel, tokenScript } from './pages.ts';

export interface FakeFinancialPeriod {
  period: string;
  /** Thousands of PKR as printed, except eps (PKR a share); null where the page shows `-`. */
  lines: Record<string, number | null>;
}

export interface FakeAnnouncement {
  category: 'Financial Results' | 'Board Meetings' | 'Others';
  date: string;
  title: string;
  /** Path of the PDF, or null when the row links only images. */
  pdf: string | null;
}

/** What the page shows, in the page's units (tests compare the service's answers with it). */
export interface CompanyFacts {
  inst: Instrument;
  close: number;
  ldcp: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  circuitBreaker: [number, number];
  week52: [number, number];
  askPrice: number;
  askVolume: number;
  bidPrice: number;
  bidVolume: number;
  var: number;
  haircut: number;
  peRatio: number;
  change1yPct: number;
  ytdChangePct: number;
  /** Thousands of PKR, 2 decimals as printed. */
  marketCapThousands: number;
  freeFloatPct: number;
  description: string;
  keyPeople: [string, string][];
  address: string;
  website: string;
  registrar: string;
  auditor: string;
  fiscalYearEnd: string;
  announcements: FakeAnnouncement[];
  /** Empty for a symbol without financials. */
  annual: FakeFinancialPeriod[];
  quarterly: FakeFinancialPeriod[];
  ratios: FakeFinancialPeriod[];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const FIRST = ['Muhammad', 'Ayesha', 'Imran', 'Sadia', 'Tariq', 'Farah', 'Kamran', 'Nadia', 'Asif', 'Zainab'];
const LAST = [
  'Ahmed',
  'Khan',
  'Qureshi',
  'Siddiqui',
  'Malik',
  'Hussain',
  'Chaudhry',
  'Sheikh',
  'Raza',
  'Butt',
];
const CITIES = ['Karachi', 'Lahore', 'Islamabad', 'Faisalabad', 'Rawalpindi'];
const AUDITORS = [
  'A.F. Ferguson & Co. Chartered Accountants',
  'KPMG Taseer Hadi & Co. Chartered Accountants',
  'EY Ford Rhodes Chartered Accountants',
  'Yousuf Adil Chartered Accountants',
];
const REGISTRARS = [
  'CDC Share Registrar Services Limited CDC House, 99 – B, Block ‘B’, S.M.C.H.S., Main Shahra-e-Faisal Karachi',
  'THK Associates (Pvt.) Limited Plot No. 32-C, Jami Commercial Street 2, D.H.A., Phase VII, Karachi',
  'FAMCO Share Registration Services (Pvt.) Limited 8-F, Block 6, P.E.C.H.S., Karachi',
];

const LOSS_MAKERS = new Set(['HASCOL', 'PIAHCLA']);

function hasFinancials(inst: Instrument): boolean {
  return inst.kind === 'equity' && inst.hasReports;
}

/** Ten-day blocks back from the as-of date: announcement dates a few weeks apart, newest first. */
function dateBefore(asOf: string, days: number): string {
  const ms = Date.parse(`${asOf}T00:00:00Z`) - days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

function financialsOf(
  inst: Instrument,
  close: number,
  peRatio: number,
  rng: () => number,
  asOfYear: number,
): { annual: FakeFinancialPeriod[]; quarterly: FakeFinancialPeriod[]; ratios: FakeFinancialPeriod[] } {
  if (!hasFinancials(inst)) return { annual: [], quarterly: [], ratios: [] };
  const topLine = inst.sectorName === 'COMMERCIAL BANKS' ? 'mark_up_earned' : 'sales';
  const loss = LOSS_MAKERS.has(inst.symbol);
  // The latest year's EPS is what the screener's P/E implies; earlier years drift from it.
  let eps = loss || peRatio <= 0 ? -round2(close * (0.1 + rng() * 0.4)) : round2(close / peRatio);
  const years: { year: number; eps: number }[] = [];
  const lastYear = asOfYear - 1;
  for (let y = lastYear; y > lastYear - 4; y--) {
    years.push({ year: y, eps });
    eps = round2(eps / (0.8 + rng() * 0.5));
    if (loss && y === lastYear - 2) eps = Math.abs(eps); // profitable once, years ago
  }
  const annual: FakeFinancialPeriod[] = [];
  const ratios: FakeFinancialPeriod[] = [];
  years.forEach(({ year, eps: e }, i) => {
    const profit = Math.round((e * inst.shares) / 1000);
    const margin = 0.04 + rng() * 0.2;
    const sales = Math.round(Math.abs(profit) / margin);
    const totalIncome = Math.round(sales * (0.3 + rng() * 0.4));
    annual.push({
      period: String(year),
      lines: { [topLine]: sales, total_income: totalIncome, profit_after_taxation: profit, eps: e },
    });
    const previous = years[i + 1]?.eps;
    // The oldest year has no year before it: the page shows `-`.
    const growth = previous === undefined || previous === 0 ? null : round2((e / previous - 1) * 100);
    const pe = e === 0 ? 0 : close / e;
    ratios.push({
      period: String(year),
      lines: {
        net_profit_margin_pct: round2((profit / sales) * 100),
        eps_growth_pct: growth,
        peg: growth === null || growth === 0 ? null : round2(pe / growth),
      },
    });
  });
  const quarterly: FakeFinancialPeriod[] = [];
  const latest = years[0] as { eps: number };
  const quarters = [`Q3 ${asOfYear}`, `Q2 ${asOfYear}`, `Q1 ${asOfYear}`, `Q4 ${asOfYear - 1}`];
  for (const period of quarters) {
    const e = round2((latest.eps / 4) * (0.8 + rng() * 0.4));
    const profit = Math.round((e * inst.shares) / 1000);
    const sales = Math.round(Math.abs(profit) / (0.04 + rng() * 0.2));
    quarterly.push({
      period,
      lines: {
        [topLine]: sales,
        total_income: Math.round(sales * 0.5),
        profit_after_taxation: profit,
        eps: e,
      },
    });
  }
  return { annual, quarterly, ratios };
}

/** Against the last close of the previous year, from the history (0 without one). */
function ytdChangePct(ds: Dataset, symbol: string, close: number): number {
  const yearStart = `${ds.asOfDate.slice(0, 4)}-01-01`;
  const before = ds.history(symbol).find((r) => r.date < yearStart);
  return before?.close ? round2((close / before.close - 1) * 100) : 0;
}

/** The page's facts for a symbol; null where the portal answers `Not Found`. */
export function companyFacts(ds: Dataset, symbol: string): CompanyFacts | null {
  const inst = ds.instrument(symbol);
  const day = ds.day(symbol);
  if (!inst || inst.kind === 'debt' || !day) return null;
  const rng = mulberry32(hashString(`company:${symbol}`) ^ ds.options.seed);
  const screener = ds.screener.find((r) => r.symbol === symbol);
  const history = ds.history(symbol).slice(0, 250);
  const closes =
    history.length > 0
      ? history.flatMap((r) => [r.low ?? r.close ?? day.close, r.high ?? r.close ?? day.close])
      : [day.close];
  const limit = Math.max(round2(priceLimitFraction(ds.asOfDate) * day.ldcp + 1e-9), 1);
  const city = CITIES[Math.floor(rng() * CITIES.length)] as string;
  const person = (): string =>
    `${FIRST[Math.floor(rng() * FIRST.length)]} ${LAST[Math.floor(rng() * LAST.length)]}`;
  const asOfYear = Number(ds.asOfDate.slice(0, 4));
  const peRatio = screener?.peRatio ?? 0;
  const fin = financialsOf(inst, day.close, peRatio, rng, asOfYear);
  const ann = (
    category: FakeAnnouncement['category'],
    days: number,
    title: string,
    id: number,
    pdf = true,
  ): FakeAnnouncement => ({
    category,
    date: dateBefore(ds.asOfDate, days),
    title,
    pdf: pdf ? `/download/document/${id}.pdf` : null,
  });
  const base = 280_000 + inst.ordinal * 40;
  const hasFin = hasFinancials(inst);
  return {
    inst,
    close: day.close,
    ldcp: day.ldcp,
    open: day.open,
    high: day.high,
    low: day.low,
    volume: day.volume,
    // Clamped at 0 as src/market/price-limit.ts does: a sub-rupee stock's Rs 1 floor.
    circuitBreaker: [Math.max(0, round2(day.ldcp - limit)), round2(day.ldcp + limit)],
    week52: [Math.min(...closes), Math.max(...closes)],
    askPrice: inst.traded ? round2(day.close + 0.05) : 0,
    askVolume: inst.traded ? 500 + Math.floor(rng() * 20) * 100 : 0,
    bidPrice: inst.traded ? round2(day.close - 0.05) : 0,
    bidVolume: inst.traded ? 500 + Math.floor(rng() * 20) * 100 : 0,
    var: round2(10 + Math.floor(rng() * 20)),
    haircut: round2(15 + Math.floor(rng() * 3) * 5),
    peRatio: round2(peRatio),
    change1yPct: round2(screener?.change1yPct ?? 0),
    ytdChangePct: ytdChangePct(ds, symbol, day.close),
    marketCapThousands: round2((inst.shares * day.close) / 1000),
    freeFloatPct: round2((inst.freeFloat / inst.shares) * 100),
    description: `${inst.name} is incorporated in Pakistan and is listed on the Pakistan Stock Exchange. Its principal activity is in the ${inst.sectorName.toLowerCase()} sector.`,
    keyPeople: [
      [person(), 'CEO'],
      [person(), 'Chairperson'],
      [person(), 'Company Secretary'],
    ],
    address: `${1 + Math.floor(rng() * 20)}th Floor, ${inst.name} House, ${city}`,
    website: `http://www.${symbol.toLowerCase().replace(/[^a-z0-9]/g, '')}.com.pk`,
    registrar: REGISTRARS[Math.floor(rng() * REGISTRARS.length)] as string,
    auditor: AUDITORS[Math.floor(rng() * AUDITORS.length)] as string,
    fiscalYearEnd: MONTH_NAMES[inst.fiscalYearEndMonth - 1] as string,
    announcements: [
      ...(hasFin
        ? [
            ann(
              'Financial Results',
              30,
              `Announcement of Financial Results for the Quarter Ended September 30, ${asOfYear} `,
              base + 1,
            ),
            ann(
              'Financial Results',
              120,
              `Transmission of Half Yearly Report for the Period Ended June 30, ${asOfYear} `,
              base + 2,
            ),
          ]
        : []),
      ann(
        'Board Meetings',
        45,
        `Board Meeting for Announcement of Financial Results for the Quarter Ended September 30, ${asOfYear} `,
        base + 3,
      ),
      ann('Board Meetings', 200, 'Board Meeting for Agenda Other than Financial Results ', base + 4),
      ann(
        'Others',
        10,
        'Disclosure of Interest by a Director CEO, or Executive of a listed company & their Spouses ',
        base + 5,
        false,
      ),
      ann('Others', 60, `Credit of Interim Cash Dividend D-${asOfYear} (I) `, base + 6),
    ],
    ...fin,
  };
}

// ---- rendering ----

function dirClass(n: number): string {
  return n > 0 ? 'pos' : n < 0 ? 'neg' : 'noc';
}

function statsItem(label: string, value: string): string {
  return `<div class="stats_item"><div class="stats_label">${label}</div><div class="stats_value">${value}</div></div>`;
}

function rangeItem(label: string, [low, high]: [number, number], current: number): string {
  return statsItem(
    label,
    `${formatFixed(low, 2)} — ${formatFixed(high, 2)}<div class="numRange" data-low="${low}" data-high="${high}" data-current="${current}"></div>`,
  );
}

function changeItem(label: string, pct: number): string {
  const dir = dirClass(pct);
  const icon = dir === 'pos' ? 'icon-up-dir' : dir === 'neg' ? 'icon-down-dir' : '';
  return `<div class="stats_item"><div class="stats_label">${label}</div><div class="stats_value change__text--${dir}"><i class="${icon}"></i> ${formatFixed(pct, 2)}%</div></div>`;
}

/** `(0.15)` for negatives, as the financials print them. */
function financialCell(value: number | null, decimals: number): string {
  if (value === null) return '<td class="right"><span class="">-</span></td>';
  const text = formatFixed(Math.abs(value), decimals);
  return value < 0
    ? `<td class="right"><span class="change__text--neg">(${text})</span></td>`
    : `<td class="right"><span class="">${text}</span></td>`;
}

const LINE_LABELS: Record<string, string> = {
  mark_up_earned: 'Mark-up Earned',
  sales: 'Sales',
  total_income: 'Total Income',
  profit_after_taxation: 'Profit after Taxation',
  eps: 'EPS',
  net_profit_margin_pct: 'Net Profit Margin (%)',
  eps_growth_pct: 'EPS Growth (%)',
  peg: 'PEG',
};

/** The annual and quarterly tables nest `<tbody>` inside `<thead>` (recorded); the ratios table does not. */
function periodTable(periods: FakeFinancialPeriod[], nested: boolean): string {
  const head = `<tr><th></th>${periods.map((p) => `<th class="right">${p.period}</th>`).join('')}</tr>`;
  const keys = periods[0] ? Object.keys(periods[0].lines) : [];
  const rows = keys
    .map(
      (key) =>
        `<tr><td>${LINE_LABELS[key] ?? key}</td>${periods
          .map((p) =>
            financialCell(
              p.lines[key] ?? null,
              key === 'eps' || key.endsWith('_pct') || key === 'peg' ? 2 : 0,
            ),
          )
          .join('')}</tr>`,
    )
    .join('');
  const body = `<tbody class="tbl__body">${rows}</tbody>`;
  return nested
    ? `<table class="tbl tbl--col-striped"> <thead class="tbl__head">${head}${body}</thead></table>`
    : `<table class="tbl tbl--col-striped"> <thead class="tbl__head">${head}</thead>${body}</table>`;
}

function announcementTable(rows: FakeAnnouncement[]): string {
  const body = rows
    .map((a) => {
      const id = a.pdf?.match(/(\d+)\.pdf$/)?.[1] ?? String(hashString(a.title) % 1_000_000);
      const pdf =
        a.pdf === null ? '' : `<i class="icon-file-pdf"></i><a href="${a.pdf}" target="_blank">PDF</a>`;
      return (
        `<tr><td>${formatDateText(a.date)}</td><td>${escapeHtml(a.title)}</td>` +
        `<td> <i class="icon-file-image"></i><a href="javascript:" data-images="${id}-1.gif">View</a>&nbsp;&nbsp;&nbsp;${pdf}</td></tr>`
      );
    })
    .join('');
  return (
    '<div class="tbl__wrapper"><table class="tbl"><thead class="tbl__head"><tr><th style="width:140px;">Date</th><th>Title</th>' +
    `<th style="width:140px;">Document</th></tr></thead><tbody class="tbl__body">${body}</tbody></table></div>`
  );
}

const MENU = ['QUOTE', 'PROFILE', 'EQUITY', 'ANNOUNCEMENTS', 'FINANCIALS', 'RATIOS', 'PAYOUTS', 'REPORTS'];

export function renderCompanyPage(ds: Dataset, symbol: string, token: string): string | null {
  const f = companyFacts(ds, symbol);
  if (f === null) return null;
  const { inst } = f;
  const change = round2(f.close - f.ldcp);
  const changePct = f.ldcp === 0 ? 0 : round2((change / f.ldcp) * 100);
  const dir = dirClass(change);
  const weekday = new Date(`${ds.asOfDate}T00:00:00Z`).toUTCString().slice(0, 3);
  const menu =
    MENU.map(
      (m, i) =>
        `<div><a${i === 0 ? ' class="pageHeader__selected"' : ''} href="#${m.toLowerCase()}">${m}</a></div>`,
    ).join('') +
    `<div class="pageHeader__select"><i class="icon-down-open"></i><select>${MENU.map((m) => `<option value="#${m.toLowerCase()}">${m}</option>`).join('')}</select></div>`;
  const reg =
    '<div class="tabs__panel" data-name="REG"><div class="stats stats--noborder">' +
    statsItem('Open', formatFixed(f.open, 2)) +
    statsItem('High', formatFixed(f.high, 2)) +
    statsItem('Low', formatFixed(f.low, 2)) +
    statsItem('Volume', formatFixed(f.volume, 0)) +
    '</div><div class="stats company__quote__rangeStats">' +
    rangeItem('CIRCUIT BREAKER', f.circuitBreaker, f.close) +
    rangeItem('DAY RANGE', [f.low, f.high], f.close) +
    rangeItem('52-WEEK RANGE ^', f.week52, f.close) +
    '</div><div class="stats">' +
    statsItem('Ask Price', formatFixed(f.askPrice, 2)) +
    statsItem('Ask Volume', formatFixed(f.askVolume, 0)) +
    statsItem('Bid Price', formatFixed(f.bidPrice, 2)) +
    statsItem('Bid Volume', formatFixed(f.bidVolume, 0)) +
    '</div><div class="stats">' +
    statsItem('LDCP', formatFixed(f.ldcp, 2)) +
    statsItem('VAR', formatFixed(f.var, 2)) +
    statsItem('HAIRCUT', formatFixed(f.haircut, 2)) +
    statsItem('P/E Ratio (TTM) **', formatFixed(f.peRatio, 2)) +
    '</div><div class="stats">' +
    changeItem('1-Year Change * ^', f.change1yPct) +
    changeItem('YTD Change * ^', f.ytdChangePct) +
    '<div class="stats_item"></div><div class="stats_item"></div></div></div>';
  const quote =
    '<div class="section section--padded company" id="quote"><div class="company__quote"><div class="quote__details">' +
    `<div class="quote__name">${escapeHtml(inst.name)}</div><div class="quote__sector"><span>${escapeHtml(inst.sectorName)}</span></div>` +
    `<div class="quote__price"><div class="quote__close">Rs.${formatFixed(f.close, 2)}</div>` +
    `<div class="quote__change change__text--${dir}"><div class="change__direction"><i class="${dir === 'pos' ? 'icon-up-dir' : dir === 'neg' ? 'icon-down-dir' : ''}"></i> </div>` +
    `<div class="change__value">${formatFixed(change, 2)}</div><div class="change__percent"> (${formatFixed(changePct, 2)}%)</div></div></div>` +
    '<div class="quote__chart"><div class="chart" id="companyDailyChart"><div class="chart__tools"><div class="chart__range">' +
    ['1D', '1M', '6M', 'YTD', '1Y', '3Y', '5Y']
      .map(
        (r, i) =>
          `<div class="chart__range__item${i === 0 ? ' chart__range__item--selected' : ''}" data-name="${r}">${r}</div>`,
      )
      .join('') +
    `</div><div class="quote__date">^ As of ${weekday}, ${ds.asOfLabel}</div></div><div class="chart__body"></div></div></div></div>` +
    '<div class="quote__stats" id="statsTab"><div class="tabs"><div class="tabs__list"><div class="tabs__list__item" data-name="REG">REG</div>' +
    '<div class="tabs__list__item" data-name="FUT">DFC </div><div class="tabs__list__item" data-name="CSF">CSF</div><div class="tabs__list__item" data-name="ODL">ODL</div></div>' +
    `<div class="tabs__panels">${reg}<div class="tabs__panel" data-name="FUT"></div><div class="tabs__panel" data-name="CSF"></div>` +
    '<div class="tabs__panel" data-name="ODL"><h2 style="text-align: center;">No record found</h2></div></div></div></div></div>' +
    '<div class="quote__powered__by" style="margin-top: 1em;"><span> ** Based on unconsolidated financials <br>&nbsp;&nbsp;* Returns not adjusted for payouts<br>' +
    '&nbsp;&nbsp;^The historical stock prices have been adjusted to reflect stock splits to ensure comparability over time.</span></div></div>';
  const people = f.keyPeople
    .map(([n, r]) => `<tr><td><strong>${escapeHtml(n)}</strong></td><td>${r}</td></tr>`)
    .join('');
  const profile =
    '<div class="section section--padded company" id="profile"><div class="company__profile"><h1 class="section__title">Company Profile</h1>' +
    `<div class="profile__items"><div class="profile__item profile__item--decription"><div class="item__head">BUSINESS DESCRIPTION</div><p>${escapeHtml(f.description)} </p></div>` +
    `<div class="profile__item profile__item--people"><div class="item__head">KEY PEOPLE</div><table class="tbl"><tbody class="tbl__body">${people}</tbody></table></div></div>` +
    `<div class="profile__items"><div class="profile__item"><div class="item__head">ADDRESS</div><p>${escapeHtml(f.address)}</p>` +
    `<div class="item__head">WEBSITE</div><p> <a href="${f.website}" target="_blank">${f.website.replace(/^https?:\/\//, '')}</a></p></div>` +
    `<div class="profile__item"><div class="item__head">REGISTRAR</div><p>${escapeHtml(f.registrar)}</p></div>` +
    `<div class="profile__item"><div class="item__head">AUDITOR</div><p>${escapeHtml(f.auditor)}</p><div class="item__head">Fiscal Year End</div><p>${f.fiscalYearEnd}</p></div></div></div></div>`;
  const equity =
    '<div class="section section--padded companyEquity" id="equity"><h1 class="section__title">Equity Profile</h1><div class="stats stats--wrappable">' +
    statsItem(
      `Market Cap (000'<span style="text-transform: lowercase;">s</span>)`,
      formatFixed(f.marketCapThousands, 2),
    ) +
    statsItem('Shares', formatFixed(inst.shares, 0)) +
    statsItem('Free Float', formatFixed(inst.freeFloat, 0)) +
    statsItem('Free Float', `${formatFixed(f.freeFloatPct, 2)}%`) +
    '</div></div>';
  const categories: FakeAnnouncement['category'][] = ['Financial Results', 'Board Meetings', 'Others'];
  const announcements =
    '<div class="notice__imageViewModal" style="display: none;"><img style="width: 100%;"></div>' +
    '<div class="section section--padded company" id="announcements"><div class="company__payouts"><h1 class="section__title">Announcements</h1>' +
    '<div id="announcementsTab"><div class="tabs"><div class="tabs__list">' +
    categories.map((c) => `<div class="tabs__list__item" data-name="${c}">${c}</div>`).join('') +
    '</div><div class="tabs__panels">' +
    categories
      .map(
        (c) =>
          `<div class="tabs__panel" data-name="${c}">${announcementTable(f.announcements.filter((a) => a.category === c))}</div>`,
      )
      .join('') +
    '</div></div></div></div></div>';
  const financials =
    '<div class="section section--padded company" id="financials"><div class="company__financials"><h1 class="section__title">Financials</h1>' +
    '<div id="financialTab"> <div class="tabs tabs--capsule tabs--align-right"><p style="color:#666; float:left;">All numbers in thousands (000\'s) except EPS</p>' +
    '<div class="tabs__list"><div class="tabs__list__item" data-name="Annual">Annual</div><div class="tabs__list__item" data-name="Quarterly">Quarterly</div></div>' +
    `<div class="tabs__panels"><div class="tabs__panel" data-name="Annual"><div class="tbl__wrapper">${periodTable(f.annual, true)}</div></div>` +
    `<div class="tabs__panel" data-name="Quarterly"><div class="tbl__wrapper">${periodTable(f.quarterly, true)}</div></div></div></div></div></div></div>`;
  const ratios =
    '<div class="section section--padded company" id="ratios"><div class="company__ratios"><h1 class="section__title">Ratios</h1>' +
    `<div class="tbl__wrapper">${periodTable(f.ratios, false)}</div></div></div>` +
    '<div class="section section--padded company" id="payouts"><div class="company__payouts"><h1 class="section__title">Payouts</h1></div></div>' +
    '<div class="section section--padded company" id="reports"><h1 class="section__title">Financial Reports</h1><div class="tbl__wrapper"></div></div>';
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    `<title>${escapeHtml(symbol)} - ${escapeHtml(inst.name)} - Pakistan Stock Exchange (PSX)</title>` +
    tokenScript(token) +
    '</head><body><div class="content">' +
    renderCarousel(ds) +
    `<div class="pageHeader__wrapper"><div class="pageHeader"><div class="pageHeader__title">${escapeHtml(symbol)}</div><div class="pageHeader__menu">${menu}</div></div></div>` +
    quote +
    profile +
    equity +
    announcements +
    financials +
    ratios +
    '</div></body></html>'
  );
}
