// CPU per access line for pino's destinations, written to /dev/null: pino's default (one write per
// line), buffered 4 KB blocks written synchronously, buffered 4 KB blocks written asynchronously
// (sync: false), the service's own buffered output (src/log-destination.ts: a fixed 16 KB block),
// and no write at all (serialising only). The front door's hand-built line: access-line.ts. Process CPU and the main thread's own CPU, rounds interleaved; min and median of rounds.
// `npx tsx bench/experiments/log-destination.ts`
import { openSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';
import { BufferedOutput } from '../../src/log-destination.ts';

const fd = openSync('/dev/null', 'w');
const LINES = 200_000;
const ROUNDS = 6;
// The front door's access line (src/http/pipeline/front-door.ts).
const LINE = {
  reqId: 'a1b2c3d4-0001',
  req: { method: 'GET', url: '/stocks/ENGRO/quote', remoteAddress: '127.0.0.1' },
  res: { statusCode: 200 },
  responseTime: 0.123456,
};

type Flushable = DestinationStream & { flush?: (cb: () => void) => void };
const VARIANTS: Record<string, () => Flushable> = {
  'one write per line (pino default)': () => pino.destination({ dest: fd, sync: true }),
  '4 KB blocks, synchronous': () => pino.destination({ dest: fd, sync: true, minLength: 4096 }),
  '4 KB blocks, asynchronous': () => pino.destination({ dest: fd, sync: false, minLength: 4096 }),
  'fixed 16 KB block (service)': () => new BufferedOutput(fd, 16 * 1024, 0),
  'no write (serialising only)': () => ({ write() {} }),
};

const results: Record<string, { process: number[]; thread: number[] }> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, make] of Object.entries(VARIANTS)) {
    const destination = make();
    const logger = pino({ level: 'info' }, destination);
    const cpu0 = process.cpuUsage();
    const thread0 = process.threadCpuUsage();
    for (let i = 0; i < LINES; i++) {
      logger.info(LINE, 'request completed');
      // Let asynchronous writes complete as they would between requests.
      if (i % 50 === 0) await new Promise(setImmediate);
    }
    await new Promise<void>((resolve) =>
      destination.flush ? destination.flush(() => resolve()) : resolve(),
    );
    const cpu = process.cpuUsage(cpu0);
    const thread = process.threadCpuUsage(thread0);
    const r = (results[name] ??= { process: [], thread: [] });
    r.process.push((cpu.user + cpu.system) / LINES);
    r.thread.push((thread.user + thread.system) / LINES);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(36)} process µs/line min ${Math.min(...r.process).toFixed(2)} median ${median(r.process).toFixed(2)}` +
      ` | main thread min ${Math.min(...r.thread).toFixed(2)} median ${median(r.thread).toFixed(2)}`,
  );
}
