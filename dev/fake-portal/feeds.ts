// The market-wide pages of the fake portal, generated deterministically from
// the fake dataset: `POST /payouts`, `POST /calendar`, `POST /announcements`, `GET /debt-market`,
// `GET /trading-board/{MARKET}/{board}` for the bills-and-bonds and the other boards, and
// `GET /eligible-scrips`. Each in the recorded structure, with the odd shapes seen in the wild
// planted on fixed symbols (see PLANTED_PAYOUTS and the quirks below).
import { PLANTED_ACTIONS } from './corporate-actions.ts';
import { hashString, mulberry32, type Dataset, type Instrument } from './dataset.ts';
import { escapeHtml } from './pages.ts';

export interface FeedPage {
  type: 'html' | 'json';
  /** HTTP status: the portal answers 500 to an announcements search without a type. */
  status: number;
  text: string;
}

const MONTHS = [
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
const DAY_MS = 86_400_000;

const dayMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);
const isoOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const isWeekday = (ms: number): boolean => {
  const wd = new Date(ms).getUTCDay();
  return wd !== 0 && wd !== 6;
};

/** `n` weekdays after (n > 0) or before (n < 0) `date`. */
export function shiftWeekdays(date: string, n: number): string {
  let t = dayMs(date);
  const step = n < 0 ? -DAY_MS : DAY_MS;
  for (let left = Math.abs(n); left > 0;) {
    t += step;
    if (isWeekday(t)) left--;
  }
  return isoOf(t);
}

/** `July 10, 2026` */
function longDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** `4:54 PM` from minutes after midnight. */
function clock12(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, '0')} ${h >= 12 ? 'PM' : 'AM'}`;
}

/** `21/07/2026` */
function dayFirst(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

const equities = (ds: Dataset): Instrument[] => ds.instruments.filter((i) => i.kind === 'equity');

// ---------------------------------------------------------------------------------------------
// POST /payouts

export interface FakeMarketPayout {
  symbol: string;
  company: string;
  sector: string;
  /** The Dividend Announcement cell, spaces as printed. */
  details: string;
  /** `YYYY-MM-DD` and minutes after midnight. */
  announcedDate: string;
  announcedMinute: number;
  /** First and last book-closure day; null prints `-`. */
  bookClosure: [string, string] | null;
}

/** The payouts cell's known shapes, each on a fixed symbol, book closures around the data's week. */
// prettier-ignore
export const PLANTED_PAYOUTS: readonly { symbol: string; details: string; closureFrom: string | null }[] = [
  { symbol: 'ENGRO', details: 'DIVIDEND =350% (F)', closureFrom: '2026-11-24' },
  { symbol: 'HBL', details: '50%F) (D)', closureFrom: '2026-11-25' },
  { symbol: 'LUCK', details: ' 10%(F) (B) ', closureFrom: '2026-11-26' },
  { symbol: 'MEBL', details: '23.855376% AT A PREMIUM RS.10/= PER SHARES (R)', closureFrom: '2026-11-27' },
  { symbol: 'FFC', details: '10%(i) (D) - 5%(i) (D)', closureFrom: '2026-11-23' },
  { symbol: 'OGDC', details: '80(ii) (D)', closureFrom: '2026-11-19' },
  { symbol: 'PPL', details: '40%(ii (D)', closureFrom: '2026-11-18' },
  { symbol: 'UBL', details: '32.50%(iii) (D)', closureFrom: '2026-11-17' },
  { symbol: 'MCB', details: '100% (D)', closureFrom: null },
  { symbol: 'SYS', details: 'BONUS 1 FOR 10 (B)', closureFrom: '2026-11-30' },
  { symbol: '786', details: ' 10%(i) (D) ', closureFrom: '2026-11-20' },
  { symbol: '786R', details: '85% (R)', closureFrom: '2026-11-20' },
];

const DIVIDEND_PERCENTS = [10, 15, 20, 25, 30, 40, 50, 75, 100, 150];
const LABELS = ['i', 'ii', 'iii', 'F'];

let payoutsMemo: { ds: Dataset; rows: FakeMarketPayout[] } | null = null;

/** Every announced entitlement of the fake market, newest announcement first. */
export function marketPayouts(ds: Dataset): FakeMarketPayout[] {
  if (payoutsMemo?.ds === ds) return payoutsMemo.rows;
  const rows: FakeMarketPayout[] = [];
  const add = (inst: Instrument, details: string, closureFrom: string | null, seedKey: string) => {
    const rng = mulberry32(hashString(seedKey));
    const anchor = closureFrom ?? ds.asOfDate;
    const announcedDate = shiftWeekdays(anchor, -(6 + Math.floor(rng() * 8)));
    rows.push({
      symbol: inst.symbol,
      company: inst.name,
      sector: inst.sectorName,
      details,
      announcedDate,
      announcedMinute: 9 * 60 + Math.floor(rng() * 9 * 60),
      bookClosure: closureFrom === null ? null : [closureFrom, shiftWeekdays(closureFrom, 2)],
    });
  };
  for (const p of PLANTED_PAYOUTS) {
    const inst = ds.instrument(p.symbol);
    if (inst) add(inst, p.details, p.closureFrom, `planted:${p.symbol}`);
  }
  // The company payouts page's planted actions appear market-wide too, with the same closures.
  for (const a of PLANTED_ACTIONS) {
    const inst = ds.instrument(a.symbol);
    if (a.payout && inst)
      add(inst, a.payout.details, shiftWeekdays(a.exDate, 1), `action:${a.symbol}:${a.exDate}`);
  }
  const planted = new Set(PLANTED_PAYOUTS.map((p) => p.symbol));
  for (const inst of equities(ds)) {
    if (planted.has(inst.symbol)) continue;
    const rng = mulberry32(hashString(`payout:${inst.symbol}`));
    // One or two entitlements in the last five months, some with book closures still ahead.
    const count = rng() < 0.35 ? 0 : rng() < 0.7 ? 1 : 2;
    for (let n = 0; n < count; n++) {
      const closureFrom = shiftWeekdays(ds.asOfDate, 15 - Math.floor(rng() * 110));
      const roll = rng();
      const label = LABELS[Math.floor(rng() * LABELS.length)] as string;
      const details =
        roll < 0.75
          ? ` ${DIVIDEND_PERCENTS[Math.floor(rng() * DIVIDEND_PERCENTS.length)]}%(${label}) (D) `
          : roll < 0.88
            ? ` ${[5, 10, 15, 20][Math.floor(rng() * 4)]}% (B) `
            : `${[10, 20, 25, 30][Math.floor(rng() * 4)]}% (R)`;
      add(inst, details, closureFrom, `payout:${inst.symbol}:${n}`);
    }
  }
  rows.sort((a, b) =>
    a.announcedDate !== b.announcedDate
      ? a.announcedDate < b.announcedDate
        ? 1
        : -1
      : b.announcedMinute - a.announcedMinute || (a.symbol < b.symbol ? -1 : 1),
  );
  payoutsMemo = { ds, rows };
  return rows;
}

function pagerHtml(offset: number, shown: number, total: number, count: number): string {
  const first = total === 0 ? 0 : offset + 1;
  return (
    `<div class="announcementsResults__header"><div class="announcementsResults__count">Showing  ${first} to ${offset + shown} of ${total} entries</div>` +
    `<div class="announcementsResults__pagination"><button class="btn btn--prev" data-offset="${Math.max(0, offset - count)}" data-total="${total}"${offset === 0 ? ' disabled' : ''}>Prev</button>` +
    `<button class="btn btn--next" data-offset="${offset + count}" data-total="${total}"${offset + shown >= total ? ' disabled' : ''}>Next</button></div></div>`
  );
}

/**
 * Form fields as the portal reads them. The portal caps `count` at 100 and pages by 25 by default;
 * the fake serves at most 25 rows a page whatever is asked, so that a client must follow the pager.
 */
export const FAKE_PAGE_ROWS = 25;

function pageWindow(form: URLSearchParams): { count: number; offset: number } {
  const count = Math.min(FAKE_PAGE_ROWS, Math.max(1, Number(form.get('count')) || 25));
  const offset = Math.max(0, Math.floor(Number(form.get('offset')) || 0));
  return { count, offset };
}

function inRange(date: string, from: string | null, to: string | null): boolean {
  return (!from || date >= from) && (!to || date <= to);
}

export function renderMarketPayouts(ds: Dataset, form: URLSearchParams): string {
  // The portal's symbol field prefix-matches (`HBL` also finds `HBLTFC3`).
  const symbol = (form.get('symbol') ?? '').trim().toUpperCase();
  const from = form.get('date_from');
  const to = form.get('date_to');
  const all = marketPayouts(ds).filter(
    (p) => p.symbol.startsWith(symbol) && inRange(p.announcedDate, from, to),
  );
  const { count, offset } = pageWindow(form);
  const rows = all
    .slice(offset, offset + count)
    .map(
      (p) =>
        `<tr><td><a class="tbl__symbol" href="/company/${escapeHtml(p.symbol)}"><strong>${escapeHtml(p.symbol)}</strong></a></td>` +
        `<td>${escapeHtml(p.company)}</td><td>${escapeHtml(p.sector)}</td><td>${escapeHtml(p.details)}</td>` +
        `<td>${longDate(p.announcedDate)} ${clock12(p.announcedMinute)}</td>` +
        `<td>${p.bookClosure === null ? '-' : `${dayFirst(p.bookClosure[0])}  - ${dayFirst(p.bookClosure[1])} `}</td></tr>`,
    );
  return (
    pagerHtml(offset, rows.length, all.length, count) +
    '<div class="tbl__wrapper"><table class="tbl" id="announcementsTable"><thead class="tbl__head"><tr>' +
    '<th>Symbol</th><th>Company</th><th>Sector</th><th>Dividend Announcement</th>' +
    '<th>Date / Time of Announcement</th><th>Book Closure Date</th></tr></thead>' +
    `<tbody class="tbl__body">${rows.join('')}</tbody></table></div>`
  );
}

// ---------------------------------------------------------------------------------------------
// POST /calendar

export interface FakeMeeting {
  id: number;
  symbol: string;
  name: string;
  type: 'AGM' | 'EOGM';
  date: string;
  time: string;
  city: string;
  period_end: string;
}

const CITIES = ['Karachi', 'Lahore.', 'Islamabad', 'TRICON LAHORE', 'Pezu, KPK', 'Karachi.', 'Faisalabad'];

let meetingsMemo: { ds: Dataset; rows: FakeMeeting[] } | null = null;

/** Every meeting of the fake market, newest first. ENGRO holds an AGM and an EOGM on one day. */
export function meetings(ds: Dataset): FakeMeeting[] {
  if (meetingsMemo?.ds === ds) return meetingsMemo.rows;
  const rows: FakeMeeting[] = [];
  let id = 9000;
  for (const inst of equities(ds)) {
    const rng = mulberry32(hashString(`meeting:${inst.symbol}`));
    if (rng() < 0.3 && inst.symbol !== 'ENGRO') continue;
    const yearEnd = inst.fiscalYearEndMonth === 6 ? '2026-06-30' : '2025-12-31';
    const date =
      inst.symbol === 'ENGRO' ? '2026-11-25' : shiftWeekdays(ds.asOfDate, 25 - Math.floor(rng() * 90));
    const time = `${String(9 + Math.floor(rng() * 8)).padStart(2, '0')}:${rng() < 0.5 ? '00' : '30'}`;
    const city = CITIES[Math.floor(rng() * CITIES.length)] as string;
    rows.push({
      id: id++,
      symbol: inst.symbol,
      name: inst.name,
      type: 'AGM',
      date,
      time,
      city,
      period_end: yearEnd,
    });
    if (inst.symbol === 'ENGRO' || rng() < 0.15) {
      // An EOGM may be about an earlier year.
      rows.push({
        id: id++,
        symbol: inst.symbol,
        name: inst.name,
        type: 'EOGM',
        date,
        time: '15:00',
        city,
        period_end: '2024-12-31',
      });
    }
  }
  rows.sort((a, b) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id - b.id));
  meetingsMemo = { ds, rows };
  return rows;
}

export function renderCalendar(ds: Dataset, form: URLSearchParams): string {
  const from = form.get('from');
  const to = form.get('to');
  const data = meetings(ds).filter((m) => inRange(m.date, from, to));
  return JSON.stringify({ status: 1, message: '', data });
}

// ---------------------------------------------------------------------------------------------
// POST /announcements

export interface FakeMarketAnnouncement {
  /** A CDC, B SECP, C companies, D NCCPL, E PSX. */
  type: 'A' | 'B' | 'C' | 'D' | 'E';
  date: string;
  minute: number;
  symbol: string | null;
  name: string | null;
  title: string;
  revoked: boolean;
  /** A path on the portal, or null for an image-only announcement. */
  document: string | null;
}

const COMPANY_TITLES = [
  'Financial Results for the Quarter',
  'Board Meeting',
  'Material Information',
  'Credit of Bonus Shares',
  'Transmission of Annual Report ',
  'Change in Directorship',
];
const BODY_TITLES: Record<'A' | 'B' | 'D' | 'E', string[]> = {
  A: ['CDC Notice: Corporate Action Processing', 'CDC Circular on Account Maintenance'],
  B: ['SECP Notification: Amendments to Rules', 'SECP Press Release'],
  D: ['NCCPL Notice: Margin Requirements', 'NCCPL Circular on Settlement'],
  E: [
    'PSX Notice: Trading Holiday',
    'PSX Notice: Revision in Circuit Breakers',
    'PSX Notice: Index Recomposition',
  ],
};

let announcementsMemo: { ds: Dataset; rows: FakeMarketAnnouncement[] } | null = null;

/**
 * Every announcement, newest first. Planted: a REVOKED one (HBL), an image-only one (ENGRO), an
 * attachment link, titles ending in a space.
 */
export function marketAnnouncements(ds: Dataset): FakeMarketAnnouncement[] {
  if (announcementsMemo?.ds === ds) return announcementsMemo.rows;
  const rows: FakeMarketAnnouncement[] = [];
  let id = 250_000;
  for (const inst of equities(ds)) {
    const rng = mulberry32(hashString(`annc:${inst.symbol}`));
    const n = 2 + Math.floor(rng() * 3);
    for (let k = 0; k < n; k++) {
      const title = COMPANY_TITLES[Math.floor(rng() * COMPANY_TITLES.length)] as string;
      const imageOnly = inst.symbol === 'ENGRO' && k === 0;
      rows.push({
        type: 'C',
        date: shiftWeekdays(ds.asOfDate, -Math.floor(rng() * 60)),
        minute: 9 * 60 + Math.floor(rng() * 9 * 60),
        symbol: inst.symbol,
        name: inst.name,
        title,
        revoked: inst.symbol === 'HBL' && k === 0,
        document: imageOnly
          ? null
          : k === 1
            ? `/download/attachment/${id++}-1.pdf`
            : `/download/document/${id++}.pdf`,
      });
    }
  }
  for (const type of ['A', 'B', 'D', 'E'] as const) {
    const rng = mulberry32(hashString(`annc:${type}`));
    for (let k = 0; k < 12; k++) {
      const titles = BODY_TITLES[type];
      rows.push({
        type,
        date: shiftWeekdays(ds.asOfDate, -Math.floor(rng() * 60)),
        minute: 9 * 60 + Math.floor(rng() * 9 * 60),
        symbol: null,
        name: null,
        title: titles[k % titles.length] as string,
        revoked: false,
        document: `/download/document/${id++}.pdf`,
      });
    }
  }
  rows.sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? 1 : -1) : b.minute - a.minute || (a.title < b.title ? -1 : 1),
  );
  announcementsMemo = { ds, rows };
  return rows;
}

/** `May 15, 2026` */
function shortMonthDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${(MONTHS[m - 1] as string).slice(0, 3)} ${d}, ${y}`;
}

export function renderAnnouncements(ds: Dataset, form: URLSearchParams): FeedPage {
  const type = (form.get('type') ?? '').trim().toUpperCase();
  if (type === '') return { type: 'html', status: 500, text: '<h1>Server Error</h1>' };
  const symbol = (form.get('symbol') ?? '').trim().toUpperCase();
  const query = (form.get('query') ?? '').trim().toLowerCase();
  const from = form.get('date_from');
  const to = form.get('date_to');
  const all = marketAnnouncements(ds).filter(
    (a) =>
      a.type === type &&
      (symbol === '' || (a.symbol ?? '').startsWith(symbol)) &&
      (query === '' || a.title.toLowerCase().includes(query)) &&
      inRange(a.date, from, to),
  );
  const { count, offset } = pageWindow(form);
  const company = type === 'C';
  const rows = all.slice(offset, offset + count).map((a) => {
    const tag = a.revoked ? ' <div class="tag tag--def">REVOKED</div>' : '';
    // The portal's document cell: a `View` link naming the page images, then the PDF when there
    // is one (`… data-images="283814-1.gif">View</a>&nbsp;&nbsp;&nbsp;<i …></i><a href=…>PDF</a>`).
    const id = a.document?.match(/(\d+)(?:-\d+)?\.pdf$/)?.[1] ?? String(hashString(a.title) % 1_000_000);
    const view = `<i class="icon-file-image"></i><a href="javascript:" data-images="${id}-1.gif">View</a>`;
    const doc =
      a.document === null
        ? ` ${view}`
        : ` ${view}&nbsp;&nbsp;&nbsp;<i class="icon-file-pdf"></i><a href="${a.document}" target="_blank">PDF</a>`;
    const symbolLink = (text: string): string =>
      `<a class="tbl__symbol" href="/company/${escapeHtml(a.symbol ?? '')}"><strong>${escapeHtml(text)}</strong></a>`;
    return (
      `<tr><td>${shortMonthDate(a.date)}</td><td>${clock12(a.minute)}</td>` +
      (company ? `<td>${symbolLink(a.symbol ?? '')}</td><td>${symbolLink(a.name ?? '')}</td>` : '') +
      `<td>${escapeHtml(a.title)}${tag}</td><td>${doc}</td></tr>`
    );
  });
  const header = pagerHtml(offset, rows.length, all.length, count);
  return {
    type: 'html',
    status: 200,
    text:
      header +
      '<table class="tbl" id="announcementsTable"><thead class="tbl__head"><tr><th>DATE</th><th>TIME</th>' +
      (company ? '<th>SYMBOL</th><th>NAME</th>' : '') +
      '<th>TITLE</th><th> </th></tr></thead>' +
      `<tbody class="tbl__body">${rows.join('')}</tbody></table>` +
      header,
  };
}

// ---------------------------------------------------------------------------------------------
// GET /debt-market, the trading boards, GET /eligible-scrips

export interface FakeDebtInstrument {
  code: string;
  name: string;
  faceValue: number;
  listingDate: string;
  issueDate: string;
  /** As printed: `53.71B`, `1.00T`. */
  issueSize: string;
  maturityDate: string;
  couponRate: number;
  previousCoupon: string | null;
  nextCoupon: string | null;
}

// prettier-ignore
export const DEBT_TABLES: readonly (readonly FakeDebtInstrument[])[] = [
  [
    { code: 'P01GIS080227', name: '1 Year GIS Discounted Mat - 08-Feb-27', faceValue: 5000, listingDate: '2026-02-11', issueDate: '2026-02-09', issueSize: '53.71B', maturityDate: '2027-02-08', couponRate: 0, previousCoupon: null, nextCoupon: null },
    { code: 'P05GIS150530', name: '5 Year GIS Fixed Rental Mat - 15-May-30', faceValue: 5000, listingDate: '2025-05-19', issueDate: '2025-05-15', issueSize: '1.00T', maturityDate: '2030-05-15', couponRate: 11.44, previousCoupon: '2026-05-15', nextCoupon: '2026-11-15' },
  ],
  [
    { code: 'P03PIB120528', name: '3 Year PIB Mat - 12-May-28', faceValue: 100, listingDate: '2025-05-14', issueDate: '2025-05-12', issueSize: '212.40B', maturityDate: '2028-05-12', couponRate: 12.5, previousCoupon: '2026-05-12', nextCoupon: '2026-11-12' },
  ],
  [
    { code: 'KEL-SUK5', name: 'K-Electric Sukuk 5', faceValue: 5000, listingDate: '2024-03-01', issueDate: '2024-02-20', issueSize: '25.00B', maturityDate: '2029-02-20', couponRate: 13.25, previousCoupon: '2026-08-20', nextCoupon: '2027-02-20' },
  ],
  [
    { code: 'BAFLTFC8', name: 'Bank Al-Falah(TFC8', faceValue: 5000, listingDate: '2024-01-10', issueDate: '2023-12-26', issueSize: '7.00B', maturityDate: '2033-12-26', couponRate: 21.66, previousCoupon: '2026-06-26', nextCoupon: '2026-12-26' },
    { code: 'HBLTFC3', name: 'Habib Bank Limited (TFC3)', faceValue: 100000, listingDate: '2022-10-05', issueDate: '2022-09-26', issueSize: '16.00B', maturityDate: '2032-09-26', couponRate: 22.03, previousCoupon: '2026-09-26', nextCoupon: '2026-12-26' },
  ],
];

function daysBetween(from: string, to: string): number {
  return Math.round((dayMs(to) - dayMs(from)) / DAY_MS);
}

const money = (n: number, decimals: number): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** The debt page's tabs, in page order, one per table of DEBT_TABLES (the recorded page's titles). */
const DEBT_TABS: readonly [string, string][] = [
  ['gop', 'GoP Ijarah Sukuk'],
  ['pds', 'Public Debt Securities'],
  ['cds', 'Privately Debt Securities '],
  ['gds', 'Government Debt Securities'],
];

/** `February 09, 2026`: the debt page pads the day. */
function paddedLongDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${String(d).padStart(2, '0')}, ${y}`;
}

/**
 * The recorded page's structure: a tab list, then one `div.tabs__panel[data-name]` per table; the
 * coupon headers are inline pieces (`<span>Coupon/</span><br/><span>Rental Rate</span>`), the code
 * cell a bold link to `/debt/{code}`.
 */
export function renderDebtMarket(ds: Dataset): string {
  const th = (label: string) => `<th class="center">${label}</th>`;
  const pieces = (a: string, b: string) => `<th class="center"> <span>${a}</span><br/><span>${b}</span></th>`;
  const head =
    '<thead class="tbl__head"><tr>' +
    [
      'Security Code',
      'Security Name',
      'Face Value',
      'Listing Date',
      'Issue Date',
      'Issue Size',
      'Maturity Date',
    ]
      .map(th)
      .join('') +
    pieces('Coupon/', 'Rental Rate') +
    pieces('Previous Coupon/', 'Rental Date') +
    pieces('Next Coupon/', 'Rental Date') +
    th('Outstanding Days') +
    th('Remaining Years') +
    '</tr></thead>';
  const td = (text: string) => `<td class="center">${text}</td>`;
  const panels = DEBT_TABLES.map((rows, i) => {
    const body = rows.map((d) => {
      const days = daysBetween(ds.asOfDate, d.maturityDate);
      return (
        `<tr><td><b><a class="tbl__symbol" href="/debt/${d.code}">${d.code}</a></b></td>` +
        td(escapeHtml(d.name)) +
        td(money(d.faceValue, 0)) +
        td(paddedLongDate(d.listingDate)) +
        td(paddedLongDate(d.issueDate)) +
        td(d.issueSize) +
        td(paddedLongDate(d.maturityDate)) +
        td(`${d.couponRate.toFixed(4)}%`) +
        td(d.previousCoupon ? paddedLongDate(d.previousCoupon) : '-') +
        td(d.nextCoupon ? paddedLongDate(d.nextCoupon) : '-') +
        td(String(days)) +
        td((days / 365).toFixed(1)) +
        '</tr>'
      );
    });
    const [name] = DEBT_TABS[i] as [string, string];
    return (
      `<div class="tabs__panel" data-name="${name}"><div class="tbl__wrapper"><table class="tbl">${head}` +
      `<tbody class="tbl__body">${body.join('')}</tbody></table></div></div>`
    );
  });
  const tabs = DEBT_TABS.map(
    ([name, title]) => `<div class="tabs__list__item" data-name="${name}">${escapeHtml(title)}</div>`,
  ).join('');
  return (
    '<div class="pageHeader__wrapper"><div class="pageHeader"><div class="pageHeader__title">Fixed Income Securities Detail</div></div></div>' +
    `<div class="section section--padded" id="debtMarket"><div class="tabs"><div class="tabs__list">${tabs}</div>` +
    `<div class="tabs__panels">${panels.join('')}</div></div></div>`
  );
}

interface FakeBoardRow {
  symbol: string;
  name: string;
  bidVolume: number;
  bidPrice: number;
  offerVolume: number;
  offerPrice: number;
  ldcp: number;
  change: number;
  volume: number;
  yields?: { bid: number; offer: number; last: number; lastPrice: number; ldcy: number };
}

/** The bills-and-bonds board: HBLTFC3 is listed but has no row (nothing quoted today). */
function bnbRows(): FakeBoardRow[] {
  return [
    {
      symbol: 'P05GIS150530',
      name: '',
      bidVolume: 100,
      bidPrice: 107.3627,
      offerVolume: 0,
      offerPrice: 0,
      ldcp: 107.2,
      change: 0.1627,
      volume: 500,
      yields: { bid: 11.2003, offer: 0, last: 11.2101, lastPrice: 107.3627, ldcy: 11.2544 },
    },
    {
      symbol: 'P03PIB120528',
      name: '',
      bidVolume: 0,
      bidPrice: 0,
      offerVolume: 250,
      offerPrice: 101.5,
      ldcp: 101.45,
      change: 0,
      volume: 0,
      yields: { bid: 0, offer: 11.9012, last: 0, lastPrice: 0, ldcy: 11.9302 },
    },
    {
      symbol: 'BAFLTFC8',
      name: '',
      bidVolume: 20,
      bidPrice: 5012.5,
      offerVolume: 10,
      offerPrice: 5025,
      ldcp: 5010,
      change: 2.5,
      volume: 30,
      yields: { bid: 21.4012, offer: 21.2107, last: 21.3301, lastPrice: 5012.5, ldcy: 21.4409 },
    },
  ];
}

/** Futures months as the portal writes them (`AGHA-APR`, cash-settled `ACPL-CAPR`). */
const FUTURES = ['ENGRO', 'HBL', 'LUCK', 'OGDC', 'PPL', 'FFC', 'SYS', 'MCB'];
const CONTRACT_MONTH = 'DEC';

function equityRow(ds: Dataset, symbol: string, code: string, lot: number): FakeBoardRow | null {
  const inst = ds.instrument(symbol);
  const day = ds.day(symbol);
  if (!inst || !day) return null;
  const rng = mulberry32(hashString(`board:${code}`));
  const premium = 1 + (code.includes('-') ? 0.01 : 0);
  const close = Math.round(day.close * premium * 100) / 100;
  const ldcp = Math.round(day.ldcp * premium * 100) / 100;
  return {
    symbol: code,
    name: inst.name,
    bidVolume: lot * (1 + Math.floor(rng() * 20)),
    bidPrice: Math.round((close - 0.05) * 100) / 100,
    offerVolume: lot * (1 + Math.floor(rng() * 20)),
    offerPrice: Math.round((close + 0.05) * 100) / 100,
    ldcp,
    change: Math.round((close - ldcp) * 100) / 100,
    volume: lot * Math.floor(rng() * 400),
  };
}

/** The boards' rows; MCB's December future is eligible but has no row on the board. */
function boardRows(ds: Dataset, market: string): FakeBoardRow[] | null {
  const pick = (codes: [string, string][], lot: number) =>
    codes.map(([s, c]) => equityRow(ds, s, c, lot)).filter((r): r is FakeBoardRow => r !== null);
  switch (market) {
    case 'FUT':
      return pick(
        FUTURES.filter((s) => s !== 'MCB').map((s) => [s, `${s}-${CONTRACT_MONTH}`]),
        500,
      );
    case 'CSF':
      return pick(
        FUTURES.slice(0, 4).map((s) => [s, `${s}-C${CONTRACT_MONTH}`]),
        500,
      );
    case 'SIF':
      return [
        {
          symbol: `KSE30-${CONTRACT_MONTH}`,
          name: 'KSE-30 Index Futures',
          bidVolume: 10,
          bidPrice: 51_220.5,
          offerVolume: 5,
          offerPrice: 51_240,
          ldcp: 51_100,
          change: 130.5,
          volume: 40,
        },
      ];
    case 'ODL':
      return pick(
        ['ENGRO', 'HBL', 'KEL', 'WTL'].map((s) => [s, s]),
        1,
      );
    case 'BNB':
      return bnbRows();
    default:
      return null;
  }
}

function num(n: number, decimals: number): string {
  return `<td class="right" data-search="${n}" data-order="${n}">${money(n, decimals)}</td>`;
}

/** `/trading-board/{MARKET}/{board}`: the recorded REG board's structure (with yields on BNB); null for an unknown board. */
export function renderTradingBoard(ds: Dataset, market: string, board: string): string | null {
  if (board.toLowerCase() !== market.toLowerCase()) return null;
  const rows = boardRows(ds, market.toUpperCase());
  if (rows === null) return null;
  const bnb = market.toUpperCase() === 'BNB';
  const head = bnb
    ? '<th>SYMBOL</th><th class="right">BID VOL.</th><th class="right">BID PRICE</th><th class="right">BID YIELD (%)</th><th class="right">OFFER VOL.</th><th class="right">OFFER PRICE</th><th class="right">OFFER YIELD (%)</th><th class="right">LTP</th><th class="right">LTY (%)</th><th class="right">LDCP</th><th class="right">LDCY (%)</th><th class="right">CHANGE</th><th class="right">VOLUME</th>'
    : '<th style="width:75px;">SYMBOL</th><th>NAME</th><th class="right">BID VOL.</th><th class="right">BID PRICE</th><th class="right">OFFER VOL.</th><th class="right">OFFER PRICE</th><th class="right">LDCP</th><th class="right">CHANGE</th><th class="right">VOLUME</th>';
  const body = rows.map((r) => {
    const dir = r.change > 0 ? 'pos' : r.change < 0 ? 'neg' : 'noc';
    const symbolCell = `<td data-search="${r.symbol}" data-order="${r.symbol}"><a class="tbl__symbol" href="/company/${r.symbol}" data-title="${escapeHtml(r.name)}" target="_blank"><strong>${r.symbol}</strong></a></td>`;
    const change = `<td class="right change__text--${dir}" data-order="${r.change}"><i class=""></i> ${r.change.toFixed(bnb ? 4 : 2)}</td>`;
    const volume = `<td class="right" data-order="${r.volume}">${money(r.volume, 0)}</td>`;
    if (bnb && r.yields) {
      const y = r.yields;
      return `<tr>${symbolCell}${num(r.bidVolume, 0)}${num(r.bidPrice, 4)}${num(y.bid, 4)}${num(r.offerVolume, 0)}${num(r.offerPrice, 4)}${num(y.offer, 4)}${num(y.lastPrice, 4)}${num(y.last, 4)}${num(r.ldcp, 4)}${num(y.ldcy, 4)}${change}${volume}</tr>`;
    }
    return `<tr>${symbolCell}<td data-search="${escapeHtml(r.name)}" data-order="${escapeHtml(r.name)}">${escapeHtml(r.name)}</td>${num(r.bidVolume, 0)}${num(r.bidPrice, 2)}${num(r.offerVolume, 0)}${num(r.offerPrice, 2)}${num(r.ldcp, 2)}${change}${volume}</tr>`;
  });
  return (
    '<div class="tbl__wrapper tbl__wrapper--scrollable"><table class="tbl" id="tradingBoardTable" data-page-length="25" style="max-width: 100%;">' +
    `<thead class="tbl__head"><!-- if isOrderstr --><tr>${head}</tr></thead><tbody class="tbl__body">${body.join('')}</tbody></table></div>`
  );
}

const ELIGIBLE_MARKETS: readonly [string, string][] = [
  ['REG', 'Regular Deliverable Equity Market'],
  ['FUT', 'Future Deliverable Contract Market'],
  ['IPO', 'Initial Public Offering Market'],
  ['CSF', 'Cash Settled Future Contract Market'],
  ['SIF', 'Stock Index Future Contract Market'],
  ['BNB', 'Bills and Bond Market'],
  ['NDM', 'Negotiated Deal Market'],
  ['ODL', 'Odd Lot Market'],
  ['SQR', 'Square-Up (Buy-In) Market'],
];

function eligible(ds: Dataset, market: string): { symbol: string; name: string }[] {
  const named = (symbol: string, code: string) => ({
    symbol: code,
    name: ds.instrument(symbol)?.name ?? symbol,
  });
  switch (market) {
    case 'REG':
      return equities(ds).map((i) => ({ symbol: i.symbol, name: i.name }));
    case 'FUT':
      return FUTURES.map((s) => named(s, `${s}-${CONTRACT_MONTH}`));
    case 'CSF':
      return FUTURES.slice(0, 4).map((s) => named(s, `${s}-C${CONTRACT_MONTH}`));
    case 'SIF':
      return [{ symbol: `KSE30-${CONTRACT_MONTH}`, name: 'KSE-30 Index Futures' }];
    case 'BNB':
      return DEBT_TABLES.flat().map((d) => ({ symbol: d.code, name: d.name }));
    case 'ODL':
      return equities(ds).map((i) => ({ symbol: i.symbol, name: i.name }));
    default:
      return [];
  }
}

/**
 * The recorded page's structure: one `div.tabs__panel[data-name]` per market, its title in an `<h2>`
 * beside a download link; regular and bills-and-bonds symbols are links, the others bare `<strong>`.
 */
export function renderEligibleScrips(ds: Dataset): string {
  return ELIGIBLE_MARKETS.map(([code, title]) => {
    const linked = code === 'REG' || code === 'BNB';
    const rows = eligible(ds, code).map((s) => {
      const symbol = linked
        ? `<a class="tbl__symbol" href="/${code === 'BNB' ? 'debt' : 'company'}/${escapeHtml(s.symbol)}" data-name="${escapeHtml(s.name)}" data-title=""><strong>${escapeHtml(s.symbol)}</strong></a>`
        : `<strong>${escapeHtml(s.symbol)}</strong>`;
      return `<tr><td>${symbol}</td><td>${escapeHtml(s.name)}</td></tr>`;
    });
    return (
      `<div class="tabs__panel" data-name="${code}"><div style="display:flex;justify-content:space-between;align-items: center;">` +
      `<div><h2 style="margin: 0.2em 0 1em;">${title}</h2></div><div><a href="/data/eligible-scrips/${code}.xml" target="_blank">Download File</a></div></div>` +
      `<div class="tbl__wrapper"><table class="tbl" id="${code}Table" data-page-length="25"><thead class="tbl__head">` +
      `<tr><th style="width:120px">Symbol</th><th>Name</th></tr></thead><tbody class="tbl__body">${rows.join('')}</tbody></table></div></div>`
    );
  }).join('');
}

/** The page for a market-wide request, or null when the path is not one of these pages. */
export function renderFeed(
  ds: Dataset,
  method: string,
  path: string,
  form: URLSearchParams,
): FeedPage | null {
  const html = (text: string): FeedPage => ({ type: 'html', status: 200, text });
  if (method === 'POST') {
    if (path === '/payouts') return html(renderMarketPayouts(ds, form));
    if (path === '/calendar') return { type: 'json', status: 200, text: renderCalendar(ds, form) };
    if (path === '/announcements') return renderAnnouncements(ds, form);
    return null;
  }
  if (method !== 'GET') return null;
  if (path === '/debt-market') return html(renderDebtMarket(ds));
  if (path === '/eligible-scrips') return html(renderEligibleScrips(ds));
  const board = /^\/trading-board\/([A-Za-z]+)\/([A-Za-z]+)$/.exec(path);
  if (board) {
    const text = renderTradingBoard(ds, board[1] as string, board[2] as string);
    return text === null ? null : html(text);
  }
  return null;
}
