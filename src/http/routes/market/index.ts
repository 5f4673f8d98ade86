// Every /market/… route from the portal's pages (the archive's /market/daily and
// /market/trading-days are registered with the archive's routes, only when the archive is on).
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { marketFeedRoutes } from './feeds.ts';
import { moversBreadthRoutes } from './movers-breadth.ts';
import { marketOverviewRoutes } from './overview.ts';
import { marketPerformanceRoutes } from './performance.ts';
import { marketStatusRoutes } from './status.ts';
import { marketSummaryRoutes } from './summary.ts';

export function marketFamilyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  marketSummaryRoutes(app, deps);
  marketStatusRoutes(app, deps);
  moversBreadthRoutes(app, deps);
  marketFeedRoutes(app, deps);
  marketPerformanceRoutes(app, deps);
  marketOverviewRoutes(app, deps);
}
