// The company behind a symbol: profile, announcements and financial reports. Each part appears
// when the service has its endpoint; the reports list (/fundamentals) always does.
import { NotAvailable } from '../api.ts';
import {
  announcements,
  financials,
  profile,
  reports,
  type Announcement,
  type FinancialsRow,
  type Profile,
} from '../data.ts';
import { h, replace } from '../dom.ts';
import { fmtBillions, fmtCompact, fmtPct } from '../format.ts';
import { load } from '../load.ts';

export function companySections(symbol: string): { el: HTMLElement; destroy: () => void } {
  const profileBox = h('div', { class: 'panel' });
  const newsBox = h('div', { class: 'panel' });
  const finBox = h('div', { class: 'panel' });
  const reportBox = h('div', { class: 'panel' });
  const section = (id: string, title: string, box: HTMLElement, hidden = false): HTMLElement =>
    h('section', { 'aria-labelledby': id, hidden }, h('h2', { id }, title), box);
  const profileSection = section('profile-heading', 'Company', profileBox, true);
  const newsSection = section('news-heading', 'Announcements', newsBox, true);
  const finSection = section('financials-heading', 'Financials', finBox, true);
  const el = h(
    'div',
    { class: 'company' },
    profileSection,
    h('div', { class: 'company-grid' }, newsSection, finSection),
    section('reports-heading', 'Financial reports', reportBox),
  );
  // A part whose endpoint the service lacks stays hidden; errors show in the part as usual.
  const reveal = (s: HTMLElement) => (): Node => {
    s.hidden = true;
    return h('span');
  };
  const shown =
    <T>(s: HTMLElement, render: (v: T) => Node) =>
    (v: T): Node => {
      s.hidden = false;
      return render(v);
    };
  const quietly =
    <T>(s: HTMLElement, call: () => Promise<T>) =>
    async (): Promise<T> => {
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof NotAvailable)) s.hidden = false;
        throw err;
      }
    };

  void load(
    profileBox,
    'the company profile',
    quietly(profileSection, async () => (await profile(symbol)).data),
    shown(profileSection, profileCard),
    {
      missing: reveal(profileSection),
    },
  );
  void load(
    newsBox,
    'announcements',
    quietly(newsSection, async () => (await announcements(symbol)).data),
    shown(newsSection, newsList),
    { missing: reveal(newsSection) },
  );
  void load(
    finBox,
    'financials',
    quietly(finSection, async () => (await financials(symbol, 'annual')).data),
    shown(finSection, financialTable),
    { missing: reveal(finSection) },
  );
  void load(
    reportBox,
    'financial reports',
    async () => (await reports(symbol)).data,
    (rows) =>
      rows.length === 0
        ? h('p', { class: 'empty' }, 'No reports are listed for this symbol.')
        : h(
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
                  h(
                    'a',
                    { href: r.document, rel: 'noopener', target: '_blank' },
                    `${r.type} ${r.period_ended}`,
                  ),
                  h('span', { class: 'sr-only' }, ' (PDF, opens in a new tab)'),
                ),
              ),
          ),
  );
  return { el, destroy: () => replace(el) };
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

/** Lines as rows, periods as columns (newest first), as financial statements are read. */
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
      { class: 'data compact' },
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
        lines.map((k) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, k.replace(/_/g, ' ')),
            periods.map((p) => h('td', { class: 'num' }, typeof p[k] === 'number' ? fmtCompact(p[k]) : '—')),
          ),
        ),
      ),
    ),
  );
}
