// CPU time a child process has used (user + system, all its threads), from /proc/PID/stat.
// Requests/s on a shared machine move with everyone else's load; the CPU a server spends per
// answer moves much less, so it is reported beside the throughput (serve, experiments/).
import { readFileSync } from 'node:fs';

// Linux reports utime and stime in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on.
const TICKS_PER_SEC = 100;

/** CPU ms used by `pid` so far; NaN where /proc is not there to read. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SEC;
  } catch {
    return Number.NaN;
  }
}
