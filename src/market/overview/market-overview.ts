// GET /market/overview: the market page in one request: index levels, breadth, the three mover
// lists, the sector summary, and one index's intraday bars and constituents. Every part but the
// index's own comes from three cached pages (index levels, market watch, sector summary).
import { NotFoundError, clientText } from '../../errors.ts';
import { answerKey, type Answer } from '../answer.ts';
import { breadth, movers, MOVER_KINDS } from './movers-breadth.ts';
import type { RequestContext } from '../context.ts';
import type { Datasets } from '../datasets.ts';
import { constituents, levels, resolveIndexCode } from '../listings/indices.ts';
import { indexIntraday } from '../history/intraday.ts';
import { marketState, type OverviewClock } from './market-state.ts';
import { oldestAsOf, overviewProvenance, settle, type Part } from './parts.ts';
import type { MarketStateT } from '../models/overview.ts';
import type { MoverT } from '../models/intraday.ts';
import { sectorSummary } from '../listings/sectors.ts';
import { combine } from '../../cache/types.ts';

export const DEFAULT_OVERVIEW_INDEX = 'KSE100';
export const DEFAULT_OVERVIEW_MOVERS = 10;
export const MAX_OVERVIEW_MOVERS = 50;

export interface MarketOverviewT {
  market: MarketStateT;
  indices: Part<unknown>;
  breadth: Part<unknown>;
  movers: Part<Record<(typeof MOVER_KINDS)[number], MoverT[]>>;
  sectors: Part<unknown>;
  index: { code: string; intraday: Part<unknown>; constituents: Part<unknown> };
}

export interface MarketOverviewQuery {
  index?: string;
  movers?: number;
}

export async function marketOverview(
  datasets: Datasets,
  query: MarketOverviewQuery,
  ctx: RequestContext,
  clock: OverviewClock,
): Promise<Answer<MarketOverviewT>> {
  const code = resolveIndexCode(query.index ?? DEFAULT_OVERVIEW_INDEX);
  if (code === undefined) throw new NotFoundError(`index ${clientText(query.index ?? '')} not found`);
  const limit = query.movers ?? DEFAULT_OVERVIEW_MOVERS;
  const now = clock.now;
  const settled = await Promise.all([
    settle(() => levels(datasets, ctx), now),
    settle(() => breadth(datasets, ctx), now),
    settle(async () => {
      const [gainers, losers, active] = (await Promise.all(
        MOVER_KINDS.map((by) => movers(datasets, by, limit, ctx)),
      )) as [Answer<MoverT[]>, Answer<MoverT[]>, Answer<MoverT[]>];
      return {
        key: 'movers',
        asOf: gainers.asOf,
        data: { gainers: gainers.data, losers: losers.data, active: active.data },
        provenance: combine([gainers.provenance, losers.provenance, active.provenance]),
      };
    }, now),
    settle(() => sectorSummary(datasets, ctx), now),
    settle(() => indexIntraday(datasets, code, '5m', ctx), now),
    settle(() => constituents(datasets, code, ctx), now),
  ]);
  const [indices, breadthPart, moversPart, sectors, intraday, members] = settled;
  const market = marketState(clock);
  const nowMs = now();
  const provenance = overviewProvenance(settled, nowMs);
  return {
    key: answerKey('market-overview', code, { movers: limit }),
    data: {
      market: market.state,
      indices: indices!.part,
      breadth: breadthPart!.part,
      movers: moversPart!.part as MarketOverviewT['movers'],
      sectors: sectors!.part,
      index: { code, intraday: intraday!.part, constituents: members!.part },
    },
    provenance: {
      ...provenance,
      freshUntil: Math.max(nowMs, Math.min(provenance.freshUntil, market.changesAt)),
      version: `${provenance.version}|${market.version}`,
    },
    asOf: oldestAsOf(
      settled.map((s) => s.part),
      nowMs,
    ),
  };
}
