// `npm run bench [-- NAME…]`: runs the benchmarks (all, or the named ones: parse, serve,
// cold-burst, memory, startup), prints every figure beside its target, and writes bench/results/latest.md
// and latest.json (sections not run keep their previous results). Exit code 1 when a target fails.
// BENCH_CPU_PROF=1 profiles the child processes (bench/results/tmp/profiles/).
import { loadavg } from 'node:os';
import { runAnalytics } from './analytics.ts';
import { runColdBurst } from './cold-burst.ts';
import { describeMachine } from './machine.ts';
import { runMcp } from './mcp.ts';
import { runMemory } from './memory.ts';
import { runParse } from './parse.ts';
import {
  BENCH_NAMES,
  consoleLines,
  RESULTS_DIR,
  verdict,
  writeResults,
  type BenchName,
  type Section,
} from './report.ts';
import { runServe } from './serve.ts';
import { runStartup } from './startup.ts';
import { runStream } from './stream.ts';
import { runArchive } from './archive.ts';
import { runParquet } from './parquet.ts';
import { runSoak } from './soak.ts';
import { runArchiveFiles } from './archive-files.ts';
import { sleep } from './stats.ts';

const RUNNERS: Record<BenchName, () => Promise<Section>> = {
  parse: runParse,
  serve: runServe,
  'cold-burst': runColdBurst,
  memory: runMemory,
  startup: runStartup,
  stream: runStream,
  mcp: runMcp,
  analytics: runAnalytics,
  archive: runArchive,
  parquet: runParquet,
  soak: runSoak,
  'archive-files': runArchiveFiles,
};

function selected(args: string[]): BenchName[] {
  const names = args.filter((a) => !a.startsWith('-'));
  if (names.length === 0) return [...BENCH_NAMES];
  const unknown = names.filter((n) => !(BENCH_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${BENCH_NAMES.join(', ')}`);
    process.exit(2);
  }
  return names as BenchName[];
}

/**
 * The machine is shared: with BENCH_QUIET_WAIT_SEC=N, wait up to N seconds for the 1-minute load
 * average to fall below half the cores before each benchmark (it never blocks the run).
 */
async function waitForQuiet(cores: number): Promise<void> {
  const limitSec = Number(process.env.BENCH_QUIET_WAIT_SEC ?? 0);
  const deadline = Date.now() + limitSec * 1000;
  while (Date.now() < deadline && (loadavg()[0] ?? 0) > cores / 2) await sleep(5000);
}

async function main(): Promise<void> {
  const names = selected(process.argv.slice(2));
  const machine = describeMachine();
  console.log(
    `bench: ${names.join(', ')} on ${machine.cpuModel} × ${machine.cores}, Node ${machine.node}, load ${machine.loadAverage1m}`,
  );
  if (machine.loadAverage1m > machine.cores / 2) {
    console.log(
      `bench: the machine is busy (load ${machine.loadAverage1m} on ${machine.cores} cores): expect noisy figures`,
    );
  }
  const sections: Section[] = [];
  for (const name of names) {
    await waitForQuiet(machine.cores);
    console.log(`\nbench: ${name}…`);
    const section = await RUNNERS[name]();
    const load = Math.round((loadavg()[0] ?? 0) * 100) / 100;
    section.notes.push(
      `Load average (1 min): ${section.machine.loadAverage1m} at start, ${load} at end (${machine.cores} cores).`,
    );
    sections.push(section);
    console.log(consoleLines(section).join('\n'));
  }
  writeResults(sections, describeMachine());
  const failed = sections.flatMap((s) => s.figures.filter((f) => verdict(f) === 'FAIL').map((f) => f.label));
  console.log(`\nbench: results in ${RESULTS_DIR}latest.md and latest.json`);
  console.log(
    failed.length === 0
      ? 'bench: every target holds'
      : `bench: ${failed.length} target(s) missed:\n  ${failed.join('\n  ')}`,
  );
  process.exitCode = failed.length === 0 ? 0 : 1;
}

await main();
