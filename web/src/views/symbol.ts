// One symbol: a header with its price (live when the service streams), the day's range, the
// circuit-breaker band and the 52-week range; its chart (today's intraday, and daily candles over
// 1M … All, raw or adjusted for corporate actions); flagged days; profile, announcements and
// financial reports. Everything comes from ONE request (GET /stocks/{symbol}/overview); a part the
// service could not fetch yet is marked with when it will be, and the page asks again then by
// itself. Only a longer range than a year or the adjusted prices cost a request of their own.
import type { HistoricalRow } from 'psx-market-data-client';
import { priceLimitBand } from '../../../src/market/price-limit.ts';
import { ServiceError } from '../api.ts';
import { noteAsOf } from '../asof.ts';
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
  history,
  sectorNames,
  stockOverview,
  type CorporateAction,
  type FullQuote,
  type IntradayBar,
  type Part,
  type StockOverview,
} from '../data.ts';
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
  fmtWhole,
  SPOKEN_DIRECTION,
} from '../format.ts';
import type { LineChart } from '../line-chart.ts';
import { onQuote, watch } from '../live.ts';
import { failureBox, load } from '../load.ts';
import { noteMarketState } from '../status.ts';
import { isSymbol, notASymbol } from '../symbols.ts';
import { companySections } from './company.ts';
import { indicatorSection } from './indicators.ts';
import { partNote, retryDelayMs } from './parts.ts';
import { performanceSection } from './performance.ts';

const DEFAULT_RANGE: RangeId = '1Y';
/** Ranges the overview's year of daily bars covers; longer ones load the whole history. */
const IN_OVERVIEW: ReadonlySet<string> = new Set(['1M', '6M', '1Y']);
/** A quote without the company page's facts is asked for again this soon (the service fetches it). */
const EXTRAS_AGAIN_MS = 2_500;
type Mode = 'raw' | 'adjusted';
type PartName = Exclude<keyof StockOverview, 'symbol' | 'market'>;

export function symbolView(main: HTMLElement, rawSymbol: string): (() => void) | void {
  if (!isSymbol(rawSymbol)) return notASymbol(main, rawSymbol);
  const symbol = rawSymbol.toUpperCase();
  const subtitle = h('p', { class: 'subtitle' });
  const banner = h('div', { class: 'view-banner' });
  const quotePanel = h('div', { class: 'panel quote-panel' });
  const historyPanel = h('div', { class: 'panel chart-panel' });
  const company = companySections();
  // Below the chart and asked for only once scrolled into view: a click through symbols costs
  // one overview each, not three requests.
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
    banner,
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

  let daily: PriceChart | undefined;
  let intraday: LineChart | undefined;
  let disposed = false;
  let mode: Mode = 'raw';
  let range: RangeId | '1D' = DEFAULT_RANGE;
  let actions: CorporateAction[] = [];
  let adjustable = false;
  let yearRows: HistoricalRow[] = [];
  let fullRows: HistoricalRow[] | undefined;
  let dayBars: IntradayBar[] = [];
  let lastQuote: FullQuote | undefined;
  let sectorName: string | null = null;
  let again: ReturnType<typeof setTimeout> | undefined;
  let extrasAsked = 0;
  let watched = false;
  /** Parts already on screen: a later answer does not redraw them (the chart keeps its place). */
  const shown = new Set<PartName>();

  // Streamed prices also go into the quote kept for redraws (the band's fallback, the 1D baseline).
  const stopQuotes = onQuote((q) => {
    if (q.symbol === symbol && lastQuote) lastQuote = { ...lastQuote, ...pickLive(q) };
  });

  const show = (ov: StockOverview, asOf: string | null, stale: boolean): void => {
    const q = ov.quote;
    if (q.data) {
      noteAsOf(q.data.as_of ?? asOf, stale);
      const fresh = q.data as FullQuote;
      const hadExtras = lastQuote?.extras_as_of != null;
      if (!shown.has('quote') || (!hadExtras && fresh.extras_as_of != null)) {
        lastQuote = lastQuote ? { ...fresh, ...pickLive(lastQuote) } : fresh;
        subtitle.textContent = fresh.name ?? '';
        replace(quotePanel, quoteCard(lastQuote, sectorName, yearRows));
        shown.add('quote');
        if (sectorName === null && fresh.sector_code) void nameSector(fresh.sector_code);
      }
    } else if (!shown.has('quote')) {
      replace(quotePanel, partNote(q, 'the quote'));
    }
    if (!shown.has('corporate_actions') && ov.corporate_actions.data) {
      actions = ov.corporate_actions.data as CorporateAction[];
      adjustable = true;
      shown.add('corporate_actions');
      if (shown.has('history')) shown.delete('history'); // redrawn with the actions marked
    }
    if (ov.intraday.data && !shown.has('intraday')) {
      dayBars = ov.intraday.data as IntradayBar[];
      shown.add('intraday');
      historyPanel
        .querySelector<HTMLElement>('[data-range="1D"]')
        ?.toggleAttribute('hidden', intradayPoints(dayBars).length < 2);
    }
    if (ov.history.data && !shown.has('history')) {
      yearRows = ov.history.data as HistoricalRow[];
      shown.add('history');
      drawRows(fullRows ?? yearRows);
      if (lastQuote && lastQuote.week52_low == null) {
        const card = quotePanel.querySelector('[data-fact="52-week range"] dd');
        if (card) card.textContent = range52(lastQuote, yearRows);
      }
    } else if (!ov.history.data && !shown.has('history')) {
      replace(historyPanel, partNote(ov.history, 'the price history'));
    }
    for (const name of ['profile', 'announcements', 'financials', 'reports'] as const) {
      if (shown.has(name)) continue;
      if (company.show(name, ov[name] as Part<never>)) shown.add(name);
    }
    scheduleAgain(ov);
  };

  const nameSector = async (code: string): Promise<void> => {
    const names = await sectorNames();
    sectorName = names.get(Number(code)) ?? null;
    if (!sectorName || !lastQuote || disposed) return;
    replace(quotePanel, quoteCard(lastQuote, sectorName, yearRows));
  };

  /** Asks for the overview again when a part said when it will be there (or the extras are due). */
  const scheduleAgain = (ov: StockOverview): void => {
    clearTimeout(again);
    let wait = retryDelayMs((Object.values(ov) as unknown[]).filter(isPart));
    const q = ov.quote.data as FullQuote | null;
    if (q && q.extras_as_of == null && ov.profile.data && extrasAsked < 2) {
      extrasAsked++;
      wait = Math.min(wait ?? Infinity, EXTRAS_AGAIN_MS);
    }
    if (wait === null || !Number.isFinite(wait)) return;
    again = setTimeout(() => void fetchOverview(true), wait);
  };

  const fetchOverview = async (fresh = false): Promise<void> => {
    try {
      const { data, asOf, stale } = await stockOverview(symbol, fresh);
      if (disposed) return;
      // Streamed once the service knows the symbol: an unknown one never enters the stream.
      if (!watched) watch([symbol]);
      watched = true;
      replace(banner);
      noteMarketState(data.market);
      show(data, asOf, stale);
    } catch (err) {
      if (disposed) return;
      failed(err);
    }
  };

  /** The whole request failed: one message for the page, never one per panel. */
  const failed = (err: unknown): void => {
    if (err instanceof ServiceError && err.status === 404) {
      for (const el of [quotePanel, historyPanel, company.el]) el.closest('section')?.remove();
      company.el.remove();
      performance.destroy();
      indicators.destroy();
      replace(
        banner,
        h(
          'div',
          { class: 'notice', role: 'status' },
          h('p', {}, `${symbol} is not a symbol the exchange lists.`),
          h('p', {}, 'Search by company name or symbol above, or go back to the market.'),
        ),
      );
      return;
    }
    const anyShown = shown.size > 0;
    replace(
      banner,
      failureBox(err, anyShown ? 'the rest of this page' : symbol, () => void fetchOverview(true)),
    );
    if (!anyShown) replace(quotePanel);
  };

  replace(quotePanel, h('p', { class: 'loading', role: 'status' }, `Loading ${symbol}…`));
  void fetchOverview();

  const drawRows = (rows: HistoricalRow[]): void => {
    const block = historyBlock(rows);
    replace(historyPanel, block.el);
    queueMicrotask(() => {
      if (!disposed) void block.mount();
    });
  };

  /** Rows for a range or mode the overview's year does not cover: one request, on demand. */
  const drawLoaded = (): Promise<unknown> =>
    load(
      historyPanel,
      mode === 'adjusted' ? 'the adjusted price history' : 'the whole price history',
      async () => {
        if (mode === 'adjusted') return (await adjustedHistory(symbol)).data;
        fullRows ??= (await history(symbol)).data;
        return fullRows;
      },
      (rows) => {
        const block = historyBlock(rows);
        queueMicrotask(() => {
          if (!disposed) void block.mount();
        });
        return block.el;
      },
    );

  function historyBlock(rows: HistoricalRow[]): { el: HTMLElement; mount: () => Promise<void> } {
    daily?.destroy();
    daily = undefined;
    intraday?.destroy();
    intraday = undefined;
    const onChart = chartableRows(rows);
    const indexOf = new Map(onChart.map((r, i) => [r.date, i]));
    const host = h('div', { class: 'chart', role: 'img' });
    const dayHost = h('div', { class: 'chart-canvas intraday-canvas', hidden: true, role: 'img' });
    const dayPoints = intradayPoints(dayBars);
    const oneDay = h(
      'button',
      {
        type: 'button',
        'aria-pressed': String(range === '1D'),
        'aria-label': 'Show today',
        'data-range': '1D',
        hidden: dayPoints.length < 2,
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
        if (id === '1D') return void showIntraday();
        // A longer range than the overview's year: the whole history, once.
        if (mode === 'raw' && !IN_OVERVIEW.has(id) && fullRows === undefined) return void drawLoaded();
        showDaily(id);
      }),
    );
    const showIntraday = async (): Promise<void> => {
      host.hidden = true;
      dayHost.hidden = false;
      const points = intradayPoints(dayBars);
      if (!intraday && points.length > 1) {
        const prev = lastQuote?.ldcp ?? null;
        dayHost.setAttribute('aria-label', `${symbol} today, every 5 minutes, against the previous close`);
        const { createLineChart } = await import('../line-chart.ts');
        if (disposed || intraday) return;
        intraday = createLineChart(dayHost, points, { baseline: prev, intraday: true });
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
                  if (m === 'raw' && fullRows === undefined) drawRows(yearRows);
                  else void drawLoaded();
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
    clearTimeout(again);
    stopQuotes();
    daily?.destroy();
    intraday?.destroy();
    company.destroy();
    performance.destroy();
    indicators.destroy();
  };
}

const isPart = (v: unknown): v is Part<unknown> =>
  typeof v === 'object' && v !== null && 'error' in v && 'as_of' in v;

/** What the stream changes in a quote. */
function pickLive(q: FullQuote): Partial<FullQuote> {
  const out: Partial<FullQuote> = {};
  for (const k of ['price', 'change', 'change_pct', 'volume', 'high', 'low', 'as_of'] as const) {
    if (q[k] !== undefined) (out as Record<string, unknown>)[k] = q[k];
  }
  return out;
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
          ` ${actionWords(a)}`,
          a.amount !== null ? ` · PKR ${fmtPrice(a.amount)}` : '',
          a.applied ? ' · applied in adjusted prices' : ' · not applied',
          a.note ? h('span', { class: 'quiet' }, ` (${a.note})`) : null,
        ),
      ),
    ),
  );
}

/** A corporate action in a reader's words, its ratio said as what it does to the prices. */
function actionWords(a: CorporateAction): string {
  if (a.kind === 'cash_dividend') return 'cash dividend';
  if (a.kind === 'other') return 'payout (its details could not be read)';
  const what = 'change in share capital (bonus, rights or split)';
  // The ratio is what the adjusted series divides earlier prices by (1.1 for a 10 % bonus).
  return a.ratio === null ? what : `${what}; adjusted prices before it are divided by ${fmtRatio(a.ratio)}`;
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
        r.anomaly_reasons.map((code) => h('li', { 'data-reason': code }, reasonText(code))),
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
          h(
            'span',
            {
              'aria-hidden': 'true',
              'data-live': q.symbol,
              'data-field': 'change',
              'data-format': 'arrow',
              'data-plain': '',
            },
            `${arrow(q.change)} `,
          ),
          h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
          h('span', { 'data-live': q.symbol, 'data-field': 'change', 'data-plain': '' }, fmtSigned(q.change)),
          ' (',
          h(
            'span',
            { 'data-live': q.symbol, 'data-field': 'change_pct', 'data-plain': '' },
            fmtPct(q.change_pct),
          ),
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
