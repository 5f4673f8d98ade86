// How a prepared body is handed to Node so that a small answer leaves in one write. Node writes a
// string body together with the header block in one write; a Buffer goes out as a second chunk of
// a vectored write, which cost a small cached answer measurably more CPU. A large string costs
// copies a Buffer does not, so only bodies up to ONE_WRITE_MAX_BYTES are held as strings
// (bench/README.md, "One write").
import type { ServerResponse } from 'node:http';

/** The largest body held as a one-byte string; Node's own buffer for writing a string at once is 16 KB. */
export const ONE_WRITE_MAX_BYTES = 8 * 1024;

/** A prepared body as it is best kept for sending: a small one as a one-byte ('latin1') string of its bytes. */
export type PreparedBody = string | Buffer;

export function preparedBody(bytes: Buffer): PreparedBody {
  return bytes.length <= ONE_WRITE_MAX_BYTES ? bytes.toString('latin1') : bytes;
}

/** Ends `res` with `body`'s bytes (the header block already set with writeHead). */
export function endWith(res: ServerResponse, body: PreparedBody): void {
  if (typeof body === 'string') res.end(body, 'latin1');
  else res.end(body);
}
