// Every /indices/… route.
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { indexRoutes } from './indices.ts';
import { indexIntradayRoutes } from './intraday.ts';
import { indexPerformanceRoutes } from './performance.ts';

export function indicesFamilyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  indexRoutes(app, deps);
  indexIntradayRoutes(app, deps);
  indexPerformanceRoutes(app, deps);
}
