// The interactive API reference at /docs: Swagger UI over the same document as /openapi.json, its
// assets served from @fastify/swagger-ui's own copy in node_modules so it works offline, dressed in
// the dashboard's name and colours rather than Swagger's, and readable on a phone.
import type { SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { addCsvForms, completeOpenApi } from './contract.ts';
import { addOpenApiExamples, type OpenApiDoc } from './examples.ts';

export interface DocsOptions {
  /** Where the reference is served; default `/docs`. */
  routePrefix?: string;
}

export const DOCS_TITLE = 'PSX market data · API reference';
const BRAND = '#0b2a22';
const UP = '#0a6b35';

// The dashboard's mark (web/public/favicon.svg) with the project's name, as the top bar's logo.
// The name is given a length of its own (textLength): fonts differ in width from machine to
// machine, and a wider one would run past the image's edge and be clipped.
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 230 32" width="230" height="32"><rect width="32" height="32" rx="6" fill="#0b3d2e"/><path d="M5 22l7-8 5 5 10-11" fill="none" stroke="#7ee2a8" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><text x="42" y="22" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="17" font-weight="700" fill="#ffffff" textLength="180" lengthAdjust="spacingAndGlyphs">PSX market data</text></svg>`;
const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b3d2e"/><path d="M5 22l7-8 5 5 10-11" fill="none" stroke="#7ee2a8" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>';

const THEME_CSS = `
.swagger-ui .topbar { background: ${BRAND}; padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar a.link img { height: 32px; width: auto; }
.swagger-ui .info .title, .swagger-ui .opblock-tag { color: ${BRAND}; }
.swagger-ui .info a, .swagger-ui a.nostyle { color: #0b57d0; }
.swagger-ui .opblock.opblock-get { border-color: ${UP}; background: rgba(10, 107, 53, 0.05); }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: ${UP}; }
.swagger-ui .opblock.opblock-get .opblock-summary { border-color: ${UP}; }
.swagger-ui .btn.execute { background: ${BRAND}; border-color: ${BRAND}; }
.swagger-ui .btn.try-out__btn { border-color: ${UP}; color: ${UP}; }
.docs-back { display: block; background: ${BRAND}; padding: 8px 20px 0; font: 14px system-ui, sans-serif; }
.docs-back a { color: #ffffff; }
@media (max-width: 40rem) {
  .swagger-ui .wrapper { padding: 0 10px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; }
  .swagger-ui table { display: block; overflow-x: auto; }
  .swagger-ui .info, .swagger-ui .info * { overflow-wrap: anywhere; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; }
  .swagger-ui select, .swagger-ui pre { max-width: 100%; }
  /* Swagger UI's text runs a few pixels past narrow screens; wide blocks scroll inside themselves. */
  html, body { overflow-x: hidden; }
}
`;

// Swagger UI's page has no viewport tag (phones render it 980 px wide and shrink it); its HTML
// template has no option for one, so it is added to the page as it is sent.
const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';
const BACK_LINK = '<nav class="docs-back" aria-label="Site"><a href="/">← Market dashboard</a></nav>';

/**
 * @fastify/swagger's `transformObject`: the document built from the route schemas gets what the
 * routes do not carry (the contract's shared parts, the examples, the CSV forms), so the routes
 * stay free of documentation data. The plugin builds the document once, on first use, and hands the
 * same object to every caller (/openapi.json and /docs/json alike).
 */
export const finishOpenApi: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  addCsvForms(addOpenApiExamples(completeOpenApi(document.openapiObject as unknown as OpenApiDoc)));
  return document.openapiObject;
};

export async function registerDocs(app: FastifyInstance, opts: DocsOptions = {}): Promise<void> {
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_req, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (
        typeof payload !== 'string' ||
        !type.startsWith('text/html') ||
        payload.includes('name="viewport"')
      ) {
        return payload;
      }
      return payload
        .replace(/<meta charset="UTF-8">/i, (m) => `${m}\n      ${VIEWPORT}`)
        .replace('<body>', `<body>\n      ${BACK_LINK}`);
    });
    await docs.register(swaggerUi, {
      routePrefix: opts.routePrefix ?? '/docs',
      // Swagger UI would otherwise send the document to validator.swagger.io for a badge.
      validatorUrl: false,
      theme: {
        title: DOCS_TITLE,
        css: [{ filename: 'psx.css', content: THEME_CSS }],
        favicon: [
          { filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG },
        ],
      },
      logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/docs' },
      uiConfig: {
        deepLinking: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
        // "Try it out" pre-filled with the documented example values: one click to a real answer.
        tryItOutEnabled: true,
      },
    });
  });
}
