// Compressing a cached answer once, although every response carries a fresh meta.timestamp.
// A gzip member is a header, deflate blocks and a CRC-32/length trailer. The bulk of the answer
// ({"data":…) is deflated once, flushed to a byte boundary but not finished; each response then
// appends one final *stored* (uncompressed) deflate block holding its small meta tail, and the
// trailer computed by continuing the cached CRC over the tail. The result is one ordinary gzip
// member that every decoder accepts, for the cost of a CRC over ~80 bytes per response.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflateRaw = promisify(zlib.deflateRaw);

// ID1 ID2, CM=deflate, no flags, no mtime, no extra flags, OS unknown.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

export interface GzipHead {
  /** Gzip header plus the deflated head, ending byte-aligned with no final block. */
  bytes: Buffer;
  /** CRC-32 of the uncompressed head, to be continued over the tail. */
  crc: number;
  length: number;
}

/**
 * Deflates the head on the thread pool (never on the event loop), in one pass: with zlib's default
 * 16 KB output chunks a large history goes back and forth between the pool and the event loop
 * several times, and while a cold burst's waiters keep the loop busy each return waits for them
 * (measured in bench/README.md).
 */
export async function gzipHead(head: Buffer): Promise<GzipHead> {
  const deflated = await deflateRaw(head, {
    level: 6,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
    // Deflate never grows its input by more than ~0.03 % plus a few bytes; JSON shrinks ~6×.
    chunkSize: Math.max(zlib.constants.Z_DEFAULT_CHUNK, head.length + 1024),
  });
  return { bytes: Buffer.concat([GZIP_HEADER, deflated]), crc: zlib.crc32(head), length: head.length };
}

/** One complete gzip member: the cached head, a final stored block with `tail`, the trailer. */
export function gzipWithTail(head: GzipHead, tail: Buffer): Buffer {
  if (tail.length > 0xffff) throw new RangeError('a stored block holds at most 65535 bytes');
  const block = Buffer.allocUnsafe(5);
  block[0] = 0x01; // BFINAL=1, BTYPE=00 (stored); the head ended byte-aligned.
  block.writeUInt16LE(tail.length, 1);
  block.writeUInt16LE(~tail.length & 0xffff, 3);
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(zlib.crc32(tail, head.crc) >>> 0, 0);
  trailer.writeUInt32LE((head.length + tail.length) >>> 0, 4);
  return Buffer.concat([head.bytes, block, tail, trailer]);
}
