// CPU per access line: the front door's line through pino's log method (a child logger without
// redaction, as the front door wrote it before) against the hand-built line (src/http/pipeline/access-line.ts),
// both through the service's logger (createLogger) into buffered blocks written synchronously to
// /dev/null, as the service's standard output (src/log-destination.ts) with several block sizes;
// and each line built but written nowhere. Process CPU, rounds interleaved; min and median.
// `npx tsx bench/experiments/access-line.ts`
import { openSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { pino, type DestinationStream, type Logger } from 'pino';
import { accessLineOf } from '../../src/http/pipeline/access-line.ts';
import { BufferedOutput } from '../../src/log-destination.ts';
import { createLogger } from '../../src/service.ts';

const fd = openSync('/dev/null', 'w');
const LINES = 200_000;
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const ENTRY = {
  reqId: 'a1b2c3d4-0001',
  method: 'GET',
  url: '/stocks/ENGRO/quote',
  remoteAddress: '127.0.0.1',
  statusCode: 200,
  responseTime: 0.123456,
  aborted: false,
};

type Flushable = DestinationStream & { flush?: (cb: () => void) => void; flushSync?: () => void };
const blocks =
  (minLength: number): (() => Flushable) =>
  () =>
    pino.destination({ dest: fd, sync: true, minLength, maxWrite: Math.max(16 * 1024, 2 * minLength) });

function viaPino(logger: Logger): () => void {
  const child = logger.child({}, { redact: [] });
  const e = ENTRY;
  return () =>
    child.info(
      {
        reqId: e.reqId,
        req: { method: e.method, url: e.url, remoteAddress: e.remoteAddress },
        res: { statusCode: e.statusCode },
        responseTime: e.responseTime,
      },
      'request completed',
    );
}
function handBuilt(logger: Logger): () => void {
  const line = accessLineOf(logger, () => ENTRY.remoteAddress);
  const req = new IncomingMessage(new Socket());
  req.method = ENTRY.method;
  req.url = ENTRY.url;
  req.headers = { 'x-request-id': ENTRY.reqId };
  return () => {
    if (line.enabled()) line.write(req, ENTRY.statusCode, ENTRY.responseTime, ENTRY.aborted);
  };
}

const fixed =
  (blockBytes: number): (() => Flushable) =>
  () =>
    new BufferedOutput(fd, blockBytes, 0);

const VARIANTS: Record<string, [() => Flushable, (l: Logger) => () => void]> = {
  'pino, 4 KB blocks': [blocks(4096), viaPino],
  'hand-built, 4 KB blocks': [blocks(4096), handBuilt],
  'hand-built, 16 KB blocks': [blocks(16 * 1024), handBuilt],
  'hand-built, 64 KB blocks': [blocks(64 * 1024), handBuilt],
  'pino, fixed 16 KB block': [fixed(16 * 1024), viaPino],
  'hand-built, fixed 4 KB block': [fixed(4096), handBuilt],
  'hand-built, fixed 16 KB block': [fixed(16 * 1024), handBuilt],
  'hand-built, fixed 64 KB block': [fixed(64 * 1024), handBuilt],
  'pino, no write': [() => ({ write() {} }), viaPino],
  'hand-built, no write': [() => ({ write() {} }), handBuilt],
};

const results: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, [make, writer]] of Object.entries(VARIANTS)) {
    const destination = make();
    const log = writer(createLogger('info', destination));
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < LINES; i++) log();
    destination.flushSync?.();
    const cpu = process.cpuUsage(cpu0);
    (results[name] ??= []).push((cpu.user + cpu.system) / LINES);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, r] of Object.entries(results)) {
  console.log(
    `${name.padEnd(28)} µs CPU per line: min ${Math.min(...r).toFixed(3)} median ${median(r).toFixed(3)}`,
  );
}
