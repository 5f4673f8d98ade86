// Where the service's logs go: standard output, through a buffer. At `info` every request writes an
// access line, and one write system call per line was a large share of a cached answer's cost. Here
// lines are copied into one preallocated block and written BLOCK_BYTES at a time, at least every
// FLUSH_EVERY_MS when the block holds anything (a quiet service's lines still appear promptly), at
// once for a warning or an error (flushedAtWarn), and on every way out of the process (process.exit,
// which SIGTERM/SIGINT and a fatal error end in: src/main.ts), so no line is lost.
//
// Not pino's SonicBoom: it appends each line to a growing string and measures that string's UTF-8
// length on every write, which flattens it, so a line costs more the larger the block; copying each
// line's bytes once into a fixed block costs the same whatever the block's size, and the larger
// block means fewer system calls (bench/README.md, "The default configuration").
//
// The writes are synchronous: an asynchronous write's thread-pool work and callback cost the event
// loop more than the system call it moves off it, and nothing is in flight when the process exits.
// The price: a standard output that stops reading (a stalled log collector) stalls the service.
// Lines stay whole: only this process writes to its standard output, and every write is retried
// until all of it is out.
import { writeSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

/** A buffered output: pino's stream interface plus a synchronous flush for the way out. */
export interface LogDestination extends DestinationStream {
  /** Writes out what the buffer holds; `done` is called once it is out. */
  flush(done?: (err?: Error) => void): void;
  /** Writes out what the buffer holds, now. */
  flushSync(): void;
}

const BLOCK_BYTES = 16 * 1024;
const FLUSH_EVERY_MS = 1000;
/** How long a write waits when the reader of a non-blocking pipe is behind (EAGAIN). */
const BUSY_WAIT_MS = 10;

/**
 * Lines gathered in a fixed block and written to `fd` once `blockBytes` are waiting (and every
 * `flushEveryMs`, and at flush).
 */
export class BufferedOutput implements LogDestination {
  private readonly block: Buffer;
  private used = 0;
  /** Set once the output is gone (EPIPE, EBADF): nothing more is kept for it. */
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly blockBytes = BLOCK_BYTES,
    flushEveryMs = FLUSH_EVERY_MS,
  ) {
    // Room for a full block and one more line of the usual size behind it.
    this.block = Buffer.allocUnsafe(blockBytes * 2);
    if (flushEveryMs > 0) setInterval(() => this.flushSync(), flushEveryMs).unref();
  }

  write(line: string): boolean {
    if (this.closed) return true;
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const most = line.length * 3;
    if (this.used + most > this.block.length) {
      this.flushSync();
      if (most > this.block.length) {
        this.writeOut(Buffer.from(line, 'utf8'), 0);
        return true;
      }
    }
    this.used += this.block.write(line, this.used, 'utf8');
    if (this.used >= this.blockBytes) this.flushSync();
    return true;
  }

  flushSync(): void {
    if (this.used === 0) return;
    const length = this.used;
    this.used = 0;
    this.writeOut(this.block, length);
  }

  flush(done?: (err?: Error) => void): void {
    this.flushSync();
    done?.();
  }

  /** The first `length` bytes of `bytes` (all of them when 0), whole, however many writes it takes. */
  private writeOut(bytes: Buffer, length: number): void {
    const end = length === 0 ? bytes.length : length;
    let at = 0;
    while (at < end && !this.closed) {
      try {
        at += writeSync(this.fd, bytes, at, end - at);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EBUSY') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_WAIT_MS);
        } else {
          // The reader is gone: there is nowhere to write, now or later.
          this.closed = true;
        }
      }
    }
  }
}

let shared: BufferedOutput | undefined;

/**
 * The process's one buffered standard output (every logger in the process shares it: one buffer,
 * lines in order), written out when the process exits however it exits. A fatal error and the
 * signals (src/main.ts) end in process.exit, so in this flush too.
 */
export function stdoutDestination(): LogDestination {
  if (shared) return shared;
  const destination = new BufferedOutput(1);
  process.on('exit', () => destination.flushSync());
  shared = destination;
  return destination;
}

const WARN_LEVEL = 40; // pino's number for `warn`

/**
 * Marks a stream that reads only `lastLevel` of the metadata pino gives it, so a line written by
 * hand (src/http/pipeline/access-line.ts) need not set the rest.
 */
export const LEVEL_ONLY_METADATA = Symbol('levelOnlyMetadata');

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
    [LEVEL_ONLY_METADATA]: true,
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
