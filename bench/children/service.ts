// Bench-only entry: the real service (createService, configured from the environment like
// src/main.ts) in its own process, so load generators in the runner do not share its CPU. It
// reports its memory over IPC after full GCs instead of through any HTTP endpoint, keeping src/
// free of debug routes.
import { loadConfig } from '../../src/config.ts';
import { createLogger, createService } from '../../src/service.ts';
import { collectGarbage, memoryReport, type FromChild, type ToChild } from './messages.ts';

function send(msg: FromChild): void {
  process.send?.(msg);
}

const config = loadConfig(process.env);
const service = await createService(config, createLogger(config.logLevel));
const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
// As src/main.ts: warmed parsers and a compacted heap before the runner starts measuring.
service.warmUp();

// After a full GC V8 hands freed pages back to the OS from a background thread, and glibc its
// freed blocks as they are released: read right after the GC, RSS still counted up to ~90 MB that
// was gone 2 s later (412 → 325 MB in one run; bench/README.md, "Memory"). The report is the
// settled figure: GC, wait, GC again.
const SETTLE_MS = 2000;

process.on('message', (msg: ToChild) => {
  if (msg.type === 'memory') {
    collectGarbage();
    setTimeout(() => {
      collectGarbage();
      send({ type: 'memory', report: memoryReport() });
    }, SETTLE_MS);
  } else if (msg.type === 'stop') {
    // A normal exit, so --cpu-prof can write its profile.
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', url });
