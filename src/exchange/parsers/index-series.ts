// `GET /timeseries/eod/{INDEX}` for an index code: `[epoch, close, volume, open]`
// newest first, about five years, no high or low. Epochs are true instants: recent rows sit at
// 16:00 Karachi, old ones not, so the date is the Karachi calendar day of the instant. An unknown
// code answers `status: 1` with empty data.
import { UpstreamDataError } from '../../errors.ts';
import type { IndexSeriesRow } from '../types.ts';
import { karachiDateFromEpoch } from './dates.ts';
import { timeseriesBody } from './intraday.ts';

/** Daily index levels, oldest first, one row per Karachi date (the later instant wins). */
export function parseIndexSeries(jsonText: string): IndexSeriesRow[] {
  const body = timeseriesBody(jsonText, 'index-series');
  const byDate = new Map<string, { epoch: number; row: IndexSeriesRow }>();
  for (const item of body.data) {
    if (!Array.isArray(item) || item.length < 3) continue;
    const [epoch, close, volume, open] = item as unknown[];
    if (!isNum(epoch) || !isNum(close)) continue;
    const date = karachiDateFromEpoch(epoch);
    if (date === null) continue;
    const held = byDate.get(date);
    if (held && held.epoch >= epoch) continue;
    byDate.set(date, {
      epoch,
      row: { date, open: isNum(open) ? open : null, close, volume: isNum(volume) ? volume : null },
    });
  }
  if (byDate.size === 0 && body.data.length > 0) {
    throw new UpstreamDataError('index-series', 'no row has the [epoch, close, volume, open] shape');
  }
  return [...byDate.values()]
    .map((v) => v.row)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
