// The interactive API reference at /docs: Swagger UI over the same document as /openapi.json, its
// assets served from @fastify/swagger-ui's own copy in node_modules so it works offline.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { addCsvForms, completeOpenApi } from './openapi-contract.ts';
import { addOpenApiExamples, type OpenApiDoc } from './openapi-examples.ts';

export interface DocsOptions {
  /** Where the reference is served; default `/docs`. */
  routePrefix?: string;
}

export async function registerDocs(app: FastifyInstance, opts: DocsOptions = {}): Promise<void> {
  // @fastify/swagger builds the document once, on first use, and hands the same object to every
  // caller (/openapi.json and /docs/json alike). Adding the examples to it once every route is
  // known keeps the routes free of documentation data and both documents identical.
  app.addHook('onReady', async () => {
    addCsvForms(addOpenApiExamples(completeOpenApi(app.swagger() as unknown as OpenApiDoc)));
  });

  await app.register(swaggerUi, {
    routePrefix: opts.routePrefix ?? '/docs',
    // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
    validatorUrl: false,
    theme: { title: 'PSX market data · API reference' },
    uiConfig: {
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
      displayRequestDuration: true,
      // "Try it out" pre-filled with the documented example values: one click to a real answer.
      tryItOutEnabled: true,
    },
  });
}
