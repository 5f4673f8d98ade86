// Node 20's test runner neither expands globs nor discovers .ts files: list them here, and fail
// loudly when none are found so CI can never pass on zero tests.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = collect('test').sort();
if (filter.length > 0) files = files.filter((f) => filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-force-exit',
    '--test-reporter',
    'tap',
    '--test-concurrency',
    '2',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
