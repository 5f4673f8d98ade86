// The machine description printed at the top of every report: results only compare within one
// machine, so the report says which one (and how busy it was when the run started).
import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, release, totalmem, type } from 'node:os';

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  os: string;
  node: string;
  v8: string;
  /** 1-minute load average when the run started: > ~0.5 means someone else was busy too. */
  loadAverage1m: number;
  gitCommit: string;
  /** Uncommitted changes under src/ when the run started (the service is measured as it is on disk). */
  srcDirty: boolean;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function describeMachine(): Machine {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    v8: process.versions.v8,
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    gitCommit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
    srcDirty: git(['status', '--porcelain', '--', 'src']).length > 0,
  };
}

export function machineMarkdown(m: Machine): string {
  return [
    `- CPU: ${m.cpuModel}, ${m.cores} cores; memory ${m.memoryGiB} GiB (${m.freeMemoryGiB} GiB free at start)`,
    `- OS: ${m.os}; Node ${m.node} (V8 ${m.v8})`,
    `- Load average (1 min) at start: ${m.loadAverage1m}`,
    `- Commit: ${m.gitCommit}${m.srcDirty ? ' + uncommitted changes under src/' : ''}`,
  ].join('\n');
}
