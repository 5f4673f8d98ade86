// One symbol: a header with its price (live when the service streams), the day's range, the
// circuit-breaker band and the 52-week range; its chart (today's intraday, and daily candles over
// 1M … All, raw or adjusted for corporate actions); flagged days; profile, announcements and
// financial reports where the service has them.
import type { HistoricalRow } from 'psx-market-data-client';
import { priceLimitBand } from '../../../src/market/price-limit.ts';
import {
  chartableRows,
  intradayPoints,
  monthsBefore,
  RANGES,
  reasonText,
  type RangeId,
} from '../chart-data.ts';
import type { PriceChart } from '../chart.ts';
import {
  adjustedHistory,
  corporateActions,
  history,
  quote,
  sectorNames,
  stockIntraday,
  type CorporateAction,
  type FullQuote,
} from '../data.ts';
import { h } from '../dom.ts';
import {
  arrow,
  direction,
  fmtBillions,
  fmtCompact,
  fmtPct,
  fmtPrice,
  fmtRatio,
  fmtSigned,
  fmtWhole,
  SPOKEN_DIRECTION,
} from '../format.ts';
import type { LineChart } from '../line-chart.ts';
import { streamQuotes } from '../live.ts';
import { load } from '../load.ts';
import { companySections } from './company.ts';
import { performanceSection } from './performance.ts';
import { indicatorSection } from './indicators.ts';

const DEFAULT_RANGE: RangeId = '1Y';
type Mode = 'raw' | 'adjusted';

export function symbolView(main: HTMLElement, rawSymbol: string): () => void {
  const symbol = rawSymbol.toUpperCase();
  const subtitle = h('p', { class: 'subtitle' });
  const quotePanel = h('div', { class: 'panel quote-panel' });
  const historyPanel = h('div', { class: 'panel chart-panel' });
  const company = companySections(symbol);
  const performance = performanceSection(symbol);
  const indicators = indicatorSection(symbol, monthsBefore(new Date().toISOString().slice(0, 10), 12));
  main.append(
    h(
      'nav',
      { 'aria-label': 'Breadcrumb', class: 'crumbs' },
      h('a', { href: '#/' }, 'Market'),
      ' › ',
      symbol,
    ),
    h('div', { class: 'symbol-title' }, h('h1', { tabindex: '-1' }, symbol), subtitle),
    h('section', { 'aria-label': 'Quote' }, quotePanel),
    h(
      'section',
      { 'aria-labelledby': 'history-heading' },
      h('h2', { id: 'history-heading' }, 'Chart'),
      historyPanel,
    ),
    indicators.el,
    performance.el,
    company.el,
  );

  let rows52: HistoricalRow[] = [];
  let lastQuote: FullQuote | undefined;
  const quoteLoaded = load(
    quotePanel,
    'the quote',
    async () => ({ q: (await quote(symbol)).data, names: await sectorNames() }),
    ({ q, names }) => {
      lastQuote = q;
      subtitle.textContent = q.name ?? '';
      return quoteCard(q, q.sector_code ? (names.get(Number(q.sector_code)) ?? q.sector_code) : null, rows52);
    },
  );
  const stopStream = streamQuotes([symbol]);

  let daily: PriceChart | undefined;
  let intraday: LineChart | undefined;
  let disposed = false;
  let mode: Mode = 'raw';
  let range: RangeId | '1D' = DEFAULT_RANGE;
  let actions: CorporateAction[] = [];
  let actionsKnown = false;

  const drawHistory = (): Promise<unknown> =>
    load(
      historyPanel,
      mode === 'adjusted' ? 'the adjusted price history' : 'the price history',
      async () => {
        const rows =
          mode === 'adjusted' ? (await adjustedHistory(symbol)).data : (await history(symbol)).data;
        if (!actionsKnown) {
          actionsKnown = true;
          try {
            actions = (await corporateActions(symbol)).data;
            adjustable = true;
          } catch {
            // No corporate-actions endpoint (or it failed): raw prices only, no toggle.
            actions = [];
          }
        }
        return rows;
      },
      (rows) => {
        if (mode === 'raw') {
          rows52 = rows;
          // The 52-week range needs the history when the quote does not carry it.
          if (lastQuote && lastQuote.week52_low == null) {
            void quoteLoaded.then(() => {
              const card = quotePanel.querySelector('[data-fact="52-week range"] dd');
              if (card) card.textContent = range52(lastQuote!, rows52);
            });
          }
        }
        const block = historyBlock(rows);
        queueMicrotask(() => {
          if (!disposed) void block.mount();
        });
        return block.el;
      },
    );
  let adjustable = false;
  void drawHistory();

  function historyBlock(rows: HistoricalRow[]): { el: HTMLElement; mount: () => Promise<void> } {
    daily?.destroy();
    daily = undefined;
    intraday?.destroy();
    intraday = undefined;
    const onChart = chartableRows(rows);
    const indexOf = new Map(onChart.map((r, i) => [r.date, i]));
    const host = h('div', { class: 'chart', role: 'img' });
    const dayHost = h('div', { class: 'chart-canvas intraday-canvas', hidden: true, role: 'img' });
    const oneDay = h(
      'button',
      {
        type: 'button',
        'aria-pressed': 'false',
        'aria-label': 'Show today',
        'data-range': '1D',
        hidden: true,
      },
      '1D',
    );
    const buttons = [
      oneDay,
      ...RANGES.map((r) =>
        h(
          'button',
          {
            type: 'button',
            'aria-pressed': String(r.id === range),
            'aria-label': `Show ${r.spoken}`,
            'data-range': r.id,
          },
          r.label,
        ),
      ),
    ];
    const press = (id: string | null): void =>
      buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.range === id)));
    const showDaily = (id: RangeId): void => {
      dayHost.hidden = true;
      host.hidden = false;
      daily?.setRange(id);
    };
    buttons.forEach((b) =>
      b.addEventListener('click', () => {
        const id = b.dataset.range as RangeId | '1D';
        range = id;
        press(id);
        if (id === '1D') void showIntraday();
        else showDaily(id);
      }),
    );
    // Today's bars, when the service has them: the 1D button appears once they are known.
    let dayPoints: ReturnType<typeof intradayPoints> = [];
    void stockIntraday(symbol).then(
      (r) => {
        dayPoints = intradayPoints(r.data);
        oneDay.hidden = dayPoints.length < 2;
      },
      () => undefined,
    );
    const showIntraday = async (): Promise<void> => {
      host.hidden = true;
      dayHost.hidden = false;
      if (!intraday && dayPoints.length > 1) {
        const prev = lastQuote?.ldcp ?? null;
        dayHost.setAttribute('aria-label', `${symbol} today, every 5 minutes, against the previous close`);
        const { createLineChart } = await import('../line-chart.ts');
        if (disposed || intraday) return;
        intraday = createLineChart(dayHost, dayPoints, { baseline: prev, intraday: true });
      }
    };

    const modeToggle = adjustable
      ? h(
          'div',
          { class: 'mode-toggle', role: 'group', 'aria-label': 'Prices' },
          (['raw', 'adjusted'] as const).map((m) =>
            h(
              'button',
              {
                type: 'button',
                'aria-pressed': String(mode === m),
                'data-mode': m,
                onclick: () => {
                  if (mode === m) return;
                  mode = m;
                  void drawHistory();
                },
              },
              m === 'raw' ? 'As traded' : 'Adjusted',
            ),
          ),
        )
      : null;

    const first = onChart[0]?.date ?? '';
    const last = onChart[onChart.length - 1]?.date ?? '';
    host.setAttribute(
      'aria-label',
      `Daily candlestick chart of ${symbol} ${mode === 'adjusted' ? 'adjusted for corporate actions' : 'as traded'}, with volume below, ${first} to ${last}. Flagged days are listed below the chart.`,
    );
    const flagged = rows.filter((r) => r.is_anomaly);
    const el = h(
      'div',
      {},
      rows.length === 0
        ? h('p', {}, 'No trading history is available for this symbol.')
        : [
            h(
              'div',
              { class: 'chart-tools' },
              h('div', { class: 'ranges', role: 'group', 'aria-label': 'Chart range' }, buttons),
              modeToggle,
            ),
            h('div', { class: 'chart-frame' }, host, dayHost),
            h(
              'p',
              { class: 'chart-key' },
              h('span', { class: 'key-flag', 'aria-hidden': 'true' }, '▼!'),
              ' flagged day',
              actions.length > 0
                ? [
                    ' · ',
                    h('span', { class: 'key-action', 'aria-hidden': 'true' }, '▲'),
                    ' corporate action (ex-date)',
                  ]
                : null,
              mode === 'adjusted' ? ' · prices adjusted for corporate actions' : ' · prices as traded',
            ),
            actions.length > 0 ? actionList(actions) : null,
            flaggedList(flagged, indexOf, (i) => {
              press(null);
              showDaily('ALL');
              daily?.showDay(i);
              host.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
            }),
          ],
    );
    const mount = async (): Promise<void> => {
      if (onChart.length === 0) return;
      // lightweight-charts is a chunk of its own, fetched and run once the chart is in view: on
      // a phone the header comes first, and the reader sees it without waiting for the chart.
      await inView(host);
      const { createPriceChart } = await import('../chart.ts');
      if (disposed || !host.isConnected) return;
      daily = createPriceChart(host, onChart, actions);
      if (range === '1D') void showIntraday();
      else daily.setRange(range);
    };
    return { el, mount };
  }

  return () => {
    disposed = true;
    stopStream();
    daily?.destroy();
    intraday?.destroy();
    company.destroy();
    performance.destroy();
    indicators.destroy();
  };
}

/** Resolves once `el` is at least partly on screen. */
function inView(el: HTMLElement): Promise<void> {
  if (typeof IntersectionObserver === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const seen = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      seen.disconnect();
      resolve();
    });
    seen.observe(el);
  });
}

function actionList(actions: CorporateAction[]): HTMLElement {
  return h(
    'details',
    { class: 'actions' },
    h('summary', {}, `Corporate actions (${actions.length})`),
    h(
      'ul',
      { class: 'action-list' },
      actions.map((a) =>
        h(
          'li',
          { 'data-date': a.ex_date },
          h('span', { class: 'flag-date' }, a.ex_date),
          ` ${a.kind.replace(/_/g, ' ')}`,
          a.ratio !== null ? ` · ratio ${a.ratio}` : '',
          a.amount !== null ? ` · PKR ${fmtPrice(a.amount)}` : '',
          a.applied ? ' · applied in adjusted prices' : ' · not applied',
          a.note ? h('span', { class: 'quiet' }, ` (${a.note})`) : null,
        ),
      ),
    ),
  );
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
        : 'Marked ! on the chart; point at or tap one for its reasons. Prices as traded show corporate actions as jumps, flagged here.',
    ),
    rows.length === 0 ? null : h('ul', { class: 'flag-list' }, items),
  );
}

/** Today in Karachi, `YYYY-MM-DD`: the day whose circuit breaker applies. */
function karachiToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Karachi' }).format(Date.now());
}

function band(q: FullQuote): string {
  if (q.circuit_breaker_low != null && q.circuit_breaker_high != null) {
    return `${fmtPrice(q.circuit_breaker_low)} – ${fmtPrice(q.circuit_breaker_high)}`;
  }
  if (q.ldcp == null || q.ldcp <= 0) return '—';
  // The exchange's rule around the previous close (src/market/price-limit.ts).
  const b = priceLimitBand(q.ldcp, karachiToday());
  return `${fmtPrice(b.lower)} – ${fmtPrice(b.upper)}`;
}

function range52(q: FullQuote, rows: HistoricalRow[]): string {
  if (q.week52_low != null && q.week52_high != null)
    return `${fmtPrice(q.week52_low)} – ${fmtPrice(q.week52_high)}`;
  const last = rows[rows.length - 1];
  if (!last) return '—';
  const from = new Date(Date.parse(last.date) - 365 * 86_400_000).toISOString().slice(0, 10);
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    if (r.date < from || r.is_anomaly) continue;
    if (r.low !== null) lo = Math.min(lo, r.low);
    if (r.high !== null) hi = Math.max(hi, r.high);
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? `${fmtPrice(lo)} – ${fmtPrice(hi)}` : '—';
}

function quoteCard(q: FullQuote, sectorName: string | null, rows: HistoricalRow[]): HTMLElement {
  const dir = direction(q.change);
  const fact = (label: string, value: Node | string, wide = false): HTMLElement =>
    h('div', { class: wide ? 'wide' : null, 'data-fact': label }, h('dt', {}, label), h('dd', {}, value));
  const dayLow = q.day_range_low ?? q.low;
  const dayHigh = q.day_range_high ?? q.high;
  return h(
    'article',
    { class: 'quote-card' },
    h(
      'div',
      { class: 'quote-head' },
      h(
        'p',
        { class: 'quote-price' },
        h('span', { class: 'price', 'data-live': q.symbol, 'data-field': 'price' }, fmtPrice(q.price)),
        ' ',
        h('span', { class: 'unit' }, 'PKR'),
        ' ',
        h(
          'span',
          { class: `quote-change ${dir}` },
          h('span', { 'aria-hidden': 'true' }, `${arrow(q.change)} `),
          h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
          h('span', { 'data-live': q.symbol, 'data-field': 'change' }, fmtSigned(q.change)),
          ' (',
          h('span', { 'data-live': q.symbol, 'data-field': 'change_pct' }, fmtPct(q.change_pct)),
          ')',
        ),
      ),
      sectorName && q.sector_code
        ? h('a', { class: 'sector-chip', href: `#/sector/${encodeURIComponent(q.sector_code)}` }, sectorName)
        : null,
    ),
    h(
      'dl',
      { class: 'facts' },
      fact('Day range (PKR)', `${fmtPrice(dayLow)} – ${fmtPrice(dayHigh)}`),
      fact('Circuit breaker (PKR)', band(q)),
      fact('52-week range', range52(q, rows)),
      fact('Open (PKR)', fmtPrice(q.open)),
      fact('Previous close (PKR)', fmtPrice(q.ldcp)),
      fact(
        'Volume (shares)',
        h('span', { 'data-live': q.symbol, 'data-field': 'volume' }, fmtWhole(q.volume)),
      ),
      fact('Avg volume, 30 d', fmtCompact(q.volume_avg_30d)),
      fact('Market cap (PKR bn)', fmtBillions(q.market_cap)),
      fact('P/E', fmtRatio(q.pe_ratio)),
      fact('Dividend yield', fmtPct(q.dividend_yield, false)),
      fact('Free float (shares)', fmtCompact(q.free_float)),
      fact('1-year change', h('span', { class: direction(q.change_1y_pct) }, fmtPct(q.change_1y_pct))),
      q.bid_price != null || q.ask_price != null
        ? fact('Bid / ask (PKR)', `${fmtPrice(q.bid_price)} / ${fmtPrice(q.ask_price)}`)
        : null,
      fact('Listed in', q.listed_in ? q.listed_in.split(',').join(', ') : '—', true),
    ),
  );
}
