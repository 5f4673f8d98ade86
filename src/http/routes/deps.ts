import type { FastifyRequest } from 'fastify';
import type { Datasets } from '../../market/datasets.ts';
import type { RequestContext } from '../../market/context.ts';
import type { MemberSeriesSource } from '../../market/analytics/member-series.ts';
import type { Responder } from '../pipeline/respond.ts';
import type { MarketArchive } from '../../market/archive/archive.ts';

/** What every route plugin receives: the market's datasets and the response writer. */
export interface RouteDeps {
  datasets: Datasets;
  respond: Responder;
  contextOf: (req: FastifyRequest) => RequestContext;
  /** The market clock as configured (GET /market/status) and the service's clock (epoch ms). */
  marketClock: { followMarketClock: boolean; now: () => number };
  /** Members' daily series for rankings (absent: each member's cached history, market/member-series.ts). */
  memberSeries?: MemberSeriesSource;
  /** The market's archive: past days of the intraday endpoints (docs/archive.md). */
  archive?: MarketArchive;
}
