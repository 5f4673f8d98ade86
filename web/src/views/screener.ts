// The screener: every symbol with the day's change and volume, its name and fundamentals, filtered
// as you type and sorted by any column. Money columns carry their unit in the heading.
import { h, replace } from '../dom.ts';
import {
  arrow,
  direction,
  fmtBillions,
  fmtCompact,
  fmtPct,
  fmtPrice,
  fmtRatio,
  fmtSigned,
} from '../format.ts';
import type { ScreenRow } from './market-data.ts';

interface Column {
  key: keyof ScreenRow | 'sector_name';
  label: string;
  numeric: boolean;
  show: (row: ScreenRow, sector: string) => Node | string;
  live?: 'price' | 'change' | 'change_pct' | 'volume';
  /** Coloured by the day's direction. */
  signed?: boolean;
}

type SortDir = 'ascending' | 'descending';

/** Rows drawn at first: the whole market (~500 symbols) at once costs phones a second of layout. */
const PAGE = 50;

const COLUMNS: Column[] = [
  { key: 'symbol', label: 'Symbol', numeric: false, show: symbolCell },
  { key: 'price', label: 'Price (PKR)', numeric: true, show: (r) => fmtPrice(r.price), live: 'price' },
  {
    key: 'change',
    label: 'Change (PKR)',
    numeric: true,
    show: (r) => fmtSigned(r.change),
    live: 'change',
    signed: true,
  },
  {
    key: 'change_pct',
    label: 'Change %',
    numeric: true,
    show: (r) => fmtPct(r.change_pct),
    live: 'change_pct',
    signed: true,
  },
  {
    key: 'volume',
    label: 'Volume (shares)',
    numeric: true,
    show: (r) => fmtCompact(r.volume),
    live: 'volume',
  },
  { key: 'market_cap', label: 'Market cap (PKR bn)', numeric: true, show: (r) => fmtBillions(r.market_cap) },
  { key: 'pe_ratio', label: 'P/E', numeric: true, show: (r) => fmtRatio(r.pe_ratio) },
  {
    key: 'dividend_yield',
    label: 'Div. yield %',
    numeric: true,
    show: (r) => fmtPct(r.dividend_yield, false),
  },
  {
    key: 'change_1y_pct',
    label: '1-year %',
    numeric: true,
    show: (r) => h('span', { class: direction(r.change_1y_pct) }, fmtPct(r.change_1y_pct)),
  },
  {
    key: 'volume_avg_30d',
    label: 'Avg vol. 30 d',
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

export function screener(rows: ScreenRow[], opts: ScreenerOptions): HTMLElement {
  let query = '';
  let sortKey: Column['key'] = 'market_cap';
  let sortDir: SortDir = 'descending';
  let limit = PAGE;
  const sectorOf = (r: ScreenRow): string =>
    r.sector === null
      ? ''
      : (opts.sectorNames.get(r.sector) ?? `Sector ${String(r.sector).padStart(4, '0')}`);

  const filterId = `screener-filter-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', {
    id: filterId,
    type: 'search',
    placeholder: 'Symbol, name, sector or index (e.g. KSE30)',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const status = h('p', { class: 'screener-count', 'aria-live': 'polite' });
  const empty = h('p', { class: 'empty', hidden: true });
  const tbody = h('tbody');
  const more = h('button', { type: 'button', class: 'more', hidden: true });
  const headRow = h('tr');

  const visible = (): ScreenRow[] => {
    const q = query.trim().toLowerCase();
    const matches = q
      ? rows.filter(
          (r) =>
            r.symbol.toLowerCase().includes(q) ||
            (r.name ?? '').toLowerCase().includes(q) ||
            sectorOf(r).toLowerCase().includes(q) ||
            (r.listed_in ?? '').toLowerCase().split(',').includes(q),
        )
      : rows.slice();
    const sign = sortDir === 'ascending' ? 1 : -1;
    return matches.sort((a, b) => compare(valueOf(a, sortKey), valueOf(b, sortKey), sign));
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
        return h(
          'th',
          { scope: 'col', class: c.numeric ? 'num' : null, 'aria-sort': active ? sortDir : null },
          button,
        );
      }),
    );
  };

  const renderBody = (): void => {
    const matching = visible();
    const shown = matching.slice(0, limit);
    replace(
      tbody,
      ...shown.map((r) =>
        h(
          'tr',
          { 'data-symbol': r.symbol },
          COLUMNS.map((c, i) => {
            const sector = sectorOf(r);
            if (i === 0) return h('th', { scope: 'row' }, c.show(r, sector));
            const dir = c.signed ? direction(r.change) : null;
            return h(
              'td',
              {
                class: ['num', dir ?? ''].join(' ').trim(),
                'data-live': c.live ? r.symbol : null,
                'data-field': c.live ?? null,
                // Streamed values are written as the table writes them (web/src/live.ts).
                'data-format': c.key === 'volume' ? 'compact' : null,
                'data-arrow': c.signed && c.key === 'change' ? '' : null,
              },
              c.signed && c.key === 'change'
                ? h('span', { 'aria-hidden': 'true' }, `${arrow(r.change)} `)
                : null,
              c.show(r, sector),
            );
          }),
        ),
      ),
    );
    status.textContent =
      shown.length < matching.length
        ? `${shown.length} of ${matching.length} matching (${rows.length} symbols)`
        : `${matching.length} of ${rows.length} symbols`;
    more.hidden = shown.length >= matching.length;
    more.textContent = `Show all ${matching.length}`;
    empty.hidden = shown.length > 0;
    empty.textContent =
      shown.length > 0
        ? ''
        : `No symbol matches “${query.trim()}”. Try a symbol, a company name or a sector.`;
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
  more.addEventListener('click', () => {
    limit = Infinity;
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
    h('p', { class: 'scroll-hint' }, 'Swipe the table sideways for more columns →'),
    h(
      'div',
      { class: 'table-scroll screener-scroll', tabindex: '0', role: 'region', 'aria-label': opts.caption },
      h(
        'table',
        { class: 'data' },
        h('caption', { class: 'sr-only' }, opts.caption),
        h('thead', {}, headRow),
        tbody,
      ),
    ),
    empty,
    more,
  );
}

function symbolCell(r: ScreenRow, sector: string): Node {
  return h(
    'span',
    { class: 'symbol-cell' },
    h('a', { href: `#/symbol/${encodeURIComponent(r.symbol)}` }, r.symbol),
    r.name ? h('span', { class: 'name' }, r.name) : null,
    sector && r.sector !== null
      ? h('a', { class: 'quiet sector-label', href: `#/sector/${String(r.sector).padStart(4, '0')}` }, sector)
      : null,
  );
}

function valueOf(r: ScreenRow, key: Column['key']): string | number | null {
  if (key === 'sector_name') return null;
  if (key === 'pe_ratio') return r.pe_ratio !== null && r.pe_ratio > 0 ? r.pe_ratio : null;
  const v = r[key];
  return typeof v === 'number' || typeof v === 'string' ? v : null;
}

/** Missing values sort last whichever the direction, as a reader expects of a blank cell. */
function compare(a: string | number | null, b: string | number | null, sign: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * String(a).localeCompare(String(b), 'en', { numeric: true });
}
