// A replayed body is kept as it is best sent (src/http/pipeline/one-write.ts): a small one as a one-byte
// string of its bytes, a large one as the Buffer. Either way the client gets the exact bytes,
// multi-byte UTF-8 and gzip included.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { endWith, ONE_WRITE_MAX_BYTES, preparedBody } from '../../src/http/pipeline/one-write.ts';

const small = Buffer.from(JSON.stringify({ name: 'Café Pâtisserie — 漢字 😀', price: 412.35 }));
const large = Buffer.from(JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => `ß€${i}😀`) }));
const compressed = gzipSync(small);
const bodies: Record<string, Buffer> = { '/small': small, '/large': large, '/gzip': compressed };

let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    const bytes = bodies[req.url ?? ''] as Buffer;
    res.writeHead(200, ['content-type', 'application/octet-stream', 'content-length', String(bytes.length)]);
    endWith(res, preparedBody(bytes));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

describe('a prepared body', () => {
  it('is a string when small and the Buffer itself when large', () => {
    assert.equal(typeof preparedBody(small), 'string');
    assert.ok(large.length > ONE_WRITE_MAX_BYTES);
    assert.equal(preparedBody(large), large);
  });

  it('reaches the client byte for byte, whichever way it is kept', async () => {
    for (const [path, bytes] of Object.entries(bodies)) {
      for (let repeat = 0; repeat < 2; repeat++) {
        const res = await request(base + path);
        const got = Buffer.from(await res.body.arrayBuffer());
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-length'], String(bytes.length), path);
        assert.ok(got.equals(bytes), `${path}: the exact bytes`);
      }
    }
  });
});
