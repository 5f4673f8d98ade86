// Load generation against one server (the measured server is alone in its own process). wrk when
// it is installed (Debian package `wrk`), else autocannon. wrk is C and reads bodies without
// looking at them; autocannon decodes every body chunk as text, which for a 30 KB gzip body capped
// it at ~800 req/s while wrk did ~22,000 against the same bare server (bench/README.md): on two
// shared cores the load generator's cost is part of every figure, so the cheaper client is used.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSec: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  total: number;
  /** Connection errors, timeouts and non-2xx answers: any of them invalidates the run. */
  failures: number;
  bytesPerSec: number;
}

const run = promisify(execFile);
const WRK_SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));
const WRK = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p));

/** Which client the figures come from, for the report. */
export const LOAD_CLIENT = WRK !== undefined ? 'wrk (1 thread)' : 'autocannon';

export async function load(
  url: string,
  connections: number,
  durationSec: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  return WRK !== undefined
    ? withWrk(WRK, url, connections, durationSec, headers)
    : withAutocannon(url, connections, durationSec, headers);
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  bytes: number;
  p50: number;
  p99: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

async function withWrk(
  wrk: string,
  url: string,
  connections: number,
  durationSec: number,
  headers: Record<string, string>,
): Promise<LoadResult> {
  const args = ['-t1', `-c${connections}`, `-d${durationSec}s`, '--timeout', '10s', '-s', WRK_SCRIPT];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const { stdout } = await run(wrk, [...args, url], { maxBuffer: 1 << 20 });
  const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (line === undefined) throw new Error(`wrk printed no summary:\n${stdout}`);
  const s = JSON.parse(line) as WrkSummary;
  const seconds = s.durationUs / 1e6;
  return {
    requestsPerSec: s.requests / seconds,
    p50: s.p50 / 1000,
    p99: s.p99 / 1000,
    total: s.requests,
    failures: s.connect + s.read + s.write + s.status + s.timeout,
    bytesPerSec: s.bytes / seconds,
  };
}

async function withAutocannon(
  url: string,
  connections: number,
  durationSec: number,
  headers: Record<string, string>,
): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration: durationSec, pipelining: 1, headers });
  return {
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    failures: r.errors + r.timeouts + r.non2xx,
    bytesPerSec: r.throughput.average,
  };
}
