// The index pages: each index's members (`/indices/{code}`, with weights and points) and the levels
// board (`/indices`), the levels moved by the members' points so the two pages agree.
import type { IndexConstituentRow, IndexConstituentsPage, IndexLevelRow } from '../../src/exchange/types.ts';
import type { DaySummary, IndexInfo, Instrument } from './dataset-types.ts';
import { changeDir, type Market } from './market.ts';
import { round2, round4 } from './numbers.ts';
import { rngFor } from './random.ts';
import { INDEX_DEFS, STALE_INDEX, STALE_INDEX_CURRENT } from './universe.ts';

export interface IndexBoards {
  indexInfos: Map<string, IndexInfo>;
  constituents: Map<string, IndexConstituentsPage>;
  levelRows: IndexLevelRow[];
}

export function indexBoards(market: Market): IndexBoards {
  const { seed, instruments, memberSets, days } = market;
  const indexInfos = new Map<string, IndexInfo>();
  const constituents = new Map<string, IndexConstituentsPage>();
  const levelRows: IndexLevelRow[] = [];
  for (const def of INDEX_DEFS) {
    const members = instruments.filter((i) => memberSets.get(def.code)?.has(i.symbol) && days.has(i.symbol));
    const info: IndexInfo = {
      code: def.code,
      title: def.title,
      sizeColumn: def.sizeColumn,
      members: members.map((m) => m.symbol),
      ldcp: def.ldcp,
    };
    indexInfos.set(def.code, info);
    const size = (i: Instrument): number => (def.sizeColumn === 'shares' ? i.shares : i.freeFloat);
    // Untraded members show CURRENT 0 (and so a zero market cap) on index pages, as the portal does.
    const current = (i: Instrument): number => (i.traded ? (days.get(i.symbol) as DaySummary).close : 0);
    const capLdcp = members.reduce((sum, i) => sum + size(i) * (days.get(i.symbol) as DaySummary).ldcp, 0);
    const capNow = members.reduce((sum, i) => sum + size(i) * current(i), 0);
    let points = 0;
    const rows: IndexConstituentRow[] = members.map((i) => {
      const day = days.get(i.symbol) as DaySummary;
      const cur = current(i);
      const { change, changePct } = i.traded ? changeDir(day.ldcp, cur) : { change: 0, changePct: 0 };
      const weightLdcp = capLdcp > 0 ? (size(i) * day.ldcp) / capLdcp : 0;
      const idxPoint = i.traded ? round4((def.ldcp * weightLdcp * (cur - day.ldcp)) / day.ldcp) : 0;
      points += idxPoint;
      const row: IndexConstituentRow = {
        symbol: i.symbol,
        name: i.name,
        ldcp: day.ldcp,
        current: cur,
        change,
        changePct,
        idxWeight: Number((capNow > 0 ? ((size(i) * cur) / capNow) * 100 : 0).toFixed(2)),
        idxPoint,
        volume: i.traded ? day.volume : 0,
        marketCap: size(i) * cur,
      };
      if (def.sizeColumn === 'shares') row.shares = size(i);
      else row.freeFloat = size(i);
      return row;
    });
    constituents.set(def.code, { title: `${def.title} Constituents`, sizeColumn: def.sizeColumn, rows });

    const rng = rngFor(seed, `index:${def.code}`);
    if (def.code === STALE_INDEX.code) {
      const change = STALE_INDEX_CURRENT - def.ldcp;
      levelRows.push({
        index: def.code,
        high: null,
        low: null,
        current: STALE_INDEX_CURRENT,
        change,
        changePct: (change / def.ldcp) * 100,
        staleSince: STALE_INDEX.since,
      });
      continue;
    }
    const cur = round2(def.ldcp + points);
    const change = cur - def.ldcp;
    levelRows.push({
      index: def.code,
      high: round2(Math.max(cur, def.ldcp) * (1 + rng() * 0.004)),
      low: round2(Math.min(cur, def.ldcp) * (1 - rng() * 0.004)),
      current: cur,
      change,
      changePct: (change / def.ldcp) * 100,
      staleSince: null,
    });
  }
  return { indexInfos, constituents, levelRows };
}
