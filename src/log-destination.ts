// Where the service's logs go: standard output, through a buffer. At `info` every request writes an
// access line; pino's default destination makes one write system call per line, a large share of
// a cached answer's cost. Here lines gather in memory and are written 4 KB at a time (about 15
// access lines per call), at least every FLUSH_EVERY_MS when the buffer holds anything (a quiet
// service's lines still appear promptly), at once for a warning or an error (flushedAtWarn), and
// on every way out of the process (process.exit, which SIGTERM/SIGINT and a
// fatal error end in: src/main.ts), so no line is lost.
//
// The writes themselves are synchronous: measured per access line (bench/README.md, "The default
// configuration"), 4 KB blocks written synchronously cost less CPU, on the event loop's thread as
// well as in total, than pino's asynchronous mode (sync: false), whose thread-pool writes and
// callbacks cost more than the system calls they move off the loop; and nothing is in flight when
// the process exits.
import { pino, type DestinationStream } from 'pino';

/** pino's SonicBoom stream: what flushSync needs beside the logger. */
export type LogDestination = ReturnType<typeof pino.destination>;

// One pipe buffer's atomic write (PIPE_BUF): lines from one write are never interleaved with
// another writer's on the same pipe.
const MIN_LENGTH = 4096;
const FLUSH_EVERY_MS = 1000;

let shared: LogDestination | undefined;

/**
 * The process's one buffered standard output (every logger in the process shares it: one buffer,
 * lines in order), written out when the process exits however it exits. A fatal error and the
 * signals (src/main.ts) end in process.exit, so in this flush too.
 */
export function stdoutDestination(): LogDestination {
  if (shared) return shared;
  const destination = pino.destination({
    dest: 1,
    sync: true,
    minLength: MIN_LENGTH,
    periodicFlush: FLUSH_EVERY_MS,
  });
  process.on('exit', () => {
    // A standard output already closed (EPIPE) has nothing left to receive.
    try {
      destination.flushSync();
    } catch {
      /* nowhere to write */
    }
  });
  shared = destination;
  return destination;
}

const WARN_LEVEL = 40; // pino's number for `warn`

/**
 * `destination`, written out at once after each line at `warn` or above (with the lines before it,
 * in order), so whoever watches the log sees a warning when it happens. pino tells a stream that
 * asks for it (needsMetadataGsym, as its multistream does) each line's level before writing it:
 * a property read per line, where a logMethod hook cost a call and an arguments array per line.
 */
export function flushedAtWarn(
  destination: DestinationStream & { flush?: (done?: (err?: Error) => void) => void },
): DestinationStream {
  const stream = {
    [pino.symbols.needsMetadataGsym]: true,
    /** Set by pino before each write. */
    lastLevel: 0,
    write(line: string): void {
      destination.write(line);
      if (stream.lastLevel >= WARN_LEVEL) destination.flush?.();
    },
    /** logger.flush(): the buffer written out now. */
    flush(done?: (err?: Error) => void): void {
      if (destination.flush) destination.flush(done);
      else done?.();
    },
  };
  return stream;
}
