// The market view's derived data: the day's movers and breadth from the service's own endpoints,
// or, on a service without them, from the all-share index's constituents and the sector summary
// (the same portal pages those endpoints read).
import type { IndexConstituent, ScreenerRow, SectorSummary } from 'psx-market-data-client';
import { NotAvailable } from '../api.ts';
import {
  breadth,
  indexConstituents,
  movers,
  screenerRows,
  sectors,
  type Breadth,
  type Mover,
  type MoverKind,
} from '../data.ts';

/** Every listed equity with today's numbers: the all-share index lists them with LDCP and change. */
const ALL_SHARES = 'ALLSHR';

export async function dayMovers(by: MoverKind, limit: number): Promise<Mover[]> {
  try {
    return (await movers(by, limit)).data;
  } catch (err) {
    if (!(err instanceof NotAvailable)) throw err;
  }
  const rows = (await indexConstituents(ALL_SHARES)).data.filter((r) => r.change_pct !== null);
  const key: Record<MoverKind, (r: IndexConstituent) => number> = {
    gainers: (r) => -(r.change_pct ?? 0),
    losers: (r) => r.change_pct ?? 0,
    active: (r) => -(r.volume ?? 0),
  };
  return rows
    .filter((r) => (by === 'gainers' ? (r.change ?? 0) > 0 : by === 'losers' ? (r.change ?? 0) < 0 : true))
    .sort((a, b) => key[by](a) - key[by](b))
    .slice(0, limit)
    .map((r) => ({
      symbol: r.symbol,
      name: r.name,
      price: r.current_index,
      change: r.change,
      change_pct: r.change_pct,
      volume: r.volume,
    }));
}

export async function dayBreadth(): Promise<Breadth> {
  try {
    return (await breadth()).data;
  } catch (err) {
    if (!(err instanceof NotAvailable)) throw err;
  }
  return breadthFromSectors((await sectors()).data);
}

export function breadthFromSectors(rows: SectorSummary[]): Breadth {
  const sum = (f: (s: SectorSummary) => number | null): number => rows.reduce((n, s) => n + (f(s) ?? 0), 0);
  const advances = sum((s) => s.advance);
  const declines = sum((s) => s.decline);
  const unchanged = sum((s) => s.unchanged);
  return {
    advances,
    declines,
    unchanged,
    total: advances + declines + unchanged,
    total_volume: sum((s) => s.turnover),
    total_value: null,
  };
}

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
