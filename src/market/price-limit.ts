// PSX circuit breakers: a day's trades must stay within the larger of p × LDCP
// and Rs 1.00 of the last day's close, the limit rounded half-up to 2 decimals. That is why a
// penny stock can legally move +10.03 %, and why 0.1 × 100.05 = 10.005 is a limit of 10.01.
// Everything is computed in integer paise (Rs 0.01, the tick size) and basis points so that
// binary floating point never decides a rounding.

import { parseIsoDay } from '../time/karachi.ts';

/** Re-exported for the anomaly checks, which read days as the limits do. */
export { parseIsoDay };

export interface PriceLimitBand {
  lower: number;
  upper: number;
}

// Effective-from dates of each limit. The 2024 steps are SECP's published fortnightly schedule.
// For 2020 upstream only says "5 % before 2020-01-20, stepping by 0.5 % to 7.5 % from
// 2020-03-20": the three intermediate dates are an APPROXIMATION that spaces the five steps at
// the only regular interval fitting both ends exactly, 15 days (01-20, 02-04, 02-19, 03-05, 03-20).
const STEP_TABLE: readonly { from: string; bps: number }[] = [
  { from: '2020-01-20', bps: 550 },
  { from: '2020-02-04', bps: 600 },
  { from: '2020-02-19', bps: 650 },
  { from: '2020-03-05', bps: 700 },
  { from: '2020-03-20', bps: 750 },
  { from: '2024-05-27', bps: 800 },
  { from: '2024-06-10', bps: 850 },
  { from: '2024-06-24', bps: 900 },
  { from: '2024-07-08', bps: 950 },
  { from: '2024-07-22', bps: 1000 },
];
const BASE_BPS = 500;
const STEPS: readonly { day: number; bps: number }[] = STEP_TABLE.map((s) => ({
  day: parseIsoDay(s.from),
  bps: s.bps,
}));

/** Rs 1.00: the floor that lets penny stocks move by a whole rupee. */
const FLOOR_PAISE = 100;
/** Above this, ldcpPaise × bps would leave the exact-integer range of a double. */
export const MAX_LDCP = Math.floor(Number.MAX_SAFE_INTEGER / (100 * 10_000));

/** The limit in basis points of LDCP for a day number (see parseIsoDay). */
export function priceLimitBpsOnDay(day: number): number {
  // From the newest step down: most rows asked about are recent, so this is one comparison.
  for (let i = STEPS.length - 1; i >= 0; i--) {
    const step = STEPS[i] as { day: number; bps: number };
    if (day >= step.day) return step.bps;
  }
  return BASE_BPS;
}

/** The limit for a trading date as a percentage of LDCP: 5, 5.5, … 10. */
export function priceLimitPct(date: string): number {
  return priceLimitBpsOnDay(requireDay(date)) / 100;
}

/** The allowed move in paise for an LDCP in paise: max(p × LDCP rounded half-up, Rs 1). */
export function priceLimitPaise(ldcpPaise: number, bps: number): number {
  // Exact integer arithmetic: + 5000 then floor is half-up for the / 10 000.
  return Math.max(FLOOR_PAISE, Math.floor((ldcpPaise * bps + 5_000) / 10_000));
}

/**
 * The price band for a day's trades. The rounded limit is applied symmetrically to LDCP; the
 * lower bound is clamped at 0 because a sub-rupee stock's Rs 1 floor would otherwise go negative.
 */
export function priceLimitBand(ldcp: number, date: string): PriceLimitBand {
  if (!Number.isFinite(ldcp) || ldcp <= 0 || ldcp > MAX_LDCP) {
    throw new RangeError(`ldcp must be a positive price up to ${MAX_LDCP}, got ${ldcp}`);
  }
  const ldcpPaise = Math.round(ldcp * 100);
  const limit = priceLimitPaise(ldcpPaise, priceLimitBpsOnDay(requireDay(date)));
  return { lower: Math.max(0, ldcpPaise - limit) / 100, upper: (ldcpPaise + limit) / 100 };
}

function requireDay(date: string): number {
  const day = parseIsoDay(date);
  if (Number.isNaN(day)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return day;
}
