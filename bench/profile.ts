// Summarises V8 CPU profiles (.cpuprofile from `node --cpu-prof`, or BENCH_CPU_PROF=1 for the
// bench's children): the functions with the most self time and the most inclusive time, so a run
// can be read without a flame-graph viewer. Usage: tsx bench/profile.ts FILE.cpuprofile [TOP]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  selfMs: number;
  totalMs: number;
}

function frameName(f: CallFrame): string {
  const file = f.url.startsWith('file://') ? relative(process.cwd(), new URL(f.url).pathname) : f.url;
  const where = file === '' ? '' : ` ${file}:${f.lineNumber + 1}`;
  return `${f.functionName || '(anonymous)'}${where}`;
}

export function summarise(profile: CpuProfile): { totalMs: number; lines: ProfileLine[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + us);
    // Inclusive: every distinct frame on the stack gets the sample once (recursion counted once).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n) break;
      const nm = frameName(n.callFrame);
      if (seen.has(nm)) continue;
      seen.add(nm);
      total.set(nm, (total.get(nm) ?? 0) + us);
    }
  }
  const lines = [...total.keys()].map((name) => ({
    name,
    selfMs: (self.get(name) ?? 0) / 1000,
    totalMs: (total.get(name) ?? 0) / 1000,
  }));
  return { totalMs: (profile.endTime - profile.startTime) / 1000, lines };
}

function print(file: string, top: number): void {
  const { totalMs, lines } = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  // Percentages of the busy time: a bench child idles while the other side is measured.
  const idleMs = lines.find((l) => l.name === '(idle)')?.selfMs ?? 0;
  const busyMs = totalMs - idleMs;
  const pct = (ms: number): string => `${((ms / busyMs) * 100).toFixed(1).padStart(5)} %`;
  console.log(
    `${file}: ${Math.round(totalMs)} ms profiled, ${Math.round(busyMs)} ms busy (percentages of busy)`,
  );
  console.log('\nself time:');
  for (const l of [...lines].sort((a, b) => b.selfMs - a.selfMs).slice(0, top))
    console.log(`  ${pct(l.selfMs)}  ${l.name}`);
  console.log('\ninclusive time:');
  for (const l of [...lines].sort((a, b) => b.totalMs - a.totalMs).slice(0, top))
    console.log(`  ${pct(l.totalMs)}  ${l.name}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: tsx bench/profile.ts FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  print(file, Number(top ?? 25));
}
