// Where the service's logs go: standard output, written asynchronously from a buffer. At `info`
// every request writes an access line; a synchronous write per line (pino's default) costs the
// event loop a system call per answer, a large share of a cached answer's CPU. The buffer is
// written once it holds MIN_LENGTH bytes, at least every FLUSH_EVERY_MS when it holds anything
// (so a quiet service's lines still appear promptly), and synchronously on shutdown and on a
// fatal error (src/main.ts), so no line is lost.
import { pino } from 'pino';

/** pino's SonicBoom stream: what flushSync needs beside the logger. */
export type LogDestination = ReturnType<typeof pino.destination>;

// One pipe buffer's atomic write (PIPE_BUF): lines from one write are never interleaved with
// another writer's on the same pipe.
const MIN_LENGTH = 4096;
const FLUSH_EVERY_MS = 1000;

export function stdoutDestination(): LogDestination {
  return pino.destination({ dest: 1, sync: false, minLength: MIN_LENGTH, periodicFlush: FLUSH_EVERY_MS });
}
