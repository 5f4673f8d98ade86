// `is_anomaly` for historical rows (spec: "a data point that may be suspect because of corporate
// actions or data-feed issues"). The portal's /historical prices are unadjusted, so bonus issues,
// rights and splits show up as moves beyond the day's circuit breaker on the ex-date;
// everything else flagged here is a data-feed defect. One pass, integer day numbers, no Date.
import type { HistoryRow } from '../exchange/types.ts';
import { MAX_LDCP, parseIsoDay, priceLimitBpsOnDay, priceLimitPaise } from './price-limit.ts';

export type AnomalyReason =
  | 'invalid_date'
  | 'duplicate_date'
  | 'non_positive_price'
  | 'ohlc_inconsistent'
  | 'negative_volume'
  | 'zero_volume_move'
  | 'beyond_price_limit'
  | 'corporate_action';

export interface AnomalyReasonInfo {
  code: AnomalyReason;
  description: string;
}

export type FlaggedRow = HistoryRow & {
  is_anomaly: boolean;
  /** In ANOMALY_REASONS order; empty when the row is clean. */
  anomaly_reasons: AnomalyReason[];
};

// A Record so the compiler rejects a code without a description; its key order is the order
// reasons are listed in on every row.
const DESCRIPTIONS: Readonly<Record<AnomalyReason, string>> = {
  invalid_date: 'The date is not a real calendar date in YYYY-MM-DD form.',
  duplicate_date: 'Another row earlier in the series has the same date; this is the repeat.',
  non_positive_price: 'Open, high, low or close is missing, zero or negative.',
  ohlc_inconsistent: 'High is below open, close or low, or low is above open or close.',
  negative_volume: 'Volume is negative.',
  zero_volume_move: 'No shares traded, yet the close moved from the previous close or high differs from low.',
  beyond_price_limit:
    "Close, high or low lies beyond the day's circuit breaker around the previous close; usually a corporate action (bonus, rights, split) on its ex-date.",
  corporate_action:
    "The row is the ex-date of a capital change (bonus, right, split) that the portal's adjusted series records and the raw prices confirm: the gap is the action, not a data problem. Given only with adjusted prices (adjusted=true), which weigh that evidence.",
};

export const ANOMALY_REASONS: readonly AnomalyReasonInfo[] = Object.freeze(
  (Object.keys(DESCRIPTIONS) as AnomalyReason[]).map((code) =>
    Object.freeze({ code, description: DESCRIPTIONS[code] }),
  ),
);

/** A gap this long (a suspension, a delisting and relisting) makes the previous close no reference. */
const MAX_REFERENCE_GAP_DAYS = 30;
/** One paisa: the portal's own rounding of the limit may differ from ours by a tick. */
const LIMIT_TOLERANCE_PAISE = 1;
/** Half a paisa: prices are 2-decimal quotes, anything closer is float noise. */
const SAME_PRICE_EPSILON = 0.005;
const EPS = 1e-6;

/** Flags each row (oldest first, as /historical returns them); same length and order as `rows`. */
export function flagAnomalies(rows: readonly HistoryRow[]): FlaggedRow[] {
  const out: FlaggedRow[] = new Array<FlaggedRow>(rows.length);
  const dates = new DateTracker();
  // The last row with a real date and a usable close: the LDCP for the next day's limit.
  let refDay = NaN;
  let refClose = NaN;

  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as HistoryRow;
    const reasons: AnomalyReason[] = [];
    const day = parseIsoDay(row.date);
    const { open, high, low, close, volume } = row;

    if (Number.isNaN(day)) reasons.push('invalid_date');
    if (dates.isRepeat(day, row.date)) reasons.push('duplicate_date');
    if (!isPositive(open) || !isPositive(high) || !isPositive(low) || !isPositive(close)) {
      reasons.push('non_positive_price');
    }
    if (isOhlcInconsistent(open, high, low, close)) reasons.push('ohlc_inconsistent');
    if (volume !== null && volume < 0) reasons.push('negative_volume');

    // Only a strictly earlier date is a previous day; a repeat or a step back has no LDCP.
    const hasPrev = day > refDay;
    if (volume === 0 && movedWithoutVolume(high, low, close, hasPrev ? refClose : NaN)) {
      reasons.push('zero_volume_move');
    }
    if (hasPrev && day - refDay <= MAX_REFERENCE_GAP_DAYS && beyondLimit(refClose, day, high, low, close)) {
      reasons.push('beyond_price_limit');
    }

    if (!Number.isNaN(day) && isPositive(close) && close <= MAX_LDCP) {
      refDay = day;
      refClose = close;
    }
    out[i] = {
      date: row.date,
      open,
      high,
      low,
      close,
      volume,
      is_anomaly: reasons.length > 0,
      anomaly_reasons: reasons,
    };
  }
  return out;
}

/** Remembers dates seen; sorted input (the normal case) never touches a Set. */
class DateTracker {
  private maxDay = Number.NEGATIVE_INFINITY;
  private readonly sortedDays: number[] = [];
  private days: Set<number> | null = null;
  private invalid: Set<string> | null = null;

  isRepeat(day: number, date: string): boolean {
    if (Number.isNaN(day)) {
      // Set treats NaN as one value; unparseable dates are told apart by their text.
      this.invalid ??= new Set<string>();
      return seenBefore(this.invalid, date);
    }
    if (this.days === null) {
      if (day > this.maxDay) {
        this.maxDay = day;
        this.sortedDays.push(day);
        return false;
      }
      this.days = new Set(this.sortedDays);
    }
    return seenBefore(this.days, day);
  }
}

function seenBefore<T>(seen: Set<T>, value: T): boolean {
  if (seen.has(value)) return true;
  seen.add(value);
  return false;
}

function isPositive(price: number | null): price is number {
  return price !== null && Number.isFinite(price) && price > 0;
}

function isOhlcInconsistent(
  open: number | null,
  high: number | null,
  low: number | null,
  close: number | null,
): boolean {
  // Missing sides are non_positive_price's business; compare whatever is present.
  if (high !== null && ((open !== null && high < open) || (close !== null && high < close))) return true;
  if (low !== null && ((open !== null && low > open) || (close !== null && low > close))) return true;
  return high !== null && low !== null && high < low;
}

function movedWithoutVolume(
  high: number | null,
  low: number | null,
  close: number | null,
  prevClose: number,
): boolean {
  if (high !== null && low !== null && Math.abs(high - low) > SAME_PRICE_EPSILON) return true;
  return close !== null && !Number.isNaN(prevClose) && Math.abs(close - prevClose) > SAME_PRICE_EPSILON;
}

function beyondLimit(
  ldcp: number,
  day: number,
  high: number | null,
  low: number | null,
  close: number | null,
): boolean {
  const ldcpPaise = Math.round(ldcp * 100);
  const limit = priceLimitPaise(ldcpPaise, priceLimitBpsOnDay(day));
  const upper = ldcpPaise + limit + LIMIT_TOLERANCE_PAISE + EPS;
  const lower = Math.max(0, ldcpPaise - limit) - LIMIT_TOLERANCE_PAISE - EPS;
  return outside(high, lower, upper) || outside(low, lower, upper) || outside(close, lower, upper);
}

function outside(price: number | null, lowerPaise: number, upperPaise: number): boolean {
  // A missing or non-positive price is already non_positive_price; do not count it twice.
  if (!isPositive(price)) return false;
  const paise = price * 100;
  return paise > upperPaise || paise < lowerPaise;
}
