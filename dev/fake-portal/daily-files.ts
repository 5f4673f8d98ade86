// The exchange's daily closing files (`GET /download/mkt_summary/YYYY-MM-DD.Z`, upstream.md §7):
// one `closing11.lis` per trading day since 2013-11-04, gzip before 2019 and ZIP after, with what
// the real files carry: symbols no longer listed, stock futures (deliverable, cash-settled, B
// series), index futures and government debt, ex-markers on names, a contract that did not trade
// (0.0|0|0), a close outside the day's range (a tiny trade: close = LDCP), and one bar that differs
// from the symbol's history page. Weekdays in FILE_HOLIDAYS have no file.
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import type { HistoryRow } from '../../src/exchange/types.ts';
import { parseDay, tradingDays } from './calendar.ts';
import type { Dataset } from './dataset-types.ts';
import { PLANTED_ACTIONS, type PlantedKind } from './corporate-actions.ts';
import { generateHistory, HISTORY_ANOMALIES, priceModel } from './history.ts';
import { round2 } from './numbers.ts';

export const FIRST_FILE_DATE = '2013-11-04';
/** Weekdays without a session (before every history page's first row, so the pages agree). */
export const FILE_HOLIDAYS: readonly string[] = ['2014-02-05', '2016-03-23', '2017-12-25'];
/** The day the files switch from gzip to ZIP. */
export const ZIP_FROM = '2019-01-01';
/** A file is published at 16:00 Karachi (11:00 UTC) of its day. */
const PUBLISH_UTC_MS = 11 * 3_600_000;

export interface DelistedSpec {
  symbol: string;
  name: string;
  sector: string;
  price: number;
  /** Its last trading day. */
  until: string;
}

export const DELISTED: readonly DelistedSpec[] = [
  { symbol: 'DLTX', name: 'Delta Textile Mills', sector: '0830', price: 21.35, until: '2016-06-30' },
  { symbol: 'OLDBK', name: 'Old Commercial Bank', sector: '0807', price: 14.2, until: '2019-03-15' },
  { symbol: 'GONEF', name: 'Gone Fertilizer Co', sector: '0809', price: 55.1, until: '2021-08-31' },
];

/** The planted oddities tests look for. */
export const FILE_QUIRKS = {
  /** DLTX's close lies outside its high/low that day (a few hundred shares at the LDCP). */
  closeOutsideRange: { symbol: 'DLTX', date: '2015-06-15' },
  /** OLDBK's name carries XR that day. */
  delistedMarker: { symbol: 'OLDBK', date: '2017-05-08', marker: 'XR' },
  /**
   * A marker of another kind than the day's action: FFC's name carries XB on the ex-date of the
   * cash dividend the payouts page announces (every other planted dividend, bonus and right issue
   * is marked XD, XB or XR on its ex-date).
   */
  markerOfAnotherKind: { symbol: 'FFC', date: '2025-07-24', marker: 'XB' },
  /** The contract that did not trade: 0.0|0|0 for open/high/low, a close and an LDCP. */
  untradedContract: 'LUCK-C',
  futuresUnderlyings: ['HBL', 'ENGRO', 'LUCK'] as readonly string[],
  /** The symbol with a B series contract. */
  bSeries: 'HBL',
  indexFutures: 'KSE30',
  debt: 'P05FRR201128',
};

/** The bar where HBL's file differs from its history page: the close is 0.05 higher. */
export function disagreementDay(dataset: Dataset): {
  symbol: string;
  date: string;
  field: 'close';
  delta: number;
} {
  return {
    symbol: 'HBL',
    date: tradingDays(dataset.asOfDate, 30)[20] as string,
    field: 'close',
    delta: 0.05,
  };
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

interface Bar extends HistoryRow {
  ldcp: number | null;
}

const barsCache = new WeakMap<Dataset, Map<string, Map<string, Bar>>>();

function withLdcp(rows: readonly HistoryRow[]): Map<string, Bar> {
  const out = new Map<string, Bar>();
  rows.forEach((r, i) => out.set(r.date, { ...r, ldcp: rows[i + 1]?.close ?? r.open ?? r.close }));
  return out;
}

function weekdaysBetween(from: string, to: string): number {
  let n = 0;
  for (let t = parseDay(from); t <= parseDay(to); t += 86_400_000) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) n++;
  }
  return n;
}

/** Every symbol's bars by date: the history pages' (listed) and the delisted symbols'. */
function barsOf(dataset: Dataset): Map<string, Map<string, Bar>> {
  let bars = barsCache.get(dataset);
  if (bars) return bars;
  bars = new Map();
  for (const inst of dataset.instruments) {
    if (inst.kind !== 'equity' && inst.kind !== 'etf') continue;
    bars.set(inst.symbol, withLdcp(dataset.history(inst.symbol)));
  }
  const seed = dataset.options.seed;
  for (const d of DELISTED) {
    const rows = generateHistory(
      seed,
      d.symbol,
      priceModel(seed, d.symbol, d.price),
      d.until,
      weekdaysBetween(FIRST_FILE_DATE, d.until),
    );
    bars.set(d.symbol, withLdcp(rows));
  }
  barsCache.set(dataset, bars);
  return bars;
}

/** Whether the portal has published `date`'s file by `nowMs`. */
export function hasDailyFile(dataset: Dataset, date: string, nowMs: number): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < FIRST_FILE_DATE || date > dataset.asOfDate) return false;
  const t = parseDay(date);
  if (Number.isNaN(t)) return false;
  const wd = new Date(t).getUTCDay();
  if (wd === 0 || wd === 6 || FILE_HOLIDAYS.includes(date)) return false;
  return nowMs >= t + PUBLISH_UTC_MS;
}

function fileDate(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}${MONTHS[Number(m) - 1]}${y}`;
}

/** Names as the file abbreviates them (about 20 characters). */
function shortName(name: string): string {
  return name
    .replace(/\bLimited\b/, 'Ltd')
    .replace(/\bCompany\b/, 'Co')
    .slice(0, 20)
    .trim();
}

const num = (x: number | null): string => (x === null ? '0' : String(x));
/** OPEN is written with a decimal point (`810.0`), the other prices in shortest form. */
const openText = (x: number | null): string =>
  x === null ? '0.0' : Number.isInteger(x) ? `${x}.0` : String(x);

interface Line {
  symbol: string;
  text: string;
}

function line(date: string, symbol: string, sector: string, name: string, b: Omit<Bar, 'date'>): Line {
  const f = [fileDate(date), symbol, sector, name, openText(b.open), num(b.high), num(b.low), num(b.close)];
  return { symbol, text: `${f.join('|')}|${b.volume ?? 0}|${num(b.ldcp)}|||` };
}

/** The ex-marker of a planted action's ex-date (a split, a crash or a phantom step carries none). */
const PLANTED_MARKER: Partial<Record<PlantedKind, string>> = {
  bonus: 'XB',
  right: 'XR',
  cash_dividend: 'XD',
};

function markerOf(dataset: Dataset, symbol: string, date: string, tags: readonly string[]): string {
  if (date === dataset.asOfDate) {
    const tag = tags.find((t) => t === 'XD' || t === 'XB' || t === 'XR');
    if (tag) return tag;
  }
  if (symbol === HISTORY_ANOMALIES.symbol && date === HISTORY_ANOMALIES.bonusExDate) return 'XB';
  for (const q of [FILE_QUIRKS.delistedMarker, FILE_QUIRKS.markerOfAnotherKind])
    if (symbol === q.symbol && date === q.date) return q.marker;
  const planted = PLANTED_ACTIONS.find((a) => a.symbol === symbol && a.exDate === date);
  return planted ? (PLANTED_MARKER[planted.kind] ?? '') : '';
}

/** The lines of `date`'s `closing11.lis`, sorted by symbol with `-` ignored (the file's order). */
export function dailyFileLines(dataset: Dataset, date: string): string[] {
  const bars = barsOf(dataset);
  const out: Line[] = [];
  const drift = disagreementDay(dataset);
  const equities = [
    ...dataset.instruments
      .filter((i) => bars.has(i.symbol))
      .map((i) => ({ symbol: i.symbol, name: i.name, sector: i.sectorCode ?? '0000', tags: i.tags })),
    ...DELISTED.map((d) => ({
      symbol: d.symbol,
      name: d.name,
      sector: d.sector,
      tags: [] as readonly string[],
    })),
  ];
  for (const e of equities) {
    const bar = bars.get(e.symbol)?.get(date);
    if (!bar) continue;
    let b: Omit<Bar, 'date'> = bar;
    if (e.symbol === drift.symbol && date === drift.date)
      b = { ...bar, close: round2((bar.close ?? 0) + drift.delta) };
    const q = FILE_QUIRKS.closeOutsideRange;
    if (e.symbol === q.symbol && date === q.date) {
      // A few hundred shares: the close stays at the LDCP, outside the traded range.
      const ldcp = bar.ldcp ?? bar.close ?? 1;
      const low = round2(ldcp * 1.02);
      b = { open: low, high: round2(ldcp * 1.03), low, close: ldcp, volume: 300, ldcp };
    }
    // Markers ride on the name: `Some Ins.XD`, `Some Ins. LtdXD`.
    out.push(
      line(date, e.symbol, e.sector, shortName(e.name) + markerOf(dataset, e.symbol, date, e.tags), b),
    );
  }
  const month = MONTHS[Number(date.slice(5, 7)) - 1] as string;
  for (const u of FILE_QUIRKS.futuresUnderlyings) {
    const bar = bars.get(u)?.get(date);
    if (!bar || bar.close === null) continue;
    const px = (x: number | null, k: number) => (x === null ? null : round2(x * k));
    const contract = (k: number): Omit<Bar, 'date'> => ({
      open: px(bar.open, k),
      high: px(bar.high, k),
      low: px(bar.low, k),
      close: px(bar.close, k),
      volume: Math.round((bar.volume ?? 0) / 7),
      ldcp: px(bar.ldcp, k),
    });
    out.push(line(date, `${u}-${month}`, '40', shortName(u), contract(1.004)));
    const cash = `${u}-C${month}`;
    if (cash.startsWith(FILE_QUIRKS.untradedContract)) {
      const c = contract(1.006);
      out.push(
        line(date, cash, '40', shortName(u), {
          open: null,
          high: null,
          low: null,
          close: c.close,
          volume: 0,
          ldcp: c.ldcp,
        }),
      );
    } else out.push(line(date, cash, '40', shortName(u), contract(1.006)));
    if (u === FILE_QUIRKS.bSeries)
      out.push(line(date, `${u}-${month}B`, '40', shortName(u), contract(1.009)));
  }
  const level = 20_000 + (parseDay(date) / 86_400_000 - 16_000) * 3;
  out.push(
    line(date, `${FILE_QUIRKS.indexFutures}-${month}`, '41', 'KSE30 Index Fut', {
      open: round2(level),
      high: round2(level * 1.01),
      low: round2(level * 0.99),
      close: round2(level * 1.002),
      volume: 1500,
      ldcp: round2(level * 0.998),
    }),
  );
  if (date >= '2020-01-01') {
    out.push(
      line(date, FILE_QUIRKS.debt, '36', 'PIB FRR 5Y 28-11-20', {
        open: 100.5,
        high: 100.5,
        low: 100.45,
        close: 100.5,
        volume: 4_000_005_000,
        ldcp: 100.45,
      }),
    );
  }
  const key = (s: string) => s.replaceAll('-', '');
  out.sort((a, b) => (key(a.symbol) < key(b.symbol) ? -1 : key(a.symbol) > key(b.symbol) ? 1 : 0));
  return out.map((l) => l.text);
}

/** `date`'s file as the portal serves it: gzip before 2019, ZIP from then. */
export function dailyFileBody(dataset: Dataset, date: string): Buffer {
  const text = Buffer.from(
    dailyFileLines(dataset, date)
      .map((l) => `${l}\r\n`)
      .join(''),
    'latin1',
  );
  return date < ZIP_FROM ? gzipSync(text) : zipOne('closing11.lis', text);
}

/** A ZIP of one deflated member, as the exchange's files are. */
export function zipOne(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const packed = deflateRawSync(data);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const centralAt = local.length + nameBytes.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, nameBytes, packed, central, nameBytes, end]);
}
