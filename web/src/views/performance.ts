// The symbol page's performance table: returns over each period against the benchmark, then
// volatility, drawdowns, beta and the 52-week range (/stocks/{symbol}/performance, adjusted
// closes). Hidden when the service has no such endpoint.
import { NotAvailable } from '../api.ts';
import { stockPerformance, type Performance } from '../data.ts';
import { h, replace, whenVisible } from '../dom.ts';
import { DASH, fmtPct, fmtPrice } from '../format.ts';
import { load } from '../load.ts';

export function performanceSection(symbol: string): { el: HTMLElement; destroy: () => void } {
  const box = h('div', { class: 'panel' });
  const el = h(
    'section',
    { 'aria-labelledby': 'performance-heading' },
    h('h2', { id: 'performance-heading' }, 'Performance'),
    box,
  );
  const stopWatching = whenVisible(el, () => {
    void load(
      box,
      'performance',
      async () => {
        try {
          return (await stockPerformance(symbol)).data;
        } catch (err) {
          if (err instanceof NotAvailable) el.hidden = true;
          throw err;
        }
      },
      (p) => {
        el.hidden = false;
        return performanceTable(p);
      },
      { missing: () => h('span') },
    );
  });
  return {
    el,
    destroy: () => {
      stopWatching();
      replace(el);
    },
  };
}

const pctOrWhy = (v: number | null | undefined, why?: string | null): Node =>
  v == null ? h('span', { title: why ?? '' }, DASH) : document.createTextNode(fmtPct(v));

function performanceTable(p: Performance): HTMLElement {
  const bench = p.benchmark ?? 'Index';
  const dd = (d: Performance['max_drawdown_1y']): string =>
    d.value_pct == null
      ? DASH
      : `${fmtPct(d.value_pct)}${d.peak_date ? ` (${d.peak_date} → ${d.trough_date}${d.recovery_date ? `, back ${d.recovery_date}` : ''})` : ''}`;
  const risk: [string, string][] = [
    [
      'Volatility (1Y, annualised)',
      p.volatility_1y.value_pct == null ? DASH : fmtPct(p.volatility_1y.value_pct, false),
    ],
    ['Max drawdown (1Y)', dd(p.max_drawdown_1y)],
    ['Max drawdown (all)', dd(p.max_drawdown_all)],
  ];
  if (p.beta_1y) {
    const b = p.beta_1y;
    risk.push([
      `Beta / correlation vs ${bench} (1Y)`,
      b.beta == null ? DASH : `${b.beta.toFixed(2)} / ${b.correlation?.toFixed(2) ?? DASH}`,
    ]);
  }
  if (p.range_52w) {
    const r = p.range_52w;
    risk.push(['52-week range', `${fmtPrice(r.low)} (${r.low_date}) – ${fmtPrice(r.high)} (${r.high_date})`]);
  }
  return h(
    'div',
    { class: 'performance' },
    h(
      'div',
      { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Returns' },
      h(
        'table',
        { class: 'data compact' },
        h('caption', { class: 'sr-only' }, `Returns on ${p.adjusted ? 'adjusted' : 'traded'} closes`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Period'),
            h('th', { scope: 'col', class: 'num' }, 'Return'),
            p.benchmark
              ? [
                  h('th', { scope: 'col', class: 'num' }, bench),
                  h('th', { scope: 'col', class: 'num' }, 'Excess'),
                ]
              : [],
          ),
        ),
        h(
          'tbody',
          {},
          p.returns.map((r) =>
            h(
              'tr',
              {},
              h(
                'th',
                { scope: 'row', title: r.start_date ? `from ${r.start_date}` : (r.reason ?? '') },
                r.period,
              ),
              h('td', { class: 'num' }, pctOrWhy(r.return_pct, r.reason)),
              p.benchmark
                ? [
                    h('td', { class: 'num' }, pctOrWhy(r.benchmark_return_pct)),
                    h('td', { class: 'num' }, pctOrWhy(r.excess_return_pct)),
                  ]
                : [],
            ),
          ),
        ),
      ),
    ),
    h(
      'dl',
      { class: 'risk' },
      risk.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
    ),
  );
}
