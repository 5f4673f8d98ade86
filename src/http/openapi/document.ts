// The OpenAPI document: the named models every route refers to, and @fastify/swagger's document
// built from the route schemas (served at /openapi.json and /docs).
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { analyticsSchemas } from '../../market/models/analytics.ts';
import { feedSchemas } from '../../market/models/feeds.ts';
import { liveSchemas } from '../../market/models/intraday.ts';
import { overviewSchemas } from '../../market/models/overview.ts';
import { companySchemas, namedSchemas } from '../../market/models/resources.ts';
import { finishOpenApi } from './docs.ts';
import { archiveSchemas } from '../routes/archive.ts';
import { ErrorEnvelope } from '../pipeline/schemas.ts';

export const API_VERSION = '0.1.0';

// The project's licence (LICENSE), as an SPDX identifier (OpenAPI 3.1).
const OPENAPI_LICENSE = { name: 'MIT', identifier: 'MIT' };
const OPENAPI_CONTACT = { name: 'PSX market data maintainers' };

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // Every answer leaves as bytes made by the responder or the error handler, so the response
  // schemas are documentation only: compiling a fast-json-stringify serializer for each of them
  // would cost start-up time and memory for code that never runs.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of [
    ...namedSchemas,
    ...companySchemas,
    ...liveSchemas,
    ...overviewSchemas,
    ...feedSchemas,
    ...archiveSchemas,
    ErrorEnvelope,
  ])
    app.addSchema(schema);
  for (const schema of analyticsSchemas) app.addSchema(schema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'PSX market data',
        version: API_VERSION,
        description:
          'Read-only JSON API over the Pakistan Stock Exchange data portal. Every success is {data, meta}; every error is {error:{status, code, message}}. Other methods than GET and HEAD answer 405 method_not_allowed with Allow; an OPTIONS without Access-Control-Request-Method answers 400 (a CORS preflight answers 204). The same data is served to agents over the Model Context Protocol at POST /mcp (Streamable HTTP, JSON-RPC 2.0, stateless; tools, resources and a prompt), which this document does not describe: see the README, section Agents (MCP).',
        license: OPENAPI_LICENSE,
        contact: OPENAPI_CONTACT,
      },
      // Relative: the document describes whichever server serves it.
      servers: [{ url: '/', description: 'the server that serves this document' }],
      // Public by design (spec: Authentication): no scheme, no credentials.
      security: [],
      tags: [
        { name: 'stocks', description: 'listed symbols, quotes, daily history and filed reports' },
        { name: 'indices', description: 'index levels and index constituents' },
        { name: 'sectors', description: 'sector summary and sector members' },
        { name: 'market', description: 'the screener table and the market summary' },
        { name: 'service', description: 'liveness and readiness' },
      ],
    },
    // Components keep their schema $id as name instead of def-0, def-1…, so the document's
    // component names are the model names a client sees.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: finishOpenApi,
  });
}
