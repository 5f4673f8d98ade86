// The stdio bridge's fetch (packages/client/src/isolating-fetch.ts) over real HTTP on loopback: one
// long-lived signal, as the SDK's transport passes to every request, keeps no listener per request,
// and still aborts what is in flight (an event stream included) when it fires.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isolatingFetch } from '../../packages/client/src/isolating-fetch.ts';

let server: Server;
let base: string;

before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow') return; // never answers: only an abort ends the request
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {}\n\n');
      return; // left open, as a server's stream of messages is
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('isolatingFetch (the stdio bridge to /mcp)', () => {
  it('leaves no abort listener on the shared signal after 300 answered requests', async () => {
    const shared = new AbortController();
    for (let i = 0; i < 300; i++) {
      const res = await isolatingFetch(`${base}/mcp`, { method: 'POST', body: '{}', signal: shared.signal });
      assert.equal(res.status, 200);
      await res.json();
    }
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  });

  it('aborts a request in flight when the shared signal fires', async () => {
    const shared = new AbortController();
    const pending = isolatingFetch(`${base}/slow`, { signal: shared.signal });
    shared.abort(new Error('transport closed'));
    await assert.rejects(pending, /transport closed/);
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  });

  it('keeps an event stream tied to the shared signal until it fires', async () => {
    const shared = new AbortController();
    const res = await isolatingFetch(`${base}/stream`, { signal: shared.signal });
    assert.equal(getEventListeners(shared.signal, 'abort').length, 1);
    const reader = res.body!.getReader();
    await reader.read();
    shared.abort(new Error('transport closed'));
    await assert.rejects(reader.read(), /transport closed/);
  });
});
