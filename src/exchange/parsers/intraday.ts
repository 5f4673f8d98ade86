// `GET /timeseries/int/{SYM}` (also index codes): JSON `{status, message, data}`
// with today's trades as `[epoch, price, volume]`, newest first. Epochs are true epochs (§5
// corrects §3). `status: 0` with a message is the portal's answer for a symbol it does not know.
import { UpstreamDataError } from '../../errors.ts';
import type { IntradaySeries, IntradayTick } from '../types.ts';

export function parseIntraday(jsonText: string): IntradaySeries {
  const body = timeseriesBody(jsonText, 'intraday');
  if (body.status === 0) return { known: false, ticks: [] };
  const ticks: IntradayTick[] = [];
  for (const item of body.data) {
    if (!Array.isArray(item) || item.length < 3) continue;
    const [epoch, price, volume] = item as unknown[];
    if (!isNum(epoch) || !isNum(price) || !isNum(volume) || epoch <= 0 || price < 0 || volume < 0) continue;
    ticks.push({ epoch, price, volume });
  }
  if (ticks.length === 0 && body.data.length > 0) {
    throw new UpstreamDataError('intraday', 'no row has the [epoch, price, volume] shape');
  }
  // Oldest first; a stable sort keeps trades printed in the same second in the portal's order
  // (reversed, since the portal lists them newest first).
  ticks.reverse();
  ticks.sort((a, b) => a.epoch - b.epoch);
  return { known: true, ticks };
}

export interface TimeseriesBody {
  status: number;
  data: unknown[];
}

/** The `{status, message, data}` wrapper the portal's /timeseries routes share; throws on anything else. */
export function timeseriesBody(jsonText: string, page: 'intraday' | 'index-series'): TimeseriesBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    throw new UpstreamDataError(page, 'malformed JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UpstreamDataError(page, 'not a JSON object');
  }
  const o = parsed as Record<string, unknown>;
  const status = typeof o.status === 'number' ? o.status : Number(o.status);
  if (status !== 0 && status !== 1)
    throw new UpstreamDataError(page, `unexpected status ${String(o.status)}`);
  if (status === 1 && !Array.isArray(o.data)) throw new UpstreamDataError(page, 'no data array');
  return { status, data: Array.isArray(o.data) ? (o.data as unknown[]) : [] };
}

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
