// Shutdown as a client sees it: an answer under way is finished, and a request that arrives once
// shutdown has begun gets the error envelope (503 not_ready) and a closed connection, not
// Fastify's own closing body.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { startService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

const harness = portalHarness();

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Splits what a socket received into its HTTP/1.1 responses (each with a Content-Length). */
function responsesOf(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const i = line.indexOf(':');
      headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    out.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.slice(end + 4, end + 4 + length),
    });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('shutdown', () => {
  it('finishes the answer under way; a request arriving after it began gets 503 not_ready', async () => {
    const svc = await startService(harness.portal.url);
    harness.portal.fail({ mode: 'slow', delayMs: 1000, path: '/sector-summary' });
    const socket = net.connect(Number(new URL(svc.url).port), '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const closed = once(socket, 'close');
    // The first request holds the connection busy (a slow portal page), so shutdown keeps it open;
    // the second comes on the same connection once shutdown has begun.
    socket.write('GET /sectors HTTP/1.1\r\nHost: localhost\r\n\r\n');
    for (let i = 0; i < 250 && !harness.portal.counts().requests['GET /sector-summary/sectorwise']; i++) {
      await sleep(20);
    }
    const closing = svc.close();
    await sleep(100);
    socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: late-1\r\n\r\n');
    await closed;
    await closing;

    const [first, second] = responsesOf(received);
    assert.equal(first?.status, 200, 'the answer under way is finished');
    assert.equal(second?.status, 503);
    assert.match(second!.headers['content-type']!, /^application\/json/);
    assertError(JSON.parse(second!.body), 503, 'not_ready');
    assert.match(JSON.parse(second!.body).error.message, /shutting down/);
    assert.equal(second!.headers.connection, 'close');
    assert.equal(second!.headers['x-request-id'], 'late-1', 'the headers every answer carries');
    assert.equal(second!.headers['access-control-allow-origin'], '*');
  });
});
