// A response's gzip is the view's gzip'd head with its meta tail spliced on: whatever the head and
// the tail, a client must inflate exactly head + tail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { gzipHead, gzipWithTail } from '../../src/http/pipeline/gzip-splice.ts';

describe('gzip splicing', () => {
  it('gunzip(spliced) = head + tail, for any head and tail', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200_000 }),
        fc.uint8Array({ maxLength: 70_000 }),
        async (head, tail) => {
          const prepared = await gzipHead(Buffer.from(head));
          const spliced = gzipWithTail(prepared, Buffer.from(tail));
          assert.deepEqual(gunzipSync(spliced), Buffer.concat([head, tail]));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('one prepared head serves many tails', async () => {
    const head = Buffer.from(`{"data":${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i })))}`);
    const prepared = await gzipHead(head);
    await fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const tail = Buffer.from(text);
        assert.deepEqual(gunzipSync(gzipWithTail(prepared, tail)), Buffer.concat([head, tail]));
      }),
      { numRuns: 200 },
    );
  });
});
