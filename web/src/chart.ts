// The price chart: daily candles with volume in a pane of its own below, on its own scale
// (TradingView's lightweight-charts); flagged days marked above their candle and corporate actions
// below it, at every range; a tooltip with the flag's reasons when one is hovered or tapped.
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type Logical,
  type MouseEventParams,
  type SeriesMarker,
  type Time,
  type WhitespaceData,
} from 'lightweight-charts';
import type { HistoricalRow } from 'psx-market-data-client';
import { monthsBefore, RANGES, reasonText, type RangeId } from './chart-data.ts';
import { COLORS, VOLUME_PANE_HEIGHT } from './chart-theme.ts';
import type { CorporateAction } from './data.ts';
import { h, replace } from './dom.ts';
import { fmtCompact, fmtPrice, fmtWhole } from './format.ts';

export interface PriceChart {
  setRange(range: RangeId): void;
  /** Centres the chart on row `index` and shows its details, as hovering it would. */
  showDay(index: number): void;
  destroy(): void;
}

const hasCandle = (r: HistoricalRow): boolean =>
  r.open !== null && r.high !== null && r.low !== null && r.close !== null;

export function createPriceChart(
  host: HTMLElement,
  rows: HistoricalRow[],
  actions: CorporateAction[] = [],
): PriceChart {
  const canvasHost = h('div', { class: 'chart-canvas' });
  const legend = h('p', { class: 'chart-legend', 'aria-hidden': 'true' });
  const tooltip = h('div', { class: 'chart-tooltip', role: 'tooltip', id: 'chart-tooltip', hidden: true });
  replace(host, canvasHost, legend, tooltip);

  const chart: IChartApi = createChart(canvasHost, {
    autoSize: true,
    layout: {
      background: { color: COLORS.panel },
      textColor: COLORS.text,
      fontFamily: 'system-ui, sans-serif',
      attributionLogo: false,
      panes: { separatorColor: COLORS.grid },
    },
    grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
    rightPriceScale: { scaleMargins: { top: 0.08, bottom: 0.04 }, borderVisible: false },
    timeScale: { borderVisible: false },
  });
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: COLORS.up,
    downColor: COLORS.down,
    wickUpColor: COLORS.up,
    wickDownColor: COLORS.down,
    borderVisible: false,
    // Axis labels written like the headline's price (thousands separators, two decimals); the
    // volume pane keeps its own (whole shares), which a chart-wide price formatter would override.
    priceFormat: { type: 'custom', formatter: (p: number) => fmtPrice(p), minMove: 0.01 },
  });
  // Pane 1: volume with its own labelled scale, so a bar's height can be read in shares.
  const volume = chart.addSeries(
    HistogramSeries,
    {
      priceFormat: { type: 'custom', formatter: (v: number) => fmtCompact(v), minMove: 1 },
      lastValueVisible: false,
      priceLineVisible: false,
    },
    1,
  );
  // A phone's chart is short: the price pane keeps most of it.
  chart.panes()[1]?.setHeight(host.clientWidth < 500 ? VOLUME_PANE_HEIGHT - 14 : VOLUME_PANE_HEIGHT + 20);

  candles.setData(rows.map(toCandle));
  volume.setData(rows.map(toVolume));
  // Markers keep a fixed size whatever the range, so a flag from 2019 is still seen at "All".
  const dates = new Set(rows.map((r) => r.date));
  const markers: SeriesMarker<Time>[] = [
    ...rows
      .filter((r) => r.is_anomaly && hasCandle(r))
      .map((r): SeriesMarker<Time> => ({
        time: r.date,
        position: 'aboveBar',
        color: COLORS.flag,
        shape: 'arrowDown',
        text: '!',
        size: 1.4,
      })),
    ...actions
      .filter((a) => dates.has(a.ex_date))
      .map((a): SeriesMarker<Time> => ({
        time: a.ex_date,
        position: 'belowBar',
        color: COLORS.action,
        shape: 'arrowUp',
        text: actionLabel(a),
        size: 1.4,
      })),
  ].sort((a, b) => String(a.time).localeCompare(String(b.time)));
  createSeriesMarkers(candles, markers);

  const showLegend = (row: HistoricalRow | undefined): void => {
    legend.textContent = row
      ? `${row.date}  O ${fmtPrice(row.open)}  H ${fmtPrice(row.high)}  L ${fmtPrice(row.low)}  C ${fmtPrice(row.close)}  V ${fmtWhole(row.volume)}`
      : '';
  };
  const showTooltip = (row: HistoricalRow | undefined, x: number, y: number): void => {
    if (!row?.is_anomaly) {
      tooltip.hidden = true;
      return;
    }
    replace(
      tooltip,
      h('strong', {}, `${row.date}: flagged`),
      h(
        'ul',
        {},
        row.anomaly_reasons.map((code) => h('li', {}, h('code', {}, code), ` ${reasonText(code)}`)),
      ),
    );
    tooltip.hidden = false;
    // Beside the candle, kept inside the chart so it never hangs off a phone's screen.
    const width = canvasHost.clientWidth;
    const left = Math.max(4, Math.min(x + 12, width - tooltip.offsetWidth - 4));
    const top = Math.max(4, Math.min(y + 12, canvasHost.clientHeight - tooltip.offsetHeight - 4));
    tooltip.style.left = `${left}px`;
    tooltip.style.top = `${top}px`;
  };

  const onMove = (param: MouseEventParams<Time>): void => {
    // Only the pointer moves the tooltip; showDay's own setCrosshairPosition must not undo it.
    if (!param.sourceEvent) return;
    const index = param.logical === undefined ? -1 : Math.round(param.logical);
    const row = param.point && index >= 0 ? rows[index] : undefined;
    showLegend(row ?? rows[rows.length - 1]);
    showTooltip(row, param.point?.x ?? 0, param.point?.y ?? 0);
  };
  chart.subscribeCrosshairMove(onMove);
  canvasHost.addEventListener('mouseleave', () => {
    tooltip.hidden = true;
    showLegend(rows[rows.length - 1]);
  });
  showLegend(rows[rows.length - 1]);

  const hideOnEscape = (e: KeyboardEvent): void => {
    if (e.key === 'Escape') tooltip.hidden = true;
  };
  document.addEventListener('keydown', hideOnEscape);

  return {
    setRange(range) {
      const months = RANGES.find((r) => r.id === range)?.months ?? null;
      const last = rows[rows.length - 1];
      const first = rows[0];
      if (months === null || !last || !first) {
        chart.timeScale().fitContent();
        return;
      }
      const from = monthsBefore(last.date, months);
      if (from <= first.date) chart.timeScale().fitContent();
      else chart.timeScale().setVisibleRange({ from, to: last.date });
    },
    showDay(index) {
      const row = rows[index];
      if (!row) return;
      chart.timeScale().setVisibleLogicalRange({ from: index - 30, to: index + 30 });
      // Coordinates are known once the chart has laid out the new range.
      requestAnimationFrame(() => {
        const price = row.high ?? row.close;
        if (price !== null) chart.setCrosshairPosition(price, row.date, candles);
        const x = chart.timeScale().logicalToCoordinate(index as Logical) ?? 0;
        const y = price === null ? 0 : (candles.priceToCoordinate(price) ?? 0);
        showLegend(row);
        showTooltip(row, x, y);
      });
    },
    destroy() {
      document.removeEventListener('keydown', hideOnEscape);
      chart.unsubscribeCrosshairMove(onMove);
      chart.remove();
    },
  };
}

function toCandle(r: HistoricalRow): CandlestickData<Time> | WhitespaceData<Time> {
  if (r.open === null || r.high === null || r.low === null || r.close === null) return { time: r.date };
  return { time: r.date, open: r.open, high: r.high, low: r.low, close: r.close };
}

function toVolume(r: HistoricalRow): HistogramData<Time> | WhitespaceData<Time> {
  if (r.volume === null) return { time: r.date };
  const up = r.close !== null && r.open !== null && r.close >= r.open;
  return { time: r.date, value: r.volume, color: up ? 'rgba(10,107,53,0.45)' : 'rgba(180,35,24,0.45)' };
}

/** A short marker text: `B 10%` for a bonus, `D 5.5` for a cash dividend of Rs 5.50. */
export function actionLabel(a: CorporateAction): string {
  if (a.kind === 'cash_dividend') return a.amount === null ? 'D' : `D ${fmtPrice(a.amount)}`;
  if (a.ratio !== null)
    return `${a.kind === 'capital_change' ? 'CA' : a.kind.charAt(0).toUpperCase()} ×${a.ratio}`;
  return 'CA';
}
