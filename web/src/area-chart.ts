// The market view's index chart: the day's level every 5 minutes (or the daily closes) as an area
// coloured against the previous close, the volume in a strip of its own below, price labels like
// the headline's, and trading breaks marked where trading resumed. Drawn on one canvas by the page
// itself: the charting library (~180 KB, and a first paint that blocks a phone's main thread for a
// few hundred milliseconds) is left to the symbol page, where it loads once its chart is scrolled to.
import { sessionBreaks, type Point } from './chart-data.ts';
import { COLORS } from './chart-theme.ts';
import { fmtCompact, fmtPrice } from './format.ts';

export interface AreaChart {
  destroy(): void;
}

export interface AreaChartOptions {
  /** Yesterday's close: the area is green above it and red below, like the change. */
  baseline?: number | null;
  /** Intraday points (time axis in hours) rather than daily closes. */
  intraday: boolean;
}

const FONT = '11px system-ui, sans-serif';
const TIME_AXIS = 22;
/** The volume strip's share of the drawing's height (none when no point has a volume). */
const VOLUME_SHARE = 0.22;
const PAD_TOP = 10;
const LABEL_GAP = 56;
/** About the width of a digit or separator in FONT. */
const DIGIT_WIDTH = 6.5;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function createAreaChart(host: HTMLElement, points: Point[], opts: AreaChartOptions): AreaChart {
  const canvas = document.createElement('canvas');
  canvas.style.display = 'block';
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  host.replaceChildren(canvas);
  let hover: number | null = null;
  let frame = 0;

  const draw = (): void => {
    frame = 0;
    const width = host.clientWidth;
    const height = host.clientHeight;
    if (width === 0 || height === 0) return;
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    paint(ctx, width, height, points, opts, hover);
  };
  const schedule = (): void => {
    frame ||= requestAnimationFrame(draw);
  };
  draw();

  const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(schedule);
  resize?.observe(host);
  const pointAt = (e: PointerEvent): number | null => {
    const box = canvas.getBoundingClientRect();
    const plot = plotWidth(box.width, points, opts);
    const i = Math.floor(((e.clientX - box.left) / plot) * points.length);
    return i >= 0 && i < points.length ? i : null;
  };
  const move = (e: PointerEvent): void => {
    const i = pointAt(e);
    if (i === hover) return;
    hover = i;
    schedule();
  };
  const leave = (): void => {
    hover = null;
    schedule();
  };
  canvas.addEventListener('pointermove', move);
  canvas.addEventListener('pointerdown', move);
  canvas.addEventListener('pointerleave', leave);
  return {
    destroy: () => {
      resize?.disconnect();
      if (frame) cancelAnimationFrame(frame);
      canvas.remove();
    },
  };
}

/** The plot's width: the canvas's less the price labels' column, as wide as the widest label. */
function plotWidth(width: number, points: Point[], opts: AreaChartOptions): number {
  let widest = Math.abs(opts.baseline ?? 0);
  for (const p of points) widest = Math.max(widest, Math.abs(p.value));
  return width - (Math.ceil(fmtPrice(widest).length * DIGIT_WIDTH) + 14);
}

function paint(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  points: Point[],
  opts: AreaChartOptions,
  hover: number | null,
): void {
  ctx.font = FONT;
  ctx.fillStyle = COLORS.panel;
  ctx.fillRect(0, 0, width, height);
  const n = points.length;
  const right = plotWidth(width, points, opts);
  const withVolume = points.some((p) => p.volume !== null && p.volume > 0);
  const bottom = height - TIME_AXIS;
  const volumeHeight = withVolume ? Math.round((bottom - PAD_TOP) * VOLUME_SHARE) : 0;
  const priceBottom = bottom - volumeHeight - (withVolume ? 6 : 0);
  const step = right / n;
  const xOf = (i: number): number => (i + 0.5) * step;

  // Price scale: every value and the previous close in view, with a little room above and below.
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    lo = Math.min(lo, p.value);
    hi = Math.max(hi, p.value);
  }
  if (opts.baseline != null) {
    lo = Math.min(lo, opts.baseline);
    hi = Math.max(hi, opts.baseline);
  }
  const pad = (hi - lo || Math.abs(hi) * 0.01 || 1) * 0.08;
  lo -= pad;
  hi += pad;
  const yOf = (v: number): number => PAD_TOP + ((hi - v) / (hi - lo)) * (priceBottom - PAD_TOP);

  // Grid and price labels.
  const tick = niceStep((hi - lo) / 4);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.lineWidth = 1;
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    const y = Math.round(yOf(v)) + 0.5;
    ctx.strokeStyle = COLORS.grid;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(right, y);
    ctx.stroke();
    ctx.fillStyle = COLORS.muted;
    ctx.fillText(fmtPrice(v), right + 7, y);
  }

  // The area and its line, coloured by where the last value stands against the previous close.
  const last = points[n - 1]!.value;
  const up = opts.baseline == null ? true : last >= opts.baseline;
  const colour = up ? COLORS.up : COLORS.down;
  const fill = ctx.createLinearGradient(0, PAD_TOP, 0, priceBottom);
  fill.addColorStop(0, up ? 'rgba(10,107,53,0.28)' : 'rgba(180,35,24,0.28)');
  fill.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(xOf(i), yOf(p.value)) : ctx.lineTo(xOf(i), yOf(p.value))));
  ctx.lineTo(xOf(n - 1), priceBottom);
  ctx.lineTo(xOf(0), priceBottom);
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(xOf(i), yOf(p.value)) : ctx.lineTo(xOf(i), yOf(p.value))));
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  ctx.stroke();
  ctx.lineWidth = 1;

  // The previous close: a dashed line, named, with its level on the scale.
  if (opts.baseline != null) {
    const y = Math.round(yOf(opts.baseline)) + 0.5;
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = COLORS.muted;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(right, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'bottom';
    ctx.fillStyle = COLORS.muted;
    ctx.fillText('prev close', right - 4, y - 2);
    scaleLabel(ctx, fmtPrice(opts.baseline), right, width, y, COLORS.muted);
  }
  scaleLabel(ctx, fmtPrice(last), right, width, yOf(last), colour);

  // Volume: bars on their own scale in the strip below, the largest written on the scale.
  if (withVolume) {
    let most = 0;
    for (const p of points) most = Math.max(most, p.volume ?? 0);
    const top = bottom - volumeHeight;
    ctx.fillStyle = 'rgba(82,96,109,0.45)';
    const bar = Math.max(1, step * 0.7);
    points.forEach((p, i) => {
      if (!p.volume) return;
      const h = (p.volume / most) * volumeHeight;
      ctx.fillRect(xOf(i) - bar / 2, bottom - h, bar, h);
    });
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillStyle = COLORS.muted;
    ctx.fillText(fmtCompact(most), right + 7, top);
  }

  // Time labels, spaced so they never overlap: on the hour (intraday) or the month (daily).
  ctx.textBaseline = 'top';
  ctx.textAlign = 'center';
  ctx.fillStyle = COLORS.muted;
  let lastAt = -Infinity;
  points.forEach((p, i) => {
    const label = timeLabel(p, i === 0 ? null : points[i - 1]!, opts.intraday);
    if (label === null || xOf(i) - lastAt < LABEL_GAP || xOf(i) < 18 || xOf(i) > right - 18) return;
    lastAt = xOf(i);
    ctx.fillText(label, xOf(i), bottom + 5);
  });

  // Breaks in trading (Friday's midday break, a halt): the axis places bars side by side, so where
  // trading resumed is marked with a dashed line and how long the break was.
  if (opts.intraday) {
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    for (const b of sessionBreaks(points)) {
      const x = Math.round(xOf(b.index) - step / 2) + 0.5;
      ctx.setLineDash([2, 3]);
      ctx.strokeStyle = COLORS.muted;
      ctx.beginPath();
      ctx.moveTo(x, PAD_TOP);
      ctx.lineTo(x, bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = COLORS.muted;
      ctx.fillText(b.text, Math.min(x + 3, right - ctx.measureText(b.text).width - 2), PAD_TOP);
    }
  }

  // Where the reader points: a line through that bar and its time and level.
  if (hover !== null) {
    const p = points[hover]!;
    const x = Math.round(xOf(hover)) + 0.5;
    ctx.strokeStyle = COLORS.text;
    ctx.beginPath();
    ctx.moveTo(x, PAD_TOP);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    const text = `${pointTime(p, opts.intraday)} · ${fmtPrice(p.value)}${p.volume ? ` · vol ${fmtCompact(p.volume)}` : ''}`;
    const w = ctx.measureText(text).width + 10;
    const left = Math.max(0, Math.min(x - w / 2, right - w));
    ctx.fillStyle = COLORS.text;
    ctx.fillRect(left, 0, w, 17);
    ctx.fillStyle = COLORS.panel;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, left + 5, 9);
  }
}

/** A value's label on the price scale, on a box of its colour. */
function scaleLabel(
  ctx: CanvasRenderingContext2D,
  text: string,
  right: number,
  width: number,
  y: number,
  colour: string,
): void {
  ctx.fillStyle = colour;
  ctx.fillRect(right + 2, y - 8, width - right - 2, 16);
  ctx.fillStyle = COLORS.panel;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, right + 7, y);
}

/** 1, 2, 2.5 or 5 times a power of ten: grid steps a reader can add up. */
function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * power;
}

/** Intraday times are shifted to read as Karachi time in UTC (chart-data.ts); dates are YYYY-MM-DD. */
function pointTime(p: Point, intraday: boolean): string {
  if (intraday && typeof p.time === 'number') {
    const d = new Date(p.time * 1000);
    return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  }
  const [y, m, d] = String(p.time).split('-');
  return `${Number(d)} ${MONTHS[Number(m) - 1] ?? ''} ${y}`;
}

/** The axis label where a new hour (intraday) or month (daily) starts; null elsewhere. */
function timeLabel(p: Point, prev: Point | null, intraday: boolean): string | null {
  if (intraday && typeof p.time === 'number') {
    const hour = Math.floor(p.time / 3600);
    if (prev !== null && Math.floor((prev.time as number) / 3600) === hour) return null;
    return pointTime(p, true);
  }
  const [y, m] = String(p.time).split('-');
  const [py, pm] = String(prev?.time ?? '').split('-');
  if (prev !== null && y === py && m === pm) return null;
  return m === '01' || prev === null ? `${MONTHS[Number(m) - 1] ?? ''} ${y}` : (MONTHS[Number(m) - 1] ?? '');
}
