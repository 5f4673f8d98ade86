// The exchange's daily closing file (`GET /download/mkt_summary/YYYY-MM-DD.Z`): an archive holding
// one text file, `closing11.lis`, a line per symbol that traded (upstream.md §7, [M]):
//   `03MAR2014|ABCX|0813|Abc Textile Ltd|21.0|21.5|20.8|21.35|65265|21.1|||`
//   = DATE|SYMBOL|SECTOR|NAME|OPEN|HIGH|LOW|CLOSE|VOLUME|LDCP + three empty fields.
// Despite `.Z` the body is a ZIP (from 2019) or a gzip stream (2013–2018): the container is sniffed
// from the magic bytes, never inferred from the date.
import { crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { UpstreamDataError } from '../../errors.ts';
import type { DailyFileKind, DailyFileRow, DailyFile } from '../types.ts';
import { parseNumberText } from './cells.ts';
import { isoDate, monthNumber } from './dates.ts';

/** The one member of the archive. */
export const DAILY_FILE_MEMBER = 'closing11.lis';

export type DailyFileContainer = 'zip' | 'gzip';

/** The `closing11.lis` text inside a daily file's body, with the container it came in. */
export function decodeDailyFile(body: Uint8Array): { container: DailyFileContainer; text: string } {
  const b0 = body[0];
  const b1 = body[1];
  if (body.length >= 4 && b0 === 0x50 && b1 === 0x4b && body[2] === 0x03 && body[3] === 0x04) {
    return { container: 'zip', text: decodeText(unzipMember(body)) };
  }
  if (b0 === 0x1f && b1 === 0x8b) {
    let out: Buffer;
    try {
      out = gunzipSync(body);
    } catch (err) {
      throw failure(`a gzip body that does not decompress (${describe(err)})`);
    }
    return { container: 'gzip', text: decodeText(out) };
  }
  if (b0 === 0x1f && b1 === 0x9d) {
    // Unix compress (LZW) has been guessed for these files but never seen; no maintained npm
    // decoder exists for it, so the day is refused rather than read wrongly.
    throw failure('a Unix-compress (LZW, 1f 9d) body, which this service does not decode');
  }
  const head = Array.from(body.subarray(0, 4), (x) => x.toString(16).padStart(2, '0')).join(' ');
  throw failure(`a body that is neither ZIP nor gzip (${body.length} bytes starting ${head || 'empty'})`);
}

/** Decodes and parses one daily file's body. */
export function parseDailyFileBody(body: Uint8Array): DailyFile {
  return parseDailyFile(decodeDailyFile(body).text);
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;

/**
 * The bytes of `closing11.lis` (or the archive's only member). The sizes come from the central
 * directory, which is right even when the local header defers them to a data descriptor.
 */
function unzipMember(zip: Uint8Array): Buffer {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const entry = centralEntry(buf);
  const at = entry.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL_HEADER)
    throw failure('a ZIP whose member is missing');
  const dataStart = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const data = buf.subarray(dataStart, dataStart + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw failure('a truncated ZIP');
  let out: Buffer;
  if (entry.method === 0) out = data;
  else if (entry.method === 8) {
    try {
      out = inflateRawSync(data);
    } catch (err) {
      throw failure(`a ZIP member that does not inflate (${describe(err)})`);
    }
  } else throw failure(`a ZIP member compressed with method ${entry.method}, not deflate`);
  if (out.length !== entry.size || crc32(out) !== entry.crc)
    throw failure('a ZIP member whose checksum does not match');
  return out;
}

interface CentralEntry {
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function centralEntry(buf: Buffer): CentralEntry {
  // The end record is the last 22 bytes, plus a comment of at most 64 KiB.
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END_OF_CENTRAL) {
      end = i;
      break;
    }
  }
  if (end < 0) throw failure('a ZIP without its central directory (truncated?)');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  let first: CentralEntry | undefined;
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL_HEADER)
      throw failure('a ZIP with a broken directory');
    const nameLength = buf.readUInt16LE(at + 28);
    const entry: CentralEntry = {
      method: buf.readUInt16LE(at + 10),
      crc: buf.readUInt32LE(at + 16),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      localOffset: buf.readUInt32LE(at + 42),
    };
    const name = buf.toString('latin1', at + 46, at + 46 + nameLength);
    if (name.toLowerCase().endsWith(DAILY_FILE_MEMBER)) return entry;
    first ??= entry;
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  if (count === 1 && first) return first;
  throw failure(`a ZIP without ${DAILY_FILE_MEMBER}`);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

function decodeText(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return LATIN1.decode(bytes);
  }
}

/** Ex-markers ride on the name (`Some Ins.XD`, `Some Ins. LtdXD`), never on the symbol. */
const MARKER = /^(.*?[^A-Z])\s*(XD|XB|XR)$/;
// After the month: `B` for the B series, or another series mark the exchange adds (the real file of
// 2026-09-15 has `LOTCHEM-CSEPN1` beside `LOTCHEM-CSEP`), kept as printed.
const FUTURES_SUFFIX = /^(C?)(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)([A-Z0-9]{0,3})$/;
const FILE_DATE = /^(\d{2})([A-Z]{3})(\d{4})$/;

/** Lines that may fail to read before the whole file is called unreadable. */
const MAX_BAD_SHARE = 0.01;

/**
 * Every row of a `closing11.lis`. A line that does not read is skipped and counted; a file with
 * no rows, rows of different dates, or more than 1 % unreadable lines is a parse failure (never
 * an empty day).
 */
export function parseDailyFile(text: string): DailyFile {
  const rows: DailyFileRow[] = [];
  const skipped: { line: number; reason: string }[] = [];
  let date: string | null = null;
  let dateText = '';
  let lineNo = 0;
  let start = 0;
  const length = text.length;
  while (start < length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = length;
    lineNo++;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    const fields = line.split('|');
    const fieldDate = fields[0]!.trim();
    if (fieldDate !== dateText) {
      const parsed = parseFileDate(fieldDate);
      if (parsed === null) {
        skipped.push({ line: lineNo, reason: `not a date: ${fieldDate.slice(0, 20)}` });
        continue;
      }
      if (date !== null && parsed !== date) throw failure(`rows of two dates (${date} and ${parsed})`);
      date = parsed;
      dateText = fieldDate;
    }
    const row = readRow(fields, date as string);
    if (typeof row === 'string') skipped.push({ line: lineNo, reason: row });
    else rows.push(row);
  }
  if (rows.length === 0 || date === null) {
    throw failure(
      skipped.length ? `no line reads (line ${skipped[0]!.line}: ${skipped[0]!.reason})` : 'an empty file',
    );
  }
  if (skipped.length > Math.max(1, rows.length * MAX_BAD_SHARE)) {
    throw failure(`${skipped.length} lines do not read (line ${skipped[0]!.line}: ${skipped[0]!.reason})`);
  }
  return { date, rows, skipped };
}

function parseFileDate(text: string): string | null {
  const m = FILE_DATE.exec(text.toUpperCase());
  if (!m) return null;
  const month = monthNumber(m[2]!);
  return month === null ? null : isoDate(Number(m[3]), month, Number(m[1]));
}

function price(text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (t === '') return null;
  const n = parseNumberText(t);
  if (n === null || n < 0) return undefined;
  // The portal writes 0.0 for "did not trade" on a contract: no price, never a zero one.
  return n === 0 ? null : n;
}

function readRow(fields: string[], date: string): DailyFileRow | string {
  if (fields.length < 10) return `${fields.length} fields, expected at least 10`;
  const symbol = fields[1]!.trim().toUpperCase();
  if (!/^[A-Z0-9][A-Z0-9.&-]*$/.test(symbol)) return `not a symbol: ${symbol.slice(0, 20)}`;
  const sectorCode = fields[2]!.trim();
  if (!/^\d{1,4}$/.test(sectorCode)) return `not a sector code: ${sectorCode.slice(0, 10)}`;
  const sector = sectorCode.padStart(4, '0');
  const open = price(fields[4]);
  const high = price(fields[5]);
  const low = price(fields[6]);
  const close = price(fields[7]);
  const ldcp = price(fields[9]);
  if (
    open === undefined ||
    high === undefined ||
    low === undefined ||
    close === undefined ||
    ldcp === undefined
  ) {
    return `a price that is not a number (${symbol})`;
  }
  const volumeText = fields[8]!.trim();
  const volume = volumeText === '' ? null : parseNumberText(volumeText);
  if (volume === undefined || (volume !== null && (volume < 0 || !Number.isInteger(volume)))) {
    return `a volume that is not a whole number (${symbol})`;
  }
  let name = fields[3]!.trim();
  let marker: DailyFileRow['marker'] = null;
  // Most names carry no marker: the regex runs only on a name ending in X + D/B/R.
  const tail = name.length > 2 ? name.charCodeAt(name.length - 2) : 0;
  const m = tail === 88 ? MARKER.exec(name) : null;
  if (m) {
    name = m[1]!.trim();
    marker = m[2] as DailyFileRow['marker'];
  }
  const row: DailyFileRow = {
    date,
    symbol,
    sectorCode: sector,
    name,
    marker,
    open,
    high,
    low,
    close,
    volume,
    ldcp,
    kind: kindOf(sector),
    underlying: null,
    contractMonth: null,
    cashSettled: null,
    series: null,
  };
  if (row.kind === 'futures' || row.kind === 'index_futures') describeContract(row, date);
  return row;
}

function kindOf(sector: string): DailyFileKind {
  if (sector === '0040') return 'futures';
  if (sector === '0041') return 'index_futures';
  if (sector === '0036') return 'debt';
  return 'equity';
}

/**
 * `SYM-SEP` deliverable, `SYM-CSEP` cash-settled, `SYM-SEPB` the B series (another mark after the
 * month is that contract's series as printed); the contract's year is
 * the file's, or the next one for a month before the file's (a December file's `-JAN`).
 */
function describeContract(row: DailyFileRow, date: string): void {
  const dash = row.symbol.lastIndexOf('-');
  if (dash <= 0) return;
  const m = FUTURES_SUFFIX.exec(row.symbol.slice(dash + 1));
  if (!m) return;
  const month = monthNumber(m[2]!) as number;
  const fileYear = Number(date.slice(0, 4));
  const fileMonth = Number(date.slice(5, 7));
  const year = month >= fileMonth ? fileYear : fileYear + 1;
  row.underlying = row.symbol.slice(0, dash);
  row.contractMonth = `${year}-${String(month).padStart(2, '0')}`;
  row.cashSettled = m[1] === 'C';
  row.series = m[3] === '' ? null : m[3]!;
}

function failure(detail: string): UpstreamDataError {
  return new UpstreamDataError('daily-file', detail);
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as Error & { code?: unknown }).code;
    return typeof code === 'string' ? code : err.message;
  }
  return 'unknown error';
}
