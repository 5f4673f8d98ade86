import type { FastifyInstance } from 'fastify';

/** Interactive API reference at /docs (placeholder until the docs work lands). */
export async function registerDocs(_app: FastifyInstance): Promise<void> {}
