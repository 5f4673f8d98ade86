// CORS preflights. The plugin sits in a scope of its own, so its hook runs for its OPTIONS route
// and for nothing else; every other answer gets its CORS headers from the front door. An OPTIONS
// without Access-Control-Request-Method is not a preflight: it gets the envelope, not the plugin's
// text/plain (its strict check is off so that this hook, added first, decides).
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../../errors.ts';
import { EXPOSED_HEADERS } from './common-headers.ts';
import { sendError } from './error-handler.ts';

export async function registerPreflights(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', (req, reply, done) => {
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined) {
        reply.header('allow', 'GET, HEAD, OPTIONS');
        void sendError(
          reply,
          new BadRequestError(
            'OPTIONS is answered only as a CORS preflight (with Access-Control-Request-Method); this API takes GET and HEAD',
          ),
        );
        return;
      }
      done();
    });
    // /mcp takes POST (and answers GET and DELETE, which the Streamable HTTP transport sends);
    // the headers a preflight asks for (Content-Type, Mcp-Protocol-Version, Mcp-Session-Id…) are
    // allowed as asked.
    const apiCors = {
      origin: '*',
      methods: ['GET', 'HEAD'],
      exposedHeaders: EXPOSED_HEADERS,
      strictPreflight: false,
    };
    const mcpCors = { ...apiCors, methods: ['GET', 'HEAD', 'POST', 'DELETE'] };
    await scope.register(cors, {
      delegator: (req, callback) => callback(null, req.url.split('?')[0] === '/mcp' ? mcpCors : apiCors),
    });
  });
}
