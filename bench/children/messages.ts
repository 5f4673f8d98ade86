// The IPC protocol between the bench runner and its child processes (the service, the bare server).
import { readFileSync } from 'node:fs';

export interface MemoryReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Peak resident set size of the child so far, in bytes. */
  maxRss: number;
  /** RSS split by kind (Linux /proc/self/status): anonymous memory, and file-backed pages (code, mmap). */
  rssAnon: number;
  rssFile: number;
  threads: number;
}

function statusField(status: string, name: string): number {
  const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status);
  return m ? Number(m[1]) * (name === 'Threads' ? 1 : 1024) : Number.NaN;
}

/** A captured response the bare server replays byte for byte. */
export interface Route {
  path: string;
  /** Replayed to requests that accept gzip (the captured body is gzip), else to the others. */
  gzip: boolean;
  status: number;
  headers: Record<string, string>;
  /** The body, base64 (IPC carries JSON). */
  body: string;
  /**
   * Answer this long after the request arrived instead of at once: a burst's answers then all
   * leave together, as a cold burst's do once the portal page is in (the cold burst's floor).
   */
  delayMs?: number;
}

export type ToChild = { type: 'memory' } | { type: 'stop' } | { type: 'routes'; routes: Route[] };

export type FromChild =
  | { type: 'ready'; url: string }
  | { type: 'memory'; report: MemoryReport }
  | { type: 'error'; message: string };

export function memoryReport(): MemoryReport {
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    maxRss: process.resourceUsage().maxRSS * 1024,
    ...procStatus(),
  };
}

function procStatus(): Pick<MemoryReport, 'rssAnon' | 'rssFile' | 'threads'> {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // not Linux: the split is unknown
  }
  return {
    rssAnon: statusField(status, 'RssAnon'),
    rssFile: statusField(status, 'RssFile'),
    threads: statusField(status, 'Threads'),
  };
}

type Collect = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Memory-reducing full collections until the heap stops shrinking (needs --expose-gc; a no-op
 * without it). The "last resort" flavour also shrinks the young generation: a plain gc() leaves it
 * at whatever size the last burst of work grew it to (up to 64 MB on Node 24), so a before/after
 * RSS difference would count that growth as memory held by what was added in between.
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: Collect }).gc;
  if (gc === undefined) return;
  let before = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const now = process.memoryUsage().heapUsed;
    if (now >= before * 0.99) break;
    before = now;
  }
}

// Node (or Fastify) writes these itself, or they describe one connection, not the response.
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A captured response's headers, as a replaying server should send them (without the per-connection ones). */
export function replayHeaders(route: Route): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(route.headers))
    if (!PER_CONNECTION.has(name)) headers[name] = value;
  return headers;
}
