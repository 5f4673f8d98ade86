// `GET /timeseries/eod/{SYM}`: JSON `{"status":1,"message":"","data":[[epoch, close, volume, open], …]}`,
// newest first, about five years of daily rows, no high or low. The prices
// are adjusted for capital changes (the company page: "adjusted to reflect stock splits"). The
// epochs are true instants: recent rows sit at 16:00 Karachi, older ones at other times of day, so
// the date is the Karachi calendar day of the instant, never the UTC one. An unknown symbol
// answers `status: 1` with `data: []`.
import { UpstreamDataError } from '../../errors.ts';
import type { EodRow } from '../types.ts';
import { denoise } from './cells.ts';
import { requirePageText } from './columns.ts';
import { karachiDateFromEpoch } from './dates.ts';

/** Epoch seconds the portal could mean: 1973 … 2286. Milliseconds or day numbers are not. */
const MIN_EPOCH = 1e8;
const MAX_EPOCH = 1e10;

function fail(reason: string): never {
  throw new UpstreamDataError('eod', reason);
}

function optionalNumber(value: unknown, what: string, index: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`row ${index}: ${what} is not a number`);
  return value;
}

/** Rows in the portal's order (newest first); a repeated date keeps its first (newest) row. */
export function parseEod(jsonText: string): EodRow[] {
  const text = requirePageText('eod', jsonText);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail('malformed JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('not a JSON object');
  const body = parsed as Record<string, unknown>;
  if (body.status !== 1 && body.status !== '1') {
    const message = typeof body.message === 'string' && body.message !== '' ? `: ${body.message}` : '';
    fail(`status ${JSON.stringify(body.status)}${message}`);
  }
  if (!Array.isArray(body.data)) fail('no data array');
  const rows: EodRow[] = [];
  const seen = new Set<string>();
  (body.data as unknown[]).forEach((item, i) => {
    if (!Array.isArray(item) || item.length < 2) fail(`row ${i} is not [epoch, close, volume, open]`);
    const epoch = item[0] as unknown;
    const close = item[1] as unknown;
    if (typeof epoch !== 'number' || !(epoch >= MIN_EPOCH && epoch < MAX_EPOCH)) {
      fail(`row ${i}: ${JSON.stringify(epoch)} is not an epoch in seconds`);
    }
    if (typeof close !== 'number' || !Number.isFinite(close)) fail(`row ${i}: close is not a number`);
    const date = karachiDateFromEpoch(epoch) as string;
    if (seen.has(date)) return;
    seen.add(date);
    const volume = optionalNumber(item[2], 'volume', i);
    const open = optionalNumber(item[3], 'open', i);
    rows.push({
      date,
      close: denoise(close),
      volume: volume === null ? null : Math.round(volume),
      open: open === null ? null : denoise(open),
    });
  });
  return rows;
}
