// One symbol: its quote, and its daily history as a candlestick chart with range buttons and the
// days the service flags as suspect.
import type { HistoricalRow, Quote } from 'psx-market-data-client';
import {
  chartableRows,
  createPriceChart,
  RANGES,
  reasonText,
  type PriceChart,
  type RangeId,
} from '../chart.ts';
import { history, quote, sectorNames } from '../data.ts';
import { h } from '../dom.ts';
import { arrow, direction, fmtCompact, fmtPct, fmtPrice, fmtSigned, fmtWhole } from '../format.ts';
import { load } from '../load.ts';

const DEFAULT_RANGE: RangeId = '1Y';

export function symbolView(main: HTMLElement, rawSymbol: string): () => void {
  const symbol = rawSymbol.toUpperCase();
  const subtitle = h('p', { class: 'subtitle' });
  const quotePanel = h('div', { class: 'panel' });
  const historyPanel = h('div', { class: 'panel' });
  main.append(
    h(
      'nav',
      { 'aria-label': 'Breadcrumb', class: 'crumbs' },
      h('a', { href: '#/' }, 'Market'),
      ' › ',
      symbol,
    ),
    h('h1', { tabindex: '-1' }, symbol),
    subtitle,
    h('section', { 'aria-label': 'Quote' }, quotePanel),
    h(
      'section',
      { 'aria-labelledby': 'history-heading' },
      h('h2', { id: 'history-heading' }, 'Price history'),
      historyPanel,
    ),
  );

  void load(
    quotePanel,
    'the quote',
    async () => ({ q: await quote(symbol), names: await sectorNames() }),
    ({ q, names }) => {
      subtitle.textContent = q.name ?? '';
      return quoteCard(q, q.sector_code ? (names.get(Number(q.sector_code)) ?? q.sector_code) : null);
    },
  );

  let current: PriceChart | undefined;
  let disposed = false;
  void load(
    historyPanel,
    'the price history',
    () => history(symbol),
    (rows) => {
      const block = historyBlock(symbol, rows);
      // The chart measures its container: create it once load() has put the block on the page
      // (which it does right after this returns, also after a Retry).
      queueMicrotask(() => {
        if (!disposed) block.mount();
      });
      return block.el;
    },
  );

  function historyBlock(sym: string, rows: HistoricalRow[]): { el: HTMLElement; mount: () => void } {
    const onChart = chartableRows(rows);
    const indexOf = new Map(onChart.map((r, i) => [r.date, i]));
    const host = h('div', { class: 'chart', role: 'img' });
    const buttons = RANGES.map((r) =>
      h(
        'button',
        {
          type: 'button',
          'aria-pressed': String(r.id === DEFAULT_RANGE),
          'aria-label': `Show ${r.spoken}`,
          'data-range': r.id,
        },
        r.label,
      ),
    );
    const press = (id: RangeId | null): void =>
      buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.range === id)));
    buttons.forEach((b) =>
      b.addEventListener('click', () => {
        const id = b.dataset.range as RangeId;
        current?.setRange(id);
        press(id);
      }),
    );
    const first = onChart[0]?.date ?? '';
    const last = onChart[onChart.length - 1]?.date ?? '';
    host.setAttribute(
      'aria-label',
      `Daily candlestick chart of ${sym} with volume, ${first} to ${last}. Flagged days are listed below the chart.`,
    );
    const flagged = rows.filter((r) => r.is_anomaly);
    const el = h(
      'div',
      {},
      rows.length === 0
        ? h('p', {}, 'No trading history is available for this symbol.')
        : [
            h('div', { class: 'ranges', role: 'group', 'aria-label': 'Chart range' }, buttons),
            host,
            flaggedList(flagged, indexOf, (i) => {
              press(null);
              current?.showDay(i);
              host.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
            }),
          ],
    );
    const mountChart = (): void => {
      if (onChart.length === 0) return;
      current = createPriceChart(host, onChart);
      current.setRange(DEFAULT_RANGE);
    };
    return { el, mount: mountChart };
  }

  return () => {
    disposed = true;
    current?.destroy();
  };
}

function flaggedList(
  rows: HistoricalRow[],
  indexOf: Map<string, number>,
  show: (i: number) => void,
): HTMLElement {
  const items = rows.map((r) => {
    const i = indexOf.get(r.date);
    return h(
      'li',
      { 'data-date': r.date },
      h('span', { class: 'flag-date' }, r.date),
      h(
        'ul',
        { class: 'reasons' },
        r.anomaly_reasons.map((code) => h('li', {}, h('code', {}, code), ` ${reasonText(code)}`)),
      ),
      i === undefined
        ? null
        : h(
            'button',
            { type: 'button', onclick: () => show(i), 'aria-label': `Show ${r.date} on the chart` },
            'Show on chart',
          ),
    );
  });
  return h(
    'section',
    { class: 'flagged', 'aria-labelledby': 'flagged-heading' },
    h('h3', { id: 'flagged-heading' }, `Flagged days (${rows.length})`),
    h(
      'p',
      { class: 'hint' },
      rows.length === 0
        ? 'No day in this history looks suspect.'
        : 'Marked ! on the chart; hover one for its reasons. Prices are as traded, so corporate actions show up here.',
    ),
    rows.length === 0 ? null : h('ul', { class: 'flag-list' }, items),
  );
}

function quoteCard(q: Quote, sectorName: string | null): HTMLElement {
  const dir = direction(q.change);
  const fact = (label: string, value: Node | string, wide = false): HTMLElement =>
    h('div', { class: wide ? 'wide' : null }, h('dt', {}, label), h('dd', {}, value));
  return h(
    'article',
    { class: 'quote-card' },
    h(
      'p',
      { class: 'quote-price' },
      h('span', { class: 'price' }, fmtPrice(q.price)),
      ' ',
      h('span', { class: 'unit' }, 'PKR'),
      ' ',
      h(
        'span',
        { class: `quote-change ${dir}` },
        h('span', { 'aria-hidden': 'true' }, `${arrow(q.change)} `),
        `${fmtSigned(q.change)} (${fmtPct(q.change_pct)})`,
      ),
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Open', fmtPrice(q.open)),
      fact('High', fmtPrice(q.high)),
      fact('Low', fmtPrice(q.low)),
      fact('Previous close', fmtPrice(q.ldcp)),
      fact('Volume', fmtWhole(q.volume)),
      fact('Avg volume (30 d)', fmtWhole(q.volume_avg_30d)),
      fact('Market cap', fmtCompact(q.market_cap)),
      fact('P/E', fmtPrice(q.pe_ratio)),
      fact('Dividend yield', fmtPct(q.dividend_yield, false)),
      fact('Free float', fmtCompact(q.free_float)),
      fact('1-year change', h('span', { class: direction(q.change_1y_pct) }, fmtPct(q.change_1y_pct))),
      fact(
        'Sector',
        q.sector_code
          ? h('a', { href: `#/sector/${encodeURIComponent(q.sector_code)}` }, sectorName ?? q.sector_code)
          : '—',
      ),
      fact('Listed in', q.listed_in ? q.listed_in.split(',').join(', ') : '—', true),
    ),
  );
}
