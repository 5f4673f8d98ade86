// Memory-reducing collections: one once the service is listening and warmed up, and one each time
// it falls idle after a busy spell. Loading modules, compiling route schemas and warming the parsers
// make V8 grow its young generation to its maximum (two 32 MB semi-spaces on 64-bit Node 24), and so
// does a busy minute; V8 shrinks it again, and gives back the old generation's emptied pages, only
// during a collection that runs while memory is scarce or allocation is slow, which an idle process
// never triggers. An idle replica would otherwise hold its last busy spell's garbage for good.
// The collection shrinks the young generation to its floor, and V8 grows it again only as objects
// survive, which a request's garbage does not: at V8's default floor it stays small under load and
// every answer pays for many more scavenges. So `npm start` and the image set the floor
// (`--min-semi-space-size=16`): the idle pages are still given back here, and the first busy second
// takes the young generation back to its full size. Figures: bench/README.md, "Start-up" and "Soak".
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Runs a full, memory-reducing collection (V8's "last resort" flavour, which also shrinks the young
 * generation). `gc` is exposed for a fresh context only, the way jest's leak detector does it, so no
 * command-line flag has to follow the service to every way it is started.
 */
export function compactHeap(): void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as Collect;
  setFlagsFromString('--no-expose-gc');
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export interface IdleCompaction {
  /** How often the process is looked at; default 10 s. */
  everyMs?: number;
  /** Idle: CPU time spent in the last period below this share of it; default 2 %. */
  idleCpuShare?: number;
  /** Compact only when RSS grew this much since the last compaction; default 24 MB. */
  growthBytes?: number;
  /** Called just before each compaction: caches that are cheap to remake let go of their memory. */
  beforeCompact?: () => void;
  /** Called after each compaction (for the log), with RSS before and after. */
  onCompact?: (rssBefore: number, rssAfter: number) => void;
}

/**
 * Compacts the heap when the process has fallen idle (a period in which it used almost no CPU)
 * after its RSS grew since the last compaction: a burst's young generation and emptied old-space
 * pages go back to the system within one or two periods of the last request. The collection blocks
 * for tens of milliseconds, which is why it waits for an idle period rather than a timer alone; a
 * process that stays busy is never interrupted. Returns a function that stops it.
 */
export function compactWhenIdle(opts: IdleCompaction = {}): () => void {
  const everyMs = opts.everyMs ?? 10_000;
  const idleCpuShare = opts.idleCpuShare ?? 0.02;
  const growthBytes = opts.growthBytes ?? 24 * 1024 * 1024;
  let baseline = process.memoryUsage.rss();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const used = process.cpuUsage(lastCpu);
    lastCpu = process.cpuUsage();
    if ((used.user + used.system) / 1000 > everyMs * idleCpuShare) return;
    const before = process.memoryUsage.rss();
    if (before - baseline < growthBytes) return;
    opts.beforeCompact?.();
    compactHeap();
    baseline = process.memoryUsage.rss();
    // What the collection could not give back (a fuller cache) is the new floor: no compaction
    // again until the process grows past it.
    lastCpu = process.cpuUsage();
    opts.onCompact?.(before, baseline);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
