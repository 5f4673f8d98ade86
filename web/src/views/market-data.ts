// The screener's rows with the day's numbers: the screener joined with the all-share index's
// constituents, which list every equity with its name, LDCP, change and volume.
import type { ScreenerRow } from 'psx-market-data-client';
import { indexConstituents, screenerRows } from '../data.ts';

/** Every listed equity with today's numbers: the all-share index lists them with LDCP and change. */
const ALL_SHARES = 'ALLSHR';

/** A screener row with the day's numbers and the company name. */
export interface ScreenRow extends ScreenerRow {
  name: string | null;
  change: number | null;
  change_pct: number | null;
  volume: number | null;
}

export async function screenRows(): Promise<ScreenRow[]> {
  const [rows, day] = await Promise.all([screenerRows(), indexConstituents(ALL_SHARES)]);
  const today = new Map(day.data.map((r) => [r.symbol, r]));
  return rows.data.map((r) => {
    const d = today.get(r.symbol);
    return {
      ...r,
      price: d?.current_index ?? r.price,
      name: d?.name ?? null,
      change: d?.change ?? null,
      change_pct: d?.change_pct ?? null,
      volume: d?.volume ?? null,
    };
  });
}
