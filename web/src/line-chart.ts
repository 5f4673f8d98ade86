// A compact area chart for an index or a symbol's day (intraday bars) or its daily closes, with
// volume in a pane of its own below, on its own scale.
import {
  AreaSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  type IChartApi,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
import { sessionBreaks, type Point } from './chart-data.ts';
import { fmtCompact, fmtPrice } from './format.ts';
import { COLORS, VOLUME_PANE_HEIGHT } from './chart-theme.ts';

export interface LineChart {
  destroy(): void;
}

/** `baseline`: yesterday's close; the line is green above it and red below, like the change. */
export function createLineChart(
  host: HTMLElement,
  points: Point[],
  opts: { baseline?: number | null; intraday: boolean; volume?: boolean },
): LineChart {
  const last = points[points.length - 1]?.value ?? 0;
  const up = opts.baseline == null ? true : last >= opts.baseline;
  const color = up ? COLORS.up : COLORS.down;
  const chart: IChartApi = createChart(host, {
    autoSize: true,
    layout: {
      background: { color: COLORS.panel },
      textColor: COLORS.text,
      fontFamily: 'system-ui, sans-serif',
      attributionLogo: false,
      panes: { separatorColor: COLORS.grid },
    },
    grid: { vertLines: { visible: false }, horzLines: { color: COLORS.grid } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: opts.intraday, secondsVisible: false },
    handleScroll: false,
    handleScale: false,
    // Axis labels written like the headline's numbers (thousands separators, two decimals).
    localization: { priceFormatter: (p: number) => fmtPrice(p) },
  });
  const area = chart.addSeries(AreaSeries, {
    lineColor: color,
    topColor: up ? 'rgba(10,107,53,0.28)' : 'rgba(180,35,24,0.28)',
    bottomColor: 'rgba(255,255,255,0)',
    lineWidth: 2,
    priceLineVisible: false,
    priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
  });
  area.setData(points.map((p) => ({ time: p.time, value: p.value })));
  if (opts.intraday) {
    const gaps = sessionGaps(points);
    if (gaps.length > 0) createSeriesMarkers(area, gaps);
  }
  if (opts.baseline != null) {
    area.createPriceLine({
      price: opts.baseline,
      color: COLORS.muted,
      lineStyle: 2,
      lineWidth: 1,
      axisLabelVisible: true,
      title: 'prev close',
    });
  }
  if (opts.volume !== false && points.some((p) => p.volume !== null)) {
    const volume = chart.addSeries(
      HistogramSeries,
      {
        priceFormat: { type: 'custom', formatter: (v: number) => fmtCompact(v), minMove: 1 },
        color: 'rgba(82,96,109,0.45)',
        priceLineVisible: false,
        lastValueVisible: false,
      },
      1,
    );
    volume.setData(
      points.map((p) => (p.volume === null ? { time: p.time } : { time: p.time, value: p.volume })),
    );
    chart.panes()[1]?.setHeight(VOLUME_PANE_HEIGHT);
  }
  chart.timeScale().fitContent();
  return { destroy: () => chart.remove() };
}

/**
 * The time axis has no room for hours without trades (it places bars side by side), so where
 * trading resumed after a pause, a marker says so: Friday's midday break, a halt.
 */
export function sessionGaps(points: Point[]): SeriesMarker<Time>[] {
  return sessionBreaks(points).map((b) => ({
    time: points[b.index]!.time,
    position: 'belowBar',
    shape: 'square',
    color: COLORS.muted,
    text: b.text,
  }));
}
