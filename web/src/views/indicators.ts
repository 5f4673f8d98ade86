// The symbol page's indicator chart: a year of daily closes with SMA 20, EMA 50 and Bollinger
// bands (20, 2) to switch on and off, RSI 14 and MACD (12, 26, 9) in panes of their own. Hidden
// when the service has no indicators endpoint.
import { NotAvailable } from '../api.ts';
import { INDICATOR_COLORS } from '../chart-theme.ts';
import { stockIndicators } from '../data.ts';
import { h, replace, whenVisible } from '../dom.ts';
import { load } from '../load.ts';
import type { IndicatorChart, IndicatorRow, Overlay } from '../indicator-chart.ts';

const OVERLAYS: [Overlay, string, string][] = [
  ['sma', 'SMA 20', 'sma_20'],
  ['ema', 'EMA 50', 'ema_50'],
  ['bbands', 'Bollinger 20, 2σ', 'bb_upper_20_2'],
];

/** `start`: the first day shown (a year before the last day, from the caller). */
export function indicatorSection(symbol: string, start: string): { el: HTMLElement; destroy: () => void } {
  const box = h('div', { class: 'panel' });
  const el = h(
    'section',
    { 'aria-labelledby': 'indicators-heading' },
    h('h2', { id: 'indicators-heading' }, 'Indicators'),
    box,
  );
  let chart: IndicatorChart | undefined;
  let gone = false;
  const stopWatching = whenVisible(el, () => {
    void load(
      box,
      'indicators',
      async () => {
        try {
          return (await stockIndicators(symbol, start)).data as IndicatorRow[];
        } catch (err) {
          if (err instanceof NotAvailable) el.hidden = true;
          throw err;
        }
      },
      (rows) => {
        el.hidden = false;
        const canvas = h('div', {
          class: 'indicator-canvas',
          role: 'img',
          'aria-label': `${symbol} closes with indicators, RSI and MACD`,
        });
        const toggles = OVERLAYS.map(([id, label, column]) => {
          const input = h('input', {
            type: 'checkbox',
            checked: true,
            'data-overlay': id,
          }) as HTMLInputElement;
          input.addEventListener('change', () => chart?.show(id, input.checked));
          const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
          swatch.style.background = INDICATOR_COLORS[column] ?? '';
          return h('label', { class: 'overlay-toggle' }, input, ' ', swatch, label);
        });
        void import('../indicator-chart.ts').then(({ createIndicatorChart }) => {
          if (!gone) chart = createIndicatorChart(canvas, rows);
        });
        return h(
          'div',
          {},
          h('div', { class: 'overlay-toggles' }, toggles),
          canvas,
          h(
            'p',
            { class: 'chart-legend' },
            'Closes in black, the overlays in their toggles’ colours. Panes below: RSI 14 (dotted at 30 and 70), MACD 12, 26, 9 with its signal and histogram. Closes adjusted for corporate actions.',
          ),
        );
      },
      { missing: () => h('span') },
    );
  });
  return {
    el,
    destroy: () => {
      stopWatching();
      gone = true;
      chart?.destroy();
      replace(el);
    },
  };
}
