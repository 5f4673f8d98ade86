// Bench-only entry: the floor the service is compared with. A bare node:http server that answers
// each captured path with the exact status, headers and body bytes the service sent, prepared
// once: no routing framework, no hooks, no per-request serialisation. The body goes out as a
// Buffer, as a server usually sends prepared bytes; with BENCH_BARE_ONE_WRITE=1 a small body goes as
// a one-byte string, which Node writes together with the header block in one write, as the
// service's replays do (src/http/pipeline/one-write.ts): the lowest this machine goes for these bytes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endWith, preparedBody, type PreparedBody } from '../../src/http/pipeline/one-write.ts';
import { collectGarbage, replayHeaders, type FromChild, type Route, type ToChild } from './messages.ts';

const ONE_WRITE = process.env.BENCH_BARE_ONE_WRITE === '1';

interface Prepared {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
  /** The body as the service keeps a replay's (ONE_WRITE). */
  prepared: PreparedBody;
  delayMs: number;
}

function prepare(route: Route): Prepared {
  const body = Buffer.from(route.body, 'base64');
  return {
    status: route.status,
    headers: { ...replayHeaders(route), 'content-length': body.length },
    body,
    prepared: ONE_WRITE ? preparedBody(body) : body,
    delayMs: route.delayMs ?? 0,
  };
}

function send(msg: FromChild): void {
  process.send?.(msg);
}

const routes = new Map<string, Prepared>();
const routeKey = (path: string, gzip: boolean): string => `${gzip ? 'gzip' : 'identity'} ${path}`;
const server = createServer((req, res) => {
  const gzip = (req.headers['accept-encoding'] ?? '').includes('gzip');
  const hit = routes.get(routeKey(req.url ?? '', gzip));
  if (hit === undefined) {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
    return;
  }
  const answer = (): void => {
    res.writeHead(hit.status, hit.headers);
    endWith(res, hit.prepared);
  };
  if (hit.delayMs > 0) setTimeout(answer, hit.delayMs);
  else answer();
});
// Same keep-alive behaviour as Fastify's default (72 s), so autocannon's connections persist alike.
server.keepAliveTimeout = 72_000;

process.on('message', (msg: ToChild) => {
  if (msg.type === 'routes') {
    for (const r of msg.routes) routes.set(routeKey(r.path, r.gzip), prepare(r));
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      // As the service settles (src/compact-heap.ts): measured after the first full collection,
      // the state every long-running server reaches (bench/README.md, session 9).
      collectGarbage();
      send({ type: 'ready', url: `http://127.0.0.1:${port}` });
    });
  } else if (msg.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
