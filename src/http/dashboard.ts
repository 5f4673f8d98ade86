// The market dashboard at /: the single-page app Vite builds from web/ into web/dist. The files
// are looked up per request, so `npm run build:web` while the service runs takes effect at once,
// and a missing build is a hint page rather than a failure to start.
import { UNCOUNTED } from './pipeline/limit-rules.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface DashboardOptions {
  /** The built app; default web/dist in the project. */
  distDir?: string;
}

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>PSX market data</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">
<h1>PSX market data</h1>
<p>The dashboard has not been built yet. Build it with</p>
<pre style="background:#eee;padding:.5rem 1rem">npm run build:web</pre>
<p>and reload this page. The API works without it: see the <a href="/docs">API reference</a>
or <a href="/openapi.json">/openapi.json</a>.</p>
</body></html>
`;

// The request limit does not count the dashboard's files (src/http/pipeline/limit-rules.ts).
const routeOptions = { schema: { hide: true }, config: UNCOUNTED } as const;

export async function registerDashboard(app: FastifyInstance, opts: DashboardOptions = {}): Promise<void> {
  const root = opts.distDir ?? DEFAULT_DIST_DIR;
  await app.register(async (scope) => {
    // Only reply.sendFile (ETag, Last-Modified, ranges, traversal checks) is used; the routes are
    // our own so that they answer nothing but the app's files.
    await scope.register(fastifyStatic, { root, serve: false });

    const sendIndex = (reply: FastifyReply): FastifyReply => {
      if (!existsSync(`${root}/index.html`)) {
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(NOT_BUILT_PAGE);
      }
      // Revalidated on every load: it names the current build's hashed assets.
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', { cacheControl: false });
    };
    scope.get('/', routeOptions, (_req, reply) => sendIndex(reply));
    scope.get('/index.html', routeOptions, (_req, reply) => sendIndex(reply));
    scope.get('/favicon.svg', routeOptions, (_req, reply) => reply.sendFile('favicon.svg', { maxAge: '1d' }));
    // Vite names assets by content hash: a URL never changes meaning, so it may be kept for good.
    scope.get<{ Params: { '*': string } }>('/assets/*', routeOptions, (req, reply) =>
      reply.sendFile(`assets/${req.params['*']}`, { maxAge: '365d', immutable: true }),
    );
  });
}
