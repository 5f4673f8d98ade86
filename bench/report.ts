// Results: each benchmark returns a Section; the runner prints its figures beside their targets and
// writes bench/results/latest.json and latest.md. Running one benchmark replaces its own section
// and keeps the others from the previous run (each section carries its own timestamp).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machineMarkdown, type Machine } from './machine.ts';
import { round } from './stats.ts';

export const BENCH_NAMES = [
  'parse',
  'serve',
  'cold-burst',
  'memory',
  'startup',
  'stream',
  'mcp',
  'analytics',
  'archive',
  'parquet',
  'soak',
  'archive-files',
] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

export interface Target {
  op: '<=' | '>=' | '==';
  limit: number;
}

export interface Figure {
  /** Stable key, for diffing runs. */
  id: string;
  label: string;
  value: number;
  unit: string;
  /** Figures without a target are informational. */
  target?: Target;
}

export interface DetailTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface Section {
  id: BenchName;
  title: string;
  startedAt: string;
  durationSec: number;
  machine: Machine;
  figures: Figure[];
  tables: DetailTable[];
  notes: string[];
}

export interface Results {
  generatedAt: string;
  sections: Partial<Record<BenchName, Section>>;
}

export type Verdict = 'PASS' | 'FAIL' | 'info';

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const JSON_PATH = `${RESULTS_DIR}latest.json`;
const MD_PATH = `${RESULTS_DIR}latest.md`;

export function verdict(f: Figure): Verdict {
  if (f.target === undefined) return 'info';
  const { op, limit } = f.target;
  const ok = op === '<=' ? f.value <= limit : op === '>=' ? f.value >= limit : f.value === limit;
  return ok && Number.isFinite(f.value) ? 'PASS' : 'FAIL';
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const v = round(value);
  const text = Math.abs(v) >= 10_000 ? v.toLocaleString('en-US') : String(v);
  return unit === '' ? text : `${text} ${unit}`;
}

function formatTarget(f: Figure): string {
  if (f.target === undefined) return '';
  const op = f.target.op === '<=' ? '≤' : f.target.op === '>=' ? '≥' : '=';
  return `${op} ${formatValue(f.target.limit, f.unit)}`;
}

/** The console lines for a section: every figure beside its ceiling/floor and its verdict. */
export function consoleLines(section: Section): string[] {
  const width = Math.max(...section.figures.map((f) => f.label.length), 10);
  const lines = [`\n== ${section.title} (${round(section.durationSec)} s)`];
  for (const f of section.figures) {
    const v = verdict(f);
    const value = formatValue(f.value, f.unit).padStart(14);
    const target = formatTarget(f).padEnd(14);
    lines.push(`  ${f.label.padEnd(width)} ${value}   target ${target} ${v === 'info' ? '' : v}`);
  }
  for (const note of section.notes) lines.push(`  note: ${note}`);
  return lines;
}

export function readResults(): Results {
  if (!existsSync(JSON_PATH)) return { generatedAt: '', sections: {} };
  try {
    return JSON.parse(readFileSync(JSON_PATH, 'utf8')) as Results;
  } catch {
    return { generatedAt: '', sections: {} };
  }
}

function cell(value: string | number): string {
  const text = typeof value === 'number' ? formatValue(value, '') : value;
  return text.replace(/\|/g, '\\|');
}

function markdownTable(columns: string[], rows: (string | number)[][]): string {
  const head = `| ${columns.join(' | ')} |`;
  const rule = `|${columns.map(() => '---').join('|')}|`;
  return [head, rule, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

export function renderMarkdown(results: Results, machine: Machine): string {
  const out: string[] = [
    '# Benchmark results',
    '',
    `Generated ${results.generatedAt} by \`npm run bench\` (see bench/README.md). Medians of several`,
    'runs on a shared, noisy 2-core machine: compare figures within one machine only.',
    '',
    '## Machine',
    '',
    machineMarkdown(machine),
    '',
    '## Targets',
    '',
  ];
  const summary: (string | number)[][] = [];
  for (const name of BENCH_NAMES) {
    const s = results.sections[name];
    if (!s) continue;
    for (const f of s.figures) {
      if (f.target) summary.push([f.label, formatValue(f.value, f.unit), formatTarget(f), verdict(f)]);
    }
  }
  out.push(markdownTable(['figure', 'measured', 'target', 'verdict'], summary), '');
  for (const name of BENCH_NAMES) {
    const s = results.sections[name];
    if (!s) continue;
    out.push(
      `## ${s.title}`,
      '',
      `Run ${s.startedAt}, ${round(s.durationSec)} s, load average at start ${s.machine.loadAverage1m}.`,
      '',
    );
    out.push(
      markdownTable(
        ['figure', 'measured', 'target', 'verdict'],
        s.figures.map((f) => [f.label, formatValue(f.value, f.unit), formatTarget(f), verdict(f)]),
      ),
      '',
    );
    for (const t of s.tables) out.push(`### ${t.title}`, '', markdownTable(t.columns, t.rows), '');
    if (s.notes.length > 0) out.push(...s.notes.map((n) => `- ${n}`), '');
  }
  return out.join('\n');
}

/** Merge new sections into the committed results and rewrite both files. */
export function writeResults(sections: Section[], machine: Machine): Results {
  const results = readResults();
  for (const s of sections) results.sections[s.id] = s;
  results.generatedAt = new Date().toISOString();
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(JSON_PATH, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(MD_PATH, renderMarkdown(results, machine));
  return results;
}
