// The screener: every symbol with its fundamentals, filtered as you type and sorted by any column.
import type { ScreenerRow } from 'psx-market-data-client';
import { h, replace } from '../dom.ts';
import { direction, fmtCompact, fmtPct, fmtPrice } from '../format.ts';

interface Column {
  key: keyof ScreenerRow | 'sector_name';
  label: string;
  numeric: boolean;
  show: (row: ScreenerRow, sector: string) => Node | string;
  /** Extra cell class: lets a narrow screen drop the widest column. */
  cls?: string;
}

type SortDir = 'ascending' | 'descending';

const COLUMNS: Column[] = [
  { key: 'symbol', label: 'Symbol', numeric: false, show: (r) => symbolLink(r.symbol) },
  { key: 'sector_name', label: 'Sector', numeric: false, show: sectorLink, cls: 'col-sector' },
  { key: 'price', label: 'Price', numeric: true, show: (r) => fmtPrice(r.price) },
  {
    key: 'change_1y_pct',
    label: '1-year change',
    numeric: true,
    show: (r) => h('span', { class: direction(r.change_1y_pct) }, fmtPct(r.change_1y_pct)),
  },
  { key: 'market_cap', label: 'Market cap', numeric: true, show: (r) => fmtCompact(r.market_cap) },
  { key: 'pe_ratio', label: 'P/E', numeric: true, show: (r) => fmtPrice(r.pe_ratio) },
  {
    key: 'dividend_yield',
    label: 'Dividend yield',
    numeric: true,
    show: (r) => fmtPct(r.dividend_yield, false),
  },
  {
    key: 'volume_avg_30d',
    label: 'Avg volume (30 d)',
    numeric: true,
    show: (r) => fmtCompact(r.volume_avg_30d),
  },
];

export interface ScreenerOptions {
  /** Sector names by the screener's numeric sector code (0813 → 813). */
  sectorNames: Map<number, string>;
  caption: string;
  /** Where pressing Enter in the filter goes when exactly one symbol matches. */
  open: (symbol: string) => void;
}

export function screener(rows: ScreenerRow[], opts: ScreenerOptions): HTMLElement {
  let query = '';
  let sortKey: Column['key'] = 'market_cap';
  let sortDir: SortDir = 'descending';
  const sectorOf = (r: ScreenerRow): string =>
    r.sector === null ? '' : (opts.sectorNames.get(r.sector) ?? String(r.sector));

  const filterId = `screener-filter-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', {
    id: filterId,
    type: 'search',
    placeholder: 'Symbol, sector or index (e.g. KSE30)',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const status = h('p', { class: 'screener-count', 'aria-live': 'polite' });
  const tbody = h('tbody');
  const headRow = h('tr');

  const visible = (): ScreenerRow[] => {
    const q = query.trim().toLowerCase();
    const matches = q
      ? rows.filter(
          (r) =>
            r.symbol.toLowerCase().includes(q) ||
            sectorOf(r).toLowerCase().includes(q) ||
            (r.listed_in ?? '').toLowerCase().split(',').includes(q),
        )
      : rows.slice();
    const sign = sortDir === 'ascending' ? 1 : -1;
    return matches.sort((a, b) =>
      compare(valueOf(a, sortKey, sectorOf), valueOf(b, sortKey, sectorOf), sign),
    );
  };

  const renderHead = (): void => {
    replace(
      headRow,
      ...COLUMNS.map((c) => {
        const active = c.key === sortKey;
        const button = h(
          'button',
          { type: 'button', class: 'sort', onclick: () => sortBy(c.key) },
          c.label,
          h(
            'span',
            { class: 'sort-mark', 'aria-hidden': 'true' },
            active ? (sortDir === 'ascending' ? ' ↑' : ' ↓') : '',
          ),
        );
        return h('th', { scope: 'col', class: cellClass(c), 'aria-sort': active ? sortDir : null }, button);
      }),
    );
  };

  const renderBody = (): void => {
    const shown = visible();
    replace(
      tbody,
      ...shown.map((r) =>
        h(
          'tr',
          { 'data-symbol': r.symbol },
          COLUMNS.map((c, i) =>
            i === 0
              ? h('th', { scope: 'row' }, c.show(r, sectorOf(r)))
              : h('td', { class: cellClass(c) }, c.show(r, sectorOf(r))),
          ),
        ),
      ),
    );
    status.textContent = `${shown.length} of ${rows.length} symbols`;
  };

  const sortBy = (key: Column['key']): void => {
    const numeric = COLUMNS.find((c) => c.key === key)?.numeric ?? false;
    if (key === sortKey) sortDir = sortDir === 'ascending' ? 'descending' : 'ascending';
    else [sortKey, sortDir] = [key, numeric ? 'descending' : 'ascending'];
    renderHead();
    renderBody();
  };

  input.addEventListener('input', () => {
    query = input.value;
    renderBody();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const shown = visible();
    const q = query.trim().toUpperCase();
    const exact = shown.find((r) => r.symbol === q);
    if (exact || shown.length === 1) opts.open((exact ?? shown[0])?.symbol ?? q);
  });

  renderHead();
  renderBody();
  return h(
    'div',
    { class: 'screener' },
    h('div', { class: 'screener-tools' }, h('label', { for: filterId }, 'Filter'), input, status),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'data' },
        h('caption', { class: 'sr-only' }, opts.caption),
        h('thead', {}, headRow),
        tbody,
      ),
    ),
  );
}

const cellClass = (c: Column): string => [c.numeric ? 'num' : '', c.cls ?? ''].join(' ').trim();

function sectorLink(r: ScreenerRow, name: string): Node | string {
  if (r.sector === null) return '—';
  // The screener's sector is the 4-digit code as a number (0813 → 813).
  return h('a', { href: `#/sector/${String(r.sector).padStart(4, '0')}` }, name);
}

function symbolLink(symbol: string): HTMLElement {
  return h('a', { href: `#/symbol/${encodeURIComponent(symbol)}` }, symbol);
}

function valueOf(
  r: ScreenerRow,
  key: Column['key'],
  sectorOf: (r: ScreenerRow) => string,
): string | number | null {
  if (key === 'sector_name') return sectorOf(r);
  const v = r[key];
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

/** Missing values sort last whichever the direction, as a reader expects of a blank cell. */
function compare(a: string | number | null, b: string | number | null, sign: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * String(a).localeCompare(String(b), 'en', { numeric: true });
}
