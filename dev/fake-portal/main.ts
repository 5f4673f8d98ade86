// CLI: runs the fake portal as its own process (demo, benchmarks, multi-process tests).
//   tsx dev/fake-portal/main.ts --port 8100 [--delay-ms N] [--extra-symbols N] [--history-rows N]
//                               [--token-rotate-ms N] [--tick-ms N]
import { parseArgs } from 'node:util';
import { startFakePortal } from './server.ts';

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8100' },
    'delay-ms': { type: 'string' },
    'extra-symbols': { type: 'string' },
    'history-rows': { type: 'string' },
    'token-rotate-ms': { type: 'string' },
    'tick-ms': { type: 'string' },
  },
});

const portal = await startFakePortal({
  port: intOption(values.port, 'port'),
  delayMs: intOption(values['delay-ms'], 'delay-ms'),
  extraSymbols: intOption(values['extra-symbols'], 'extra-symbols'),
  historyRows: intOption(values['history-rows'], 'history-rows'),
  tokenRotateMs: intOption(values['token-rotate-ms'], 'token-rotate-ms'),
  tickMs: intOption(values['tick-ms'], 'tick-ms'),
});
console.log(`fake portal listening on ${portal.url}`);

let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  void portal.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
