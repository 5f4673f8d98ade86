// Every /sectors… route.
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.ts';
import { sectorPerformanceRoutes } from './performance.ts';
import { sectorRoutes } from './sectors.ts';

export function sectorsFamilyRoutes(app: FastifyInstance, deps: RouteDeps): void {
  sectorRoutes(app, deps);
  sectorPerformanceRoutes(app, deps);
}
