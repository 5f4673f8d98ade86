// Bench-only entry: the framework's own ceiling. A Fastify app with no plugins, no hooks and no
// logger, one route per captured answer, replaying the service's exact bytes and headers. Beside
// the bare node:http replay it shows how much of the service's cost is Fastify itself.
import Fastify from 'fastify';
import { collectGarbage, replayHeaders, type FromChild, type Route, type ToChild } from './messages.ts';

interface Prepared {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function prepare(route: Route): Prepared {
  return { status: route.status, headers: replayHeaders(route), body: Buffer.from(route.body, 'base64') };
}

const app = Fastify({ logger: false, keepAliveTimeout: 72_000 });

process.on('message', (msg: ToChild) => {
  if (msg.type === 'routes') {
    const byPath = new Map<string, { identity?: Prepared; gzip?: Prepared }>();
    for (const r of msg.routes) {
      const held = byPath.get(r.path) ?? {};
      held[r.gzip ? 'gzip' : 'identity'] = prepare(r);
      byPath.set(r.path, held);
    }
    for (const [path, variants] of byPath) {
      app.get(path, (req, reply) => {
        const gzip = (req.headers['accept-encoding'] ?? '').includes('gzip');
        const hit = (gzip ? variants.gzip : variants.identity) ?? variants.identity ?? variants.gzip;
        if (hit === undefined) return reply.code(404).send();
        return reply.code(hit.status).headers(hit.headers).send(hit.body);
      });
    }
    app.listen({ port: 0, host: '127.0.0.1' }).then(
      (url) => {
        // As the service settles (src/compact-heap.ts): measured after the first full collection,
        // the state every long-running server reaches (bench/README.md, session 9).
        collectGarbage();
        process.send?.({ type: 'ready', url } satisfies FromChild);
      },
      (err: unknown) => process.send?.({ type: 'error', message: String(err) } satisfies FromChild),
    );
  } else if (msg.type === 'stop') {
    void app.close().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
