// `POST /calendar` (form from, to as YYYY-MM-DD): company meetings as JSON,
// `{"status":1,"message":"","data":[{id, symbol, name, type, date, time, city, period_end}]}`,
// newest first. `city` is free text (`Lahore.`, `TRICON LAHORE`, `Pezu, KPK`).
import { UpstreamDataError } from '../../errors.ts';
import type { MeetingRow } from '../feed-types.ts';
import { isSymbol } from './cells.ts';
import { parseDisplayDate } from './dates.ts';

function fail(reason: string): never {
  throw new UpstreamDataError('calendar', reason);
}

function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

const TIME = /^(\d{1,2}):(\d{2})(?::\d{2})?\s*([AaPp][Mm])?$/;

/** `11:00`, `2:30 PM`, `14:30:00` → `HH:MM` (24-hour); null otherwise. */
function clock(value: string | null): string | null {
  const m = value === null ? null : TIME.exec(value);
  if (m === null) return null;
  let hour = Number(m[1]);
  const meridiem = m[3]?.toLowerCase();
  if (meridiem !== undefined) hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  if (hour > 23 || Number(m[2]) > 59) return null;
  return `${String(hour).padStart(2, '0')}:${m[2]}`;
}

/** Trailing punctuation is dropped (`Lahore.` → `Lahore`); the rest is kept as published. */
export function cleanCity(value: string | null): string | null {
  if (value === null) return null;
  const cleaned = value.replace(/[\s.,;:\-–]+$/u, '').trim();
  return cleaned === '' ? null : cleaned;
}

function date(value: unknown): string | null {
  const t = text(value);
  return t === null ? null : parseDisplayDate(t.slice(0, 10));
}

export function parseCalendar(jsonText: string): MeetingRow[] {
  if (typeof jsonText !== 'string') fail('the response is not text');
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    fail('malformed JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('not a JSON object');
  const body = parsed as Record<string, unknown>;
  if (body.status !== 1 && body.status !== '1') {
    fail(
      `status ${JSON.stringify(body.status)}${typeof body.message === 'string' ? ` (${body.message.slice(0, 60)})` : ''}`,
    );
  }
  if (!Array.isArray(body.data)) fail('no data array');
  const rows: MeetingRow[] = [];
  for (const item of body.data as unknown[]) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      fail('a meeting that is not an object');
    const r = item as Record<string, unknown>;
    const symbol = text(r.symbol)?.toUpperCase() ?? null;
    const type = text(r.type)?.toUpperCase() ?? null;
    if (symbol === null || !isSymbol(symbol) || type === null) fail('a meeting without a symbol or type');
    rows.push({
      id: text(r.id),
      symbol,
      name: text(r.name),
      type,
      date: date(r.date),
      time: clock(text(r.time)),
      city: cleanCity(text(r.city)),
      periodEnd: date(r.period_end),
    });
  }
  return rows;
}
