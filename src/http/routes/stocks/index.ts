// Every /stocks/{symbol}/… route, one file per kind of answer.
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { stockAnalyticsRoutes } from './analytics.ts';
import { companyRoutes } from './company.ts';
import { corporateActionRoutes } from './corporate-actions.ts';
import { stockIntradayRoutes } from './intraday.ts';
import { stockOverviewRoutes } from './overview.ts';
import { stockHistoryRoutes } from './historical.ts';
import { stockRoutes } from './stocks.ts';

export function stocksFamilyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  stockRoutes(app, deps);
  stockHistoryRoutes(app, deps);
  companyRoutes(app, deps);
  corporateActionRoutes(app, deps);
  stockIntradayRoutes(app, deps);
  stockAnalyticsRoutes(app, deps);
  stockOverviewRoutes(app, deps);
}
