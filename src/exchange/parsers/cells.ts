// Cell → value. Numbers come from `data-order` when the portal provides it (the raw value; the
// display text is rounded: `892.2M`, `5.2M`), otherwise from the display text.
import type { Cell } from '../html/table.ts';
import { isSpace } from '../html/text.ts';

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The portal's value without binary float noise, the one rounding rule for every number the API
 * gives. Its `data-order` values are printed binary floats (`-1.7239999999999998`,
 * `892213549.6899999`, `368.9200000000128`): the shortest form at 12 significant digits drops the
 * noise and keeps every digit the portal means (`17.804780876494025` keeps 12 of them, where a cut
 * at 4 decimals left 17.8048). From 1e10 up, 12 significant digits would cut into the whole part
 * or the paisa of a rupee amount, so such values keep their whole part and at most 2 decimals
 * (`21343031117.37` stays; `449048700000.0001` → `449048700000`, `619918036460.8401` →
 * `619918036460.84`): the portal prints no finer unit than a paisa on them. Never -0.
 */
export function denoise(value: number): number {
  if (value === 0) return 0;
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  // toFixed rounds the exact binary value to decimals (no multiplication to round first).
  const rounded = Math.abs(value) < LARGE ? Number(value.toPrecision(12)) : Number(value.toFixed(2));
  return rounded === 0 ? 0 : rounded;
}

/** Where 12 significant digits would leave fewer than 2 decimals. */
const LARGE = 1e10;

/** How the portal shows a value it does not have. */
export function isNotAvailable(text: string): boolean {
  switch (text.length) {
    case 0:
      return true;
    case 1:
      return text === '-' || text === '\u2013' || text === '\u2014';
    case 2:
      return text === '--' || text === 'NA' || text === 'na';
    case 3:
      return text === 'N/A' || text === 'n/a' || text === 'N/a';
    default:
      return false;
  }
}

function isArrow(code: number): boolean {
  // ↑ ↓ ▲ ▴ ▼ ▾ ⬆ ⬇
  return (
    code === 0x2191 ||
    code === 0x2193 ||
    code === 0x25b2 ||
    code === 0x25b4 ||
    code === 0x25bc ||
    code === 0x25be ||
    code === 0x2b06 ||
    code === 0x2b07
  );
}

/** Slow path for more than 15 significant digits, where the integer accumulation would round. */
function parseLongNumber(text: string, negative: boolean): number | null {
  let digits = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || code === 46) digits += text[i];
  }
  const value = Number(digits);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/**
 * A number from display text: `4,496,408`, `-9.99%`, `Rs.306.10`, `▲ 0.11`, `(9.93)` (negative).
 * Anything else (`N/A`, `5.2M`, `1.2.3`, letters) → null.
 */
export function parseNumberText(text: string): number | null {
  const length = text.length;
  let negative = false;
  let signSeen = false;
  let parenOpen = false;
  let parenClosed = false;
  let mantissa = 0;
  let digits = 0;
  let decimals = -1;
  let numberStart = -1;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (parenClosed) return null;
      if (numberStart < 0) numberStart = i;
      mantissa = mantissa * 10 + (code - 48);
      digits++;
      if (decimals >= 0) decimals++;
      continue;
    }
    if (code === 46) {
      if (decimals >= 0 || parenClosed) return null;
      decimals = 0;
      if (numberStart < 0) numberStart = i;
    } else if (code === 44) {
      // Thousands separator; a comma after the decimal point is a foreign format.
      if (decimals >= 0 || digits === 0) return null;
    } else if (code === 45 || code === 43 || code === 0x2212) {
      if (digits > 0 || decimals >= 0 || signSeen) return null;
      signSeen = true;
      negative = code !== 43;
    } else if (code === 40) {
      if (digits > 0 || parenOpen) return null;
      parenOpen = true;
    } else if (code === 41) {
      if (!parenOpen || parenClosed || digits === 0) return null;
      parenClosed = true;
    } else if ((code === 82 || code === 114) && digits === 0 && decimals < 0) {
      // `Rs.` / `Rs` currency prefix.
      const next = text.charCodeAt(i + 1) | 0x20;
      if (next !== 0x73) return null;
      i++;
      if (text.charCodeAt(i + 1) === 46) i++;
    } else if (!(isSpace(code) || code === 37 || isArrow(code))) {
      return null;
    }
  }
  if (digits === 0 || parenOpen !== parenClosed) return null;
  negative = negative !== parenOpen;
  if (digits > 15) return parseLongNumber(text.slice(numberStart), negative);
  const magnitude = decimals > 0 ? mantissa / (POW10[decimals] as number) : mantissa;
  return negative && magnitude !== 0 ? -magnitude : magnitude;
}

/** A `data-order` value as a number; null when absent or not numeric (symbol cells carry `ABL`). */
export function parseOrderNumber(order: string | null): number | null {
  if (order === null || order.length === 0) return null;
  const first = order.charCodeAt(0);
  const numericStart = (first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46;
  if (!numericStart) return null;
  // Number() also reads hex, octal and binary literals (`0x1f`): not what the portal means.
  if (first === 48 && order.length > 1) {
    const second = order.charCodeAt(1) | 0x20;
    if (second === 0x78 || second === 0x6f || second === 0x62) return null;
  }
  const value = Number(order);
  return Number.isFinite(value) ? value : null;
}

/**
 * A cell's number: null when the text is blank or `N/A`/`-` (even when `data-order` says 0, as
 * for a stale index's high and low), else `data-order`, else the display text; rounded by denoise.
 */
export function cellNumber(cell: Cell | undefined): number | null {
  if (cell === undefined || isNotAvailable(cell.text)) return null;
  const value = parseOrderNumber(cell.order) ?? parseNumberText(cell.text);
  return value === null ? null : denoise(value);
}

/** A count (volume, advances): cellNumber rounded to an integer. */
export function cellInteger(cell: Cell | undefined): number | null {
  const value = cellNumber(cell);
  return value === null ? null : Math.round(value);
}

/**
 * For columns whose text is scaled (`(M)`: text `115` means 115 million) while `data-order` holds
 * the raw count or rupees: the raw value, from `data-order`, else the text × `textScale`.
 */
export function cellScaledNumber(cell: Cell | undefined, textScale: number): number | null {
  if (cell === undefined || isNotAvailable(cell.text)) return null;
  const raw = parseOrderNumber(cell.order);
  if (raw !== null) return denoise(raw);
  const shown = parseNumberText(cell.text);
  return shown === null ? null : denoise(shown * textScale);
}

/** The cell's text, or null when blank or `N/A`. */
export function cellText(cell: Cell | undefined): string | null {
  if (cell === undefined || isNotAvailable(cell.text)) return null;
  return cell.text;
}

/** Listed symbols: `786`, `UBLP-ETF`, `HUBC`, `BAHLTFC10`; at most 20 characters. */
export function isSymbol(text: string): boolean {
  const length = text.length;
  if (length === 0 || length > 20) return false;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    const alnum = (code >= 48 && code <= 57) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
    if (!alnum && (i === 0 || (code !== 45 && code !== 46 && code !== 95))) return false;
  }
  return true;
}

/**
 * The symbol of a symbol cell, upper-cased: from `data-search`, `data-order` or the `<strong>`;
 * never the whole text, which may carry status tags after the link (`XD`, `XB`, `XR`, `NC`, `DEF`).
 */
export function cellSymbol(cell: Cell | undefined): string | null {
  if (cell === undefined) return null;
  for (const candidate of [cell.search, cell.order, cell.strong]) {
    if (candidate === null) continue;
    const trimmed = candidate.trim();
    if (isSymbol(trimmed)) return trimmed.toUpperCase();
  }
  return null;
}

/** A comma list such as LISTED IN (`ALLSHR,KMIALLSHR,KSE100`); blank → []. */
export function splitList(text: string | null): string[] {
  if (text === null || text.length === 0) return [];
  const items: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item.length > 0) items.push(item);
  }
  return items;
}

/** The names in a `data-images` attribute (`283814-1.gif`, comma-separated when several). */
export function imageNames(attribute: string | null): string[] {
  if (attribute === null) return [];
  return attribute
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
