// `GET /stream/quotes`: live quotes as Server-Sent Events (src/stream/).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RateLimitedError } from '../../errors.ts';
import { errorResponses } from '../pipeline/schemas.ts';
import type { LiveQuotes } from '../../stream/live-quotes.ts';
import { openingOf, type Opening } from '../../stream/opening.ts';
import { symbolList, SymbolsQuery } from './quotes.ts';
import type { RouteDeps } from './deps.ts';

export interface StreamRouteOptions extends RouteDeps {
  live: LiveQuotes;
}

export function streamRoutes(app: FastifyInstance, opts: StreamRouteOptions): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { datasets, contextOf, live } = opts;
  const { hub } = live;

  r.get(
    '/stream/quotes',
    {
      schema: {
        operationId: 'streamQuotes',
        summary: 'Live quotes (Server-Sent Events)',
        description:
          'A text/event-stream of `quote` events, each `id: <n>`, `event: quote`, `data: <Quote JSON>`: first one per symbol (the snapshot), then one whenever a symbol’s price, change or volume changes. One poller feeds every stream: it reads the exchange’s market watch every STREAM_POLL_SECONDS (default 20) while the market is open, and not at all when it is closed. A `: heartbeat` comment every 15 s keeps proxies from closing an idle stream. Reconnect with the Last-Event-ID header to get the events missed in the last five minutes (else a fresh snapshot). Symbols the exchange does not list are named in a `: not_found …` comment; 404 when none is listed. At most STREAM_MAX_PER_IP (default 5) streams per client address (429 beyond). When the server shuts down it sends `: server shutting down` and closes; reconnect.',
        tags: ['stocks'],
        querystring: SymbolsQuery,
        headers: Type.Object({
          'last-event-id': Type.Optional(
            Type.String({ description: 'the id of the last event received, to resume after a reconnect' }),
          ),
        }),
        response: {
          200: {
            description: 'the event stream',
            content: {
              'text/event-stream': {
                schema: Type.String({
                  description:
                    'id: 42\\nevent: quote\\ndata: {"symbol":"HBL","price":306.1,…}\\n\\n — and `: heartbeat` comments',
                }),
              },
            },
          },
          ...errorResponses({
            404: 'none of the symbols is listed',
            429: 'this address already has STREAM_MAX_PER_IP streams open (or the request rate limit)',
          }),
        },
      },
    },
    async (req, reply) => {
      const symbols = symbolList(req.query.symbols);
      // HEAD learns the headers; it must not hold a stream (and a slot) open with no body to send.
      if (req.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send('');
      const context = contextOf(req);
      const ip = context.clientIp;
      if (!hub.reserve(ip)) {
        throw new RateLimitedError(
          `at most ${live.maxPerIp} concurrent streams per client address; close one first`,
          5,
        );
      }
      let opening: Opening;
      try {
        const lastEventId = req.headers['last-event-id'];
        opening = await openingOf(hub, datasets, symbols, lastEventId, context);
      } catch (err) {
        hub.release(ip);
        throw err;
      }
      if (req.raw.destroyed) {
        hub.release(ip);
        return reply;
      }
      reply.hijack();
      const res = reply.raw;
      req.raw.socket.setTimeout(0);
      req.raw.socket.setNoDelay(true);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      hub.open(res, ip, opening.symbols, opening.text, opening.events);
      return reply;
    },
  );
}
