// One memory-reducing collection once the service is listening and warmed up. Loading modules,
// compiling route schemas and warming the parsers make V8 grow its young generation to its
// maximum (two 32 MB semi-spaces on 64-bit Node 24), and V8 shrinks it again only during a
// collection that runs while memory is scarce or allocation is slow, which an idle process never
// triggers. An idle replica would otherwise hold ~40 MB of start-up garbage until its first busy
// minute (bench/README.md, start-up).
// The collection shrinks the young generation to its floor, and V8 grows it again only as objects
// survive, which a request's garbage does not: at V8's default floor it stays small under load and
// every answer pays for many more scavenges. So `npm start` and the image set the floor
// (`--min-semi-space-size=16`): the idle pages are still given back here, and the first busy second
// takes the young generation back to its full size (bench/README.md, "the young generation's floor").
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
