// Load generation with autocannon, in the runner process (the measured server is alone in its own).
import autocannon from 'autocannon';

export interface LoadResult {
  /** Mean of the per-second request counts. */
  requestsPerSec: number;
  /** Milliseconds (autocannon's histogram has 1 ms resolution). */
  p50: number;
  p99: number;
  total: number;
  /** Connection errors, timeouts and non-2xx answers: any of them invalidates the run. */
  failures: number;
  bytesPerSec: number;
}

export async function load(url: string, connections: number, durationSec: number): Promise<LoadResult> {
  const r = await autocannon({ url, connections, duration: durationSec, pipelining: 1 });
  return {
    requestsPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    failures: r.errors + r.timeouts + r.non2xx,
    bytesPerSec: r.throughput.average,
  };
}
