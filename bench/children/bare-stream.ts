// Bench-only entry: a bare node:http server holding the same SSE connections and writing the same
// frames (given by the runner) — the floor the service's stream fan-out is compared with.
import { createServer, type ServerResponse } from 'node:http';
import { collectGarbage } from './messages.ts';
import type { FromStreamChild, ToStreamChild } from './stream-messages.ts';

const send = (msg: FromStreamChild): void => void process.send?.(msg);
let snapshot: Record<string, string> = {};
const clients: Array<{ res: ServerResponse; symbols: string[] }> = [];

const server = createServer((req, res) => {
  const symbols = (new URL(req.url ?? '/', 'http://x').searchParams.get('symbols') ?? '').split(',');
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(`retry: 3000\n\n${symbols.map((s) => snapshot[s] ?? '').join('')}`);
  const client = { res, symbols };
  clients.push(client);
  res.on('close', () => clients.splice(clients.indexOf(client), 1));
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  const { port } = server.address() as { port: number };
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
});

process.on('message', (msg: ToStreamChild) => {
  if (msg.type === 'snapshot') snapshot = msg.frames;
  else if (msg.type === 'fire') {
    const answerAt = performance.timeOrigin + performance.now();
    // As the service does: each frame encoded once, the same bytes corked onto every stream.
    const frames = new Map(Object.entries(msg.frames).map(([s, f]) => [s, Buffer.from(f)]));
    for (const c of clients) {
      c.res.cork();
      for (const s of c.symbols) {
        const frame = frames.get(s);
        if (frame !== undefined) c.res.write(frame);
      }
      c.res.uncork();
    }
    send({ type: 'polled', outcome: 'changed', answerAt });
  } else if (msg.type === 'memory') {
    collectGarbage();
    setTimeout(() => {
      collectGarbage();
      send({ type: 'memory', rss: process.memoryUsage().rss });
    }, 2000);
  } else if (msg.type === 'stop') process.exit(0);
});
process.on('disconnect', () => process.exit(0));
