// Daily histories, generated backwards from the last day so the recent rows never depend on the
// history's length; ENGRO carries planted anomalies and every symbol the corporate actions of
// corporate-actions.ts.
import type { HistoryRow } from '../../src/exchange/types.ts';
import { priceLimitFraction, tradingDays } from './calendar.ts';
import { closeBefore } from './corporate-actions.ts';
import type { HistoryAnomalies } from './dataset-types.ts';
import { round2 } from './numbers.ts';
import { normal, rngFor } from './random.ts';

export const HISTORY_ANOMALIES: HistoryAnomalies = {
  symbol: 'ENGRO',
  bonusExDate: '2025-06-16',
  bonusFactor: 1.25,
  zeroVolumeMoveDate: '2023-03-15',
  ohlcInconsistentDate: '2022-10-12',
};

export interface PriceModel {
  anchor: number;
  sigma: number;
  baseVolume: number;
}

export function priceModel(seed: number, symbol: string, price: number): PriceModel {
  const rng = rngFor(seed, `model:${symbol}`);
  return {
    anchor: price,
    sigma: 0.012 + rng() * 0.012,
    baseVolume: Math.round(Math.exp(11 + rng() * 4.5)),
  };
}

export function generateHistory(
  seed: number,
  symbol: string,
  model: PriceModel,
  endDate: string,
  rows: number,
): HistoryRow[] {
  const rng = rngFor(seed, `history:${symbol}`);
  const dates = tradingDays(endDate, rows);
  const anomalies = symbol === HISTORY_ANOMALIES.symbol ? HISTORY_ANOMALIES : null;
  const out: HistoryRow[] = [];
  let close = model.anchor;
  for (const date of dates) {
    const p = priceLimitFraction(date);
    const m = 0.9 * p;
    // Pull back towards the anchor so a long walk stays in a plausible range.
    let r = model.sigma * normal(rng) + 0.02 * Math.log(close / model.anchor);
    r = Math.max(-m, Math.min(m, r));
    const zeroVolume = anomalies?.zeroVolumeMoveDate === date;
    if (zeroVolume) r = 0.02;
    let ref = round2(close / (1 + r));
    if (ref < 0.5) ref = round2(close * (1 + m / 2));
    const open = round2(ref * (1 + (rng() - 0.5) * m));
    const top = Math.max(open, close);
    const bottom = Math.min(open, close);
    const upLimit = Math.floor(ref * (1 + p) * 100) / 100;
    const downLimit = Math.ceil(ref * (1 - p) * 100) / 100;
    let high = round2(top + rng() * Math.max(0, upLimit - top) * 0.3);
    let low = round2(bottom - rng() * Math.max(0, bottom - downLimit) * 0.3);
    let rowOpen = open;
    let volume = Math.max(1, Math.round(model.baseVolume * Math.exp(0.6 * normal(rng))));
    if (zeroVolume) {
      // A print without volume: every price equals the close, which still differs from the LDCP.
      volume = 0;
      rowOpen = close;
      high = close;
      low = close;
    }
    if (anomalies?.ohlcInconsistentDate === date) {
      high = round2(close * 0.99);
      rowOpen = Math.min(rowOpen, high);
      low = Math.min(low, round2(high * 0.99));
    }
    out.push({ date, open: rowOpen, high, low, close, volume });
    // Unadjusted prices: before the bonus ex-date the stock traded bonusFactor times higher.
    // Other planted corporate actions (and the misleading crash): corporate-actions.ts.
    close =
      anomalies?.bonusExDate === date ? round2(ref * anomalies.bonusFactor) : closeBefore(symbol, date, ref);
  }
  return out;
}
