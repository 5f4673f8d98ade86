// What the charts show, worked out without the charting library, so views can prepare their
// data (and say what a chart will hold) before lightweight-charts is loaded on demand.
import type { HistoricalRow } from 'psx-market-data-client';
import { ANOMALY_REASONS } from '../../src/market/anomalies.ts';
import type { Time, UTCTimestamp } from 'lightweight-charts';
import type { IndexDay, IntradayBar } from './data.ts';

export type RangeId = '1M' | '6M' | '1Y' | '5Y' | 'ALL';
export const RANGES: { id: RangeId; label: string; months: number | null; spoken: string }[] = [
  { id: '1M', label: '1M', months: 1, spoken: 'one month' },
  { id: '6M', label: '6M', months: 6, spoken: 'six months' },
  { id: '1Y', label: '1Y', months: 12, spoken: 'one year' },
  { id: '5Y', label: '5Y', months: 60, spoken: 'five years' },
  { id: 'ALL', label: 'All', months: null, spoken: 'the whole history' },
];

const REASON_TEXT = new Map(ANOMALY_REASONS.map((r) => [r.code as string, r.description]));

/** Where the API's description speaks to a developer (a query parameter), the reader's words. */
const READER_TEXT = new Map([
  [
    'corporate_action',
    'The ex-date of a capital change (bonus, rights, split) that the portal’s adjusted prices record and the traded prices confirm: the gap is the action, not a data problem.',
  ],
]);

export function reasonText(code: string): string {
  return READER_TEXT.get(code) ?? REASON_TEXT.get(code) ?? code;
}

/**
 * Rows that can sit on a time axis: a real YYYY-MM-DD date, strictly after the previous one.
 * (Rows flagged invalid_date or duplicate_date cannot be placed; the flagged-days list keeps them.)
 */
export function chartableRows(rows: HistoricalRow[]): HistoricalRow[] {
  const out: HistoricalRow[] = [];
  for (const row of rows) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.date) || Number.isNaN(Date.parse(row.date))) continue;
    const prev = out[out.length - 1];
    if (!prev || row.date > prev.date) out.push(row);
  }
  return out;
}

// lightweight-charts labels its time axis in UTC; shifting by Karachi's fixed offset makes the
// axis read in exchange time (PKT), which is how every other time on the page is written.
const KARACHI_SHIFT_SEC = 5 * 3600;

export interface Point {
  time: Time;
  value: number;
  volume: number | null;
}

export function intradayPoints(bars: IntradayBar[]): Point[] {
  const out: Point[] = [];
  for (const b of bars) {
    const t = Date.parse(b.time);
    if (b.close === null || Number.isNaN(t)) continue;
    const time = (Math.floor(t / 1000) + KARACHI_SHIFT_SEC) as UTCTimestamp;
    if (out.length > 0 && (out[out.length - 1]!.time as number) >= time) continue;
    out.push({ time, value: b.close, volume: b.volume });
  }
  return out;
}

export function dailyPoints(days: IndexDay[]): Point[] {
  return days
    .filter((d) => d.close !== null && /^\d{4}-\d{2}-\d{2}$/.test(d.date))
    .map((d) => ({ time: d.date as Time, value: d.close as number, volume: d.volume }));
}

/** `YYYY-MM-DD` n months earlier, clamped to the month's last day (31 Mar − 1 month = 28/29 Feb). */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
}

/** A pause in trading this long (Friday's break, a halt) is marked where trading resumes. */
const BREAK_SECONDS = 20 * 60;

/** Where trading resumed after a pause (intraday points), and the pause in words. */
export function sessionBreaks(points: Point[]): { index: number; text: string }[] {
  const out: { index: number; text: string }[] = [];
  for (let i = 1; i < points.length; i++) {
    const gap = (points[i]!.time as number) - (points[i - 1]!.time as number);
    if (gap < BREAK_SECONDS) continue;
    const minutes = Math.round(gap / 60);
    out.push({
      index: i,
      text: `resumed after ${minutes >= 90 ? `${Math.round(minutes / 6) / 10} h` : `${minutes} min`} break`,
    });
  }
  return out;
}
