// The sector pages (`/sector-summary/sectorwise`): each sector's member table and the summary row
// counted from it, so the two agree.
import type { SectorPage, SectorSummaryRow } from '../../src/exchange/types.ts';
import type { SectorMemberRow } from './dataset-types.ts';
import { changeDir, type Market } from './market.ts';
import { round2 } from './numbers.ts';
import { SECTORS } from './universe.ts';

export interface SectorBoards {
  memberRows: Map<string, SectorMemberRow[]>;
  sectorPage: SectorPage;
}

export function sectorBoards(market: Market): SectorBoards {
  const { instruments, days } = market;
  const memberRows = new Map<string, SectorMemberRow[]>();
  const summary: SectorSummaryRow[] = [];
  for (const sector of SECTORS) {
    const rows: SectorMemberRow[] = [];
    let marketCap = 0;
    for (const inst of instruments) {
      const day = days.get(inst.symbol);
      if (inst.sectorCode !== sector.code || !day) continue;
      marketCap += inst.shares * day.close;
      if (inst.traded) {
        rows.push({
          symbol: inst.symbol,
          name: inst.name,
          ldcp: day.ldcp,
          open: day.open,
          high: day.high,
          low: day.low,
          current: day.close,
          ...changeDir(day.ldcp, day.close),
          volume: day.volume,
          traded: true,
        });
      } else {
        // A `zero` row: last day's prices, the close repeated as LDCP and CURRENT, no change.
        rows.push({
          symbol: inst.symbol,
          name: inst.name,
          ldcp: day.close,
          open: day.open,
          high: day.high,
          low: day.low,
          current: day.close,
          change: 0,
          changePct: 0,
          volume: 0,
          traded: false,
        });
      }
    }
    memberRows.set(sector.code, rows);
    summary.push({
      sectorCode: sector.code,
      sectorName: sector.name,
      advance: rows.filter((r) => r.change > 0).length,
      decline: rows.filter((r) => r.change < 0).length,
      unchanged: rows.filter((r) => r.change === 0).length,
      turnover: rows.reduce((sum, r) => sum + r.volume, 0),
      marketCapB: round2(marketCap / 1e9),
    });
  }
  const sectorPage: SectorPage = {
    sectors: summary,
    members: SECTORS.map((s) => ({
      sectorCode: s.code,
      sectorName: s.name,
      symbols: (memberRows.get(s.code) ?? []).map((r) => r.symbol),
    })),
  };
  return { memberRows, sectorPage };
}
