import type { FastifyInstance } from 'fastify';

/** The market dashboard at / (placeholder until the dashboard work lands). */
export async function registerDashboard(_app: FastifyInstance): Promise<void> {}
