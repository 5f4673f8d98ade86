// `GET /company/{SYM}`: one full page with the quote header, the stats
// panels (regular market, futures, …), the company profile, the equity profile, announcements in
// three tabs, annual and quarterly financials and the ratios table. Sections are found by their
// titles and rows by their labels, never by position; each section is read on its own, so a
// renamed or missing section costs only itself (it is null, with the reason in `missing`). A page
// with none of them is not a company page: the parser throws. The portal's page for an unknown
// symbol (titled `Not Found`) parses to null.
//
// Units: the equity block prints market cap in thousands (`Market Cap (000's)`), the financials
// print thousands except EPS (the section's note says so); both are converted to PKR here.
// Negatives are in parentheses (`(0.15)`).
import { UpstreamDataError } from '../../errors.ts';
import type {
  AnnouncementCategory,
  CompanyAnnouncement,
  CompanyEquity,
  CompanyFinancials,
  CompanyPage,
  CompanyProfile,
  CompanyQuote,
  CompanySection,
  CompanyStats,
  FinancialPeriod,
  KeyPerson,
} from '../types.ts';
import { denoise, imageNames, isNotAvailable, parseNumberText } from './cells.ts';
import { headerIndex, noteFields, requirePageText } from './columns.ts';
import { parseAsOfLine, parseDisplayDate } from './dates.ts';
import {
  byClass,
  byTag,
  childElements,
  findAll,
  findFirst,
  hasClass,
  parseElements,
  readTable,
  textOf,
  type Element,
} from './elements.ts';

const PORTAL = 'https://dps.psx.com.pk/';

/** Thrown inside a section reader: the section is null, the reason recorded. */
class SectionError extends Error {}

function fail(reason: string): never {
  throw new SectionError(reason);
}

/** A label as the page writes it, reduced for matching: `52-WEEK RANGE ^` → `52-week range`. */
function labelKey(text: string): string {
  return text.toLowerCase().replace(/[*^]/g, ' ').replace(/\s+/g, ' ').replace(/\s*:$/, '').trim();
}

/** A number from display text; blank, `N/A` and `-` are null. */
function numberOf(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const trimmed = text.trim();
  if (isNotAvailable(trimmed)) return null;
  const value = parseNumberText(trimmed);
  return value === null ? null : denoise(value);
}

/** Thousands to units, without the float noise of `449003552.7 * 1000`. */
function fromThousands(value: number | null, scale: number): number | null {
  if (value === null) return null;
  return denoise(Math.round(value * scale * 1e4) / 1e4);
}

// ---- sections ----

/** The `div.section` whose title (`h1.section__title`) matches, or else whose id does. */
function sectionByTitle(root: Element, titles: readonly string[], id: string): Element | null {
  for (const heading of findAll(root, (el) => /^h[1-6]$/.test(el.tag))) {
    if (!titles.includes(labelKey(textOf(heading)))) continue;
    for (let el = heading.parent; el !== null; el = el.parent) {
      if (hasClass(el, 'section') || el.tag === 'body' || el.parent === null) return el;
    }
  }
  return findFirst(root, (el) => el.tag === 'div' && el.attrs.get('id') === id);
}

/** `stats_item`s of a container: label → value element (the first of a repeated label wins). */
function statsItems(container: Element): { label: string; value: Element }[] {
  const items: { label: string; value: Element }[] = [];
  for (const item of findAll(container, byClass('stats_item'))) {
    const label = findFirst(item, byClass('stats_label'));
    const value = findFirst(item, byClass('stats_value'));
    if (label === null || value === null) continue;
    items.push({ label: labelKey(textOf(label)), value });
  }
  return items;
}

// ---- quote header ----

/** `As of Wed, Sep 30, 2026 3:47 PM` (Asia/Karachi) → `2026-09-30T15:47:00+05:00`. */
export const parseCompanyAsOf = parseAsOfLine;

/** The change's sign comes from the direction class; the percent is printed in parentheses. */
function signed(text: string, negative: boolean): number | null {
  const value = numberOf(text.replace(/[()]/g, ''));
  if (value === null) return null;
  return negative && value > 0 ? -value : value;
}

function readQuote(root: Element): CompanyQuote {
  const details = findFirst(root, byClass('quote__details'));
  if (details === null) fail('no quote header (div.quote__details)');
  const text = (cls: string): string | null => {
    const el = findFirst(details, byClass(cls));
    const value = el === null ? '' : textOf(el);
    return value.length > 0 ? value : null;
  };
  const close = numberOf(text('quote__close'));
  if (close === null) fail('no closing price (div.quote__close)');
  const changeEl = findFirst(details, byClass('quote__change'));
  const negative = changeEl !== null && hasClass(changeEl, 'change__text--neg');
  const valueEl = changeEl && findFirst(changeEl, byClass('change__value'));
  const percentEl = changeEl && findFirst(changeEl, byClass('change__percent'));
  const dateEl = findFirst(root, byClass('quote__date'));
  return {
    name: text('quote__name'),
    sectorName: text('quote__sector'),
    close,
    change: valueEl ? signed(textOf(valueEl), negative) : null,
    changePct: percentEl ? signed(textOf(percentEl), negative) : null,
    asOf: dateEl === null ? null : parseCompanyAsOf(textOf(dateEl)),
  };
}

// ---- REG stats panel ----

/** A range item: `271.94 — 332.37` with `div.numRange[data-low][data-high]` holding the raw ends. */
function rangeOf(value: Element): [number | null, number | null] {
  const bar = findFirst(value, byClass('numRange'));
  const low = numberOf(bar?.attrs.get('data-low'));
  const high = numberOf(bar?.attrs.get('data-high'));
  if (low !== null && high !== null) return [low, high];
  const parts = textOf(value).split(/\s+[—–-]\s+|\s*[—–]\s*/);
  if (parts.length !== 2) return [null, null];
  return [numberOf(parts[0]), numberOf(parts[1])];
}

const STAT_LABELS = {
  open: ['open'],
  high: ['high'],
  low: ['low'],
  volume: ['volume'],
  circuitBreaker: ['circuit breaker'],
  dayRange: ['day range'],
  week52: ['52-week range', '52 week range'],
  askPrice: ['ask price'],
  askVolume: ['ask volume'],
  bidPrice: ['bid price'],
  bidVolume: ['bid volume'],
  ldcp: ['ldcp'],
  var: ['var'],
  haircut: ['haircut'],
  peRatio: ['p/e ratio (ttm)', 'p/e ratio'],
  change1y: ['1-year change', '1 year change'],
  ytd: ['ytd change'],
} as const;

function readStats(root: Element): CompanyStats {
  const panel = findFirst(root, (el) => hasClass(el, 'tabs__panel') && el.attrs.get('data-name') === 'REG');
  if (panel === null) fail('no regular-market stats panel (div.tabs__panel[data-name="REG"])');
  const items = statsItems(panel);
  const find = (labels: readonly string[]): Element | null =>
    items.find((i) => labels.includes(i.label))?.value ?? null;
  const num = (labels: readonly string[]): number | null => {
    const el = find(labels);
    return el === null ? null : numberOf(textOf(el));
  };
  const range = (labels: readonly string[]): [number | null, number | null] => {
    const el = find(labels);
    return el === null ? [null, null] : rangeOf(el);
  };
  // The page shows 0.00 on a side with no order: not a price.
  const price = (labels: readonly string[]): number | null => {
    const value = num(labels);
    return value === null || value <= 0 ? null : value;
  };
  const [cbLow, cbHigh] = range(STAT_LABELS.circuitBreaker);
  const [dayLow, dayHigh] = range(STAT_LABELS.dayRange);
  const [w52Low, w52High] = range(STAT_LABELS.week52);
  const stats: CompanyStats = {
    open: num(STAT_LABELS.open),
    high: num(STAT_LABELS.high),
    low: num(STAT_LABELS.low),
    volume: num(STAT_LABELS.volume),
    circuitBreakerLow: cbLow,
    circuitBreakerHigh: cbHigh,
    dayRangeLow: dayLow,
    dayRangeHigh: dayHigh,
    week52Low: w52Low,
    week52High: w52High,
    askPrice: price(STAT_LABELS.askPrice),
    askVolume: num(STAT_LABELS.askVolume),
    bidPrice: price(STAT_LABELS.bidPrice),
    bidVolume: num(STAT_LABELS.bidVolume),
    ldcp: num(STAT_LABELS.ldcp),
    var: num(STAT_LABELS.var),
    haircut: num(STAT_LABELS.haircut),
    peRatio: num(STAT_LABELS.peRatio),
    change1yPct: num(STAT_LABELS.change1y),
    ytdChangePct: num(STAT_LABELS.ytd),
  };
  if (Object.values(stats).every((v) => v === null)) fail('the REG panel has none of its labels');
  return stats;
}

// ---- profile ----

/** `item__head` label → the element after it (a `<p>` or the key-people table). */
function profileItems(section: Element): Map<string, Element> {
  const items = new Map<string, Element>();
  for (const head of findAll(section, byClass('item__head'))) {
    const siblings = head.parent === null ? [] : childElements(head.parent);
    const next = siblings[siblings.indexOf(head) + 1];
    const label = labelKey(textOf(head));
    if (next !== undefined && !hasClass(next, 'item__head') && !items.has(label)) items.set(label, next);
  }
  return items;
}

function readKeyPeople(el: Element | undefined): KeyPerson[] {
  if (el === undefined) return [];
  const table = el.tag === 'table' ? el : findFirst(el, byTag('table'));
  if (table === null) return [];
  const people: KeyPerson[] = [];
  for (const cells of readTable(table).rows) {
    const nameCell = cells[0];
    if (nameCell === undefined) continue;
    const strong = findFirst(nameCell, (e) => e.tag === 'strong' || e.tag === 'b');
    const name = textOf(strong ?? nameCell);
    if (name.length === 0) continue;
    const role = cells[1] === undefined ? '' : textOf(cells[1]);
    people.push({ name, role: role.length > 0 ? role : null });
  }
  return people;
}

function readProfile(root: Element): CompanyProfile {
  const section = sectionByTitle(root, ['company profile', 'profile'], 'profile');
  if (section === null) fail('no "Company Profile" section');
  const items = profileItems(section);
  if (items.size === 0) fail('the profile section has no labelled items');
  const text = (...labels: string[]): string | null => {
    for (const label of labels) {
      const el = items.get(label);
      if (el === undefined) continue;
      const value = textOf(el);
      return isNotAvailable(value) ? null : value;
    }
    return null;
  };
  const websiteEl = items.get('website');
  const link = websiteEl ? findFirst(websiteEl, byTag('a')) : null;
  return {
    description: text('business description', 'description'),
    keyPeople: readKeyPeople(items.get('key people')),
    address: text('address'),
    website: link?.attrs.get('href')?.trim() || text('website'),
    registrar: text('registrar'),
    auditor: text('auditor'),
    fiscalYearEnd: text('fiscal year end', 'year end'),
  };
}

// ---- equity ----

function readEquity(root: Element): CompanyEquity {
  const section = sectionByTitle(root, ['equity profile', 'equity'], 'equity');
  if (section === null) fail('no "Equity Profile" section');
  const equity: CompanyEquity = { marketCap: null, shares: null, freeFloatShares: null, freeFloatPct: null };
  for (const { label, value } of statsItems(section)) {
    const text = textOf(value);
    if (label.startsWith('market cap')) {
      // `Market Cap (000's)`: thousands of PKR; a label without the unit is taken as PKR.
      const scale = /\(0{3}'?s\)|thousand/.test(label) ? 1e3 : /million/.test(label) ? 1e6 : 1;
      equity.marketCap = fromThousands(numberOf(text), scale);
    } else if (label === 'shares' || label === 'outstanding shares' || label === 'total shares') {
      equity.shares = numberOf(text);
    } else if (label.startsWith('free float')) {
      // Two items share the label: the share count and the percentage.
      if (text.includes('%')) equity.freeFloatPct = numberOf(text);
      else equity.freeFloatShares = numberOf(text);
    }
  }
  if (Object.values(equity).every((v) => v === null)) fail('the equity section has none of its labels');
  return equity;
}

// ---- announcements ----

const CATEGORIES: Readonly<Record<string, AnnouncementCategory>> = {
  'financial results': 'financial-results',
  'board meetings': 'board-meetings',
  'board meeting': 'board-meetings',
  others: 'others',
  other: 'others',
};

function absoluteUrl(href: string | undefined): string | null {
  const trimmed = href?.trim();
  if (trimmed === undefined || trimmed.length === 0 || trimmed.startsWith('#')) return null;
  try {
    const url = new URL(trimmed, PORTAL);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The row's document and images: the PDF or attachment link wherever it sits in the cell (a `View`
 * link, `javascript:` with `data-images`, often comes first), and the image names `View` shows.
 */
function documentOf(cell: Element | undefined): Pick<CompanyAnnouncement, 'documentUrl' | 'images'> {
  if (cell === undefined) return { documentUrl: null, images: [] };
  let documentUrl: string | null = null;
  const images: string[] = [];
  for (const a of findAll(cell, byTag('a'))) {
    images.push(...imageNames(a.attrs.get('data-images') ?? null));
    const url = absoluteUrl(a.attrs.get('href'));
    if (url !== null && documentUrl === null) documentUrl = url;
  }
  return { documentUrl, images };
}

function readAnnouncements(root: Element): CompanyAnnouncement[] {
  const section = sectionByTitle(root, ['announcements'], 'announcements');
  if (section === null) fail('no "Announcements" section');
  const panels = findAll(section, byClass('tabs__panel'));
  const rows: CompanyAnnouncement[] = [];
  let readable = 0;
  for (const panel of panels) {
    const category = CATEGORIES[labelKey(panel.attrs.get('data-name') ?? '')];
    const table = findFirst(panel, byTag('table'));
    if (category === undefined || table === null) continue;
    const { headers, rows: body } = readTable(table);
    const dateAt = headerIndex(headers, 'date');
    const titleAt = headerIndex(headers, 'title');
    const documentAt = headerIndex(headers, 'document');
    if (dateAt < 0 || titleAt < 0) continue;
    readable++;
    for (const cells of body) {
      const date = parseDisplayDate(textOf(cells[dateAt] ?? cells[0]!));
      const titleCell = cells[titleAt];
      const title = titleCell === undefined ? '' : textOf(titleCell);
      if (date === null || title.length === 0) continue;
      rows.push({ category, date, title, ...documentOf(cells[documentAt]) });
    }
  }
  if (readable === 0) fail('no announcement tab with a Date and Title table');
  return rows;
}

// ---- financials and ratios ----

/** A line's key from its label: `Profit after Taxation` → `profit_after_taxation`, `EPS Growth (%)` → `eps_growth_pct`. */
export function lineKey(label: string): string {
  return label
    .toLowerCase()
    .replace(/\(%\)|%/g, ' pct ')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** EPS is printed in rupees a share and ratios as printed; everything else is scaled. */
function isUnscaled(key: string): boolean {
  return (
    key === 'eps' ||
    key.startsWith('eps_') ||
    key.includes('per_share') ||
    key.endsWith('_pct') ||
    key === 'peg'
  );
}

/** A period table: first column the line labels, one column per period (`2025`, `Q2 2026`). */
function readPeriodTable(table: Element, scale: number): FinancialPeriod[] {
  const { headers, rows } = readTable(table);
  if (headers.length === 0) fail('a period table has no header row');
  // Headers arrive lowercased; the page writes periods upper-case (`Q2 2026`).
  const periods = headers.slice(1).map((h, i) => ({ index: i + 1, period: h.toUpperCase() }));
  const out: FinancialPeriod[] = periods.map((p) => ({ period: p.period, lines: {} }));
  for (const cells of rows) {
    const label = cells[0] === undefined ? '' : textOf(cells[0]);
    const key = lineKey(label);
    if (key.length === 0) continue;
    const factor = isUnscaled(key) ? 1 : scale;
    periods.forEach((p, i) => {
      const cell = cells[p.index];
      const value = cell === undefined ? null : numberOf(textOf(cell));
      (out[i] as FinancialPeriod).lines[key] = fromThousands(value, factor);
    });
  }
  return out;
}

/** The table of the tab panel named `name` (`Annual`, `Quarterly`). */
function tabTable(section: Element, name: string): Element | null {
  const panel = findFirst(
    section,
    (el) => hasClass(el, 'tabs__panel') && labelKey(el.attrs.get('data-name') ?? '') === name,
  );
  return panel === null ? null : findFirst(panel, byTag('table'));
}

function readFinancials(root: Element): CompanyFinancials {
  const section = sectionByTitle(root, ['financials'], 'financials');
  if (section === null) fail('no "Financials" section');
  // "All numbers in thousands (000's) except EPS"; a note in millions is honoured.
  const note = textOf(section).toLowerCase();
  const scale = /in millions/.test(note) ? 1e6 : 1e3;
  const annual = tabTable(section, 'annual');
  const quarterly = tabTable(section, 'quarterly');
  if (annual === null && quarterly === null) fail('no Annual or Quarterly table');
  return {
    annual: annual === null ? null : readPeriodTable(annual, scale),
    quarterly: quarterly === null ? null : readPeriodTable(quarterly, scale),
  };
}

function readRatios(root: Element): FinancialPeriod[] {
  const section = sectionByTitle(root, ['ratios'], 'ratios');
  if (section === null) fail('no "Ratios" section');
  const table = findFirst(section, byTag('table'));
  if (table === null) fail('no ratios table');
  return readPeriodTable(table, 1);
}

// ---- the page ----

function isNotFoundPage(root: Element): boolean {
  const title = findFirst(root, byTag('title'));
  if (title !== null && labelKey(textOf(title)) === 'not found') return true;
  const header = findFirst(root, byClass('pageHeader__title'));
  return header !== null && labelKey(textOf(header)) === 'not found';
}

/**
 * The company page, or null for the portal's `Not Found` page. Throws UpstreamDataError when no
 * section of the page can be read (a maintenance page, a redesign).
 */
export function parseCompany(html: string): CompanyPage | null {
  const page = requirePageText('company', html);
  const root = parseElements(page);
  if (isNotFoundPage(root)) return null;
  const missing: CompanyPage['missing'][number][] = [];
  const read = <T>(section: CompanySection, reader: (root: Element) => T): T | null => {
    try {
      return reader(root);
    } catch (err) {
      if (!(err instanceof SectionError)) throw err;
      missing.push({ section, reason: err.message });
      return null;
    }
  };
  const result: CompanyPage = {
    quote: read('quote', readQuote),
    stats: read('stats', readStats),
    profile: read('profile', readProfile),
    equity: read('equity', readEquity),
    announcements: read('announcements', readAnnouncements),
    financials: read('financials', readFinancials),
    ratios: read('ratios', readRatios),
    missing,
  };
  noteFields(
    ['quote', 'stats', 'profile', 'equity', 'announcements', 'financials', 'ratios'],
    missing.map((m) => m.section),
  );
  if (missing.length === 7) {
    throw new UpstreamDataError(
      'company',
      `no section could be read (${missing.map((m) => m.reason).join('; ')})`,
    );
  }
  return result;
}
