// The company behind a symbol: profile, announcements, financials and the filed reports, all
// parts of the symbol's overview. A part is drawn once it arrives; until then it says when.
import type { components } from 'psx-market-data-client';
import type { Announcement, FinancialsRow, Part, Profile } from '../data.ts';
import { h, replace } from '../dom.ts';
import { fmtBillions, fmtCompact, fmtPct, fmtPrice } from '../format.ts';
import { partNote } from './parts.ts';

type Report = components['schemas']['FundamentalsRow'];
export type CompanyPart = 'profile' | 'announcements' | 'financials' | 'reports';

export interface CompanySections {
  el: HTMLElement;
  /** Draws a part; true once it is on screen for good (data, or the exchange has none). */
  show(name: CompanyPart, part: Part<never>): boolean;
  destroy(): void;
}

export function companySections(): CompanySections {
  const boxes: Record<CompanyPart, HTMLElement> = {
    profile: h('div', { class: 'panel', id: 'profile-panel' }),
    announcements: h('div', { class: 'panel', id: 'news-panel' }),
    financials: h('div', { class: 'panel', id: 'financials-panel' }),
    reports: h('div', { class: 'panel', id: 'reports-panel' }),
  };
  const section = (id: string, title: string, box: HTMLElement): HTMLElement =>
    h('section', { 'aria-labelledby': id }, h('h2', { id }, title), box);
  const el = h(
    'div',
    { class: 'company' },
    section('profile-heading', 'Company', boxes.profile),
    h(
      'div',
      { class: 'company-grid' },
      section('news-heading', 'Announcements', boxes.announcements),
      section('financials-heading', 'Financials', boxes.financials),
    ),
    section('reports-heading', 'Financial reports', boxes.reports),
  );
  for (const box of Object.values(boxes)) replace(box, h('p', { class: 'loading' }, 'Loading…'));
  const what: Record<CompanyPart, string> = {
    profile: 'the company profile',
    announcements: 'announcements',
    financials: 'financials',
    reports: 'the list of financial reports',
  };
  return {
    el,
    show(name, part) {
      const box = boxes[name];
      if (part.data === null) {
        replace(box, partNote(part, what[name]));
        return part.error?.status === 404;
      }
      const data = part.data as unknown;
      const drawn =
        name === 'profile'
          ? profileCard(data as Profile)
          : name === 'announcements'
            ? newsList(data as Announcement[])
            : name === 'financials'
              ? financialTable(data as FinancialsRow[])
              : reportList(data as Report[]);
      replace(box, drawn);
      return true;
    },
    destroy: () => replace(el),
  };
}

function reportList(rows: Report[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, 'No reports are listed for this symbol.');
  return h(
    'ul',
    { class: 'report-list' },
    rows
      .slice(0, 12)
      .map((r) =>
        h(
          'li',
          {},
          h('span', { class: 'quiet' }, r.posting_date),
          ' ',
          h('a', { href: r.document, rel: 'noopener', target: '_blank' }, `${r.type} ${r.period_ended}`),
          h('span', { class: 'sr-only' }, ' (PDF, opens in a new tab)'),
        ),
      ),
  );
}

function profileCard(p: Profile): HTMLElement {
  const fact = (label: string, value: Node | string | null): HTMLElement | null =>
    value === null || value === '' ? null : h('div', {}, h('dt', {}, label), h('dd', {}, value));
  return h(
    'div',
    { class: 'profile' },
    p.description ? h('p', { class: 'profile-text' }, p.description) : null,
    h(
      'dl',
      { class: 'facts' },
      fact('Market cap (PKR bn)', fmtBillions(p.market_cap)),
      fact('Shares outstanding', fmtCompact(p.shares_outstanding)),
      fact(
        'Free float',
        p.free_float_pct === null
          ? fmtCompact(p.free_float_shares)
          : `${fmtCompact(p.free_float_shares)} (${fmtPct(p.free_float_pct, false)})`,
      ),
      fact('Fiscal year end', p.fiscal_year_end),
      fact('Auditor', p.auditor),
      fact('Registrar', p.registrar),
      fact(
        'Website',
        p.website
          ? h(
              'a',
              { href: p.website, rel: 'noopener', target: '_blank' },
              p.website.replace(/^https?:\/\//, ''),
            )
          : null,
      ),
      p.key_people.length
        ? h(
            'div',
            { class: 'wide' },
            h('dt', {}, 'Key people'),
            h('dd', {}, p.key_people.map((k) => `${k.name} (${k.role})`).join(' · ')),
          )
        : null,
    ),
  );
}

function newsList(items: Announcement[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'empty' }, 'No announcements.');
  return h(
    'ul',
    { class: 'news-list' },
    items
      .slice(0, 10)
      .map((a) =>
        h(
          'li',
          {},
          h('span', { class: 'quiet' }, `${a.date}${a.time ? ` ${a.time.slice(0, 5)}` : ''}`),
          ' ',
          a.document_url
            ? h('a', { href: a.document_url, rel: 'noopener', target: '_blank' }, a.title)
            : a.title,
        ),
      ),
  );
}

/** How each line of the company page reads, its unit, and how its numbers are written. */
interface LineFormat {
  label: string;
  format: (v: number) => string;
}

const millions = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const AMOUNT = (v: number): string => millions.format(v / 1e6);
const PERCENT = (v: number): string => oneDecimal.format(v);
const RATIO = (v: number): string => fmtPrice(v);

const KNOWN_LINES: Record<string, LineFormat> = {
  sales: { label: 'Sales (PKR m)', format: AMOUNT },
  mark_up_earned: { label: 'Mark-up earned (PKR m)', format: AMOUNT },
  total_income: { label: 'Total income (PKR m)', format: AMOUNT },
  profit_after_taxation: { label: 'Profit after tax (PKR m)', format: AMOUNT },
  eps: { label: 'Earnings per share (PKR)', format: RATIO },
  net_profit_margin_pct: { label: 'Net profit margin (%)', format: PERCENT },
  eps_growth_pct: { label: 'EPS growth (%)', format: PERCENT },
  peg: { label: 'PEG', format: RATIO },
};

/** A line the list above does not know: its words, and an amount in PKR millions unless a percent. */
function lineFormat(key: string): LineFormat {
  const known = KNOWN_LINES[key];
  if (known) return known;
  const pct = key.endsWith('_pct');
  const words = key.replace(/_pct$/, '').replace(/_/g, ' ');
  const label = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
  return pct ? { label: `${label} (%)`, format: PERCENT } : { label: `${label} (PKR m)`, format: AMOUNT };
}

/** Lines as rows, periods as columns (newest first), as financial statements are read; each line in one unit. */
function financialTable(rows: FinancialsRow[]): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, 'No financials are published for this symbol.');
  const periods = rows.slice(0, 4);
  const lines = [...new Set(periods.flatMap((r) => Object.keys(r)))].filter(
    (k) => k !== 'period' && periods.some((r) => typeof r[k] === 'number'),
  );
  return h(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Financials' },
    h(
      'table',
      { class: 'data compact financials' },
      h('caption', { class: 'sr-only' }, 'Financials by period'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Line'),
          periods.map((p) => h('th', { scope: 'col', class: 'num' }, String(p.period))),
        ),
      ),
      h(
        'tbody',
        {},
        lines.map((k) => {
          const line = lineFormat(k);
          return h(
            'tr',
            { 'data-line': k },
            h('th', { scope: 'row' }, line.label),
            periods.map((p) => {
              const v = p[k];
              return h('td', { class: 'num' }, typeof v === 'number' ? line.format(v) : '—');
            }),
          );
        }),
      ),
    ),
  );
}
