// Daily closes with SMA, EMA and Bollinger-band overlays, and RSI and MACD each in a pane of its
// own (rows from /stocks/{symbol}/indicators; null warm-up rows are gaps, never drawn values).
import {
  createChart,
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type Time,
} from 'lightweight-charts';
import { COLORS, INDICATOR_COLORS } from './chart-theme.ts';

export type IndicatorRow = { date: string; close: number } & Record<string, number | string | null>;
export type Overlay = 'sma' | 'ema' | 'bbands';

const OVERLAY_COLUMNS: Record<Overlay, string[]> = {
  sma: ['sma_20'],
  ema: ['ema_50'],
  bbands: ['bb_upper_20_2', 'bb_middle_20_2', 'bb_lower_20_2'],
};
/** Each indicator pane's share of the drawing against the closes' (set as stretch factors, not
 * pixels: the panes keep their shares whatever size the chart takes once laid out). */
const PANE_SHARE = 0.22;
/** Names on the lower panes' axes; the overlays are named by their toggles' swatches instead, as
 * their labels on the closes' axis would sit on each other wherever the lines run close. */
const LINE_TITLES: Record<string, string> = {
  rsi_14: 'RSI 14',
  macd_12_26_9: 'MACD',
  macd_signal_12_26_9: 'Signal',
};

export interface IndicatorChart {
  show(overlay: Overlay, visible: boolean): void;
  destroy(): void;
}

function points(rows: IndicatorRow[], column: string): { time: Time; value?: number }[] {
  return rows.map((r) => {
    const v = r[column];
    return typeof v === 'number' ? { time: r.date as Time, value: v } : { time: r.date as Time };
  });
}

export function createIndicatorChart(host: HTMLElement, rows: IndicatorRow[]): IndicatorChart {
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
    timeScale: { borderVisible: false },
    handleScroll: false,
    handleScale: false,
  });
  const line = (column: string, pane: number, width: 1 | 2 = 1): ISeriesApi<'Line'> => {
    const s = chart.addSeries(
      LineSeries,
      {
        color: INDICATOR_COLORS[column] ?? COLORS.text,
        lineWidth: width,
        priceLineVisible: false,
        lastValueVisible: false,
        title: LINE_TITLES[column] ?? '',
      },
      pane,
    );
    s.setData(points(rows, column));
    return s;
  };
  line('close', 0, 2).applyOptions({ color: COLORS.text });
  const overlays = new Map<Overlay, ISeriesApi<'Line'>[]>();
  for (const [name, columns] of Object.entries(OVERLAY_COLUMNS) as [Overlay, string[]][]) {
    overlays.set(
      name,
      columns.map((c) => line(c, 0)),
    );
  }
  const rsi = line('rsi_14', 1);
  for (const level of [30, 70])
    rsi.createPriceLine({
      price: level,
      color: COLORS.muted,
      lineStyle: 2,
      lineWidth: 1,
      // Not labelled on the axis (over its own ticks): the legend says 30 and 70 are marked.
      axisLabelVisible: false,
      title: '',
    });
  const hist = chart.addSeries(
    HistogramSeries,
    { priceLineVisible: false, lastValueVisible: false, color: 'rgba(82,96,109,0.45)' },
    2,
  );
  hist.setData(
    rows.map((r) => {
      const v = r.macd_hist_12_26_9;
      return typeof v === 'number'
        ? { time: r.date as Time, value: v, color: v >= 0 ? 'rgba(10,107,53,0.5)' : 'rgba(180,35,24,0.5)' }
        : { time: r.date as Time };
    }),
  );
  line('macd_12_26_9', 2);
  line('macd_signal_12_26_9', 2);
  const [closes, rsiPane, macdPane] = chart.panes();
  closes?.setStretchFactor(1 - 2 * PANE_SHARE);
  rsiPane?.setStretchFactor(PANE_SHARE);
  macdPane?.setStretchFactor(PANE_SHARE);
  chart.timeScale().fitContent();
  return {
    show: (overlay, visible) => overlays.get(overlay)?.forEach((s) => s.applyOptions({ visible })),
    destroy: () => chart.remove(),
  };
}
