// `npm run lint:openapi` (part of `npm run check`): the service's OpenAPI document, built by the
// app exactly as it serves /openapi.json, linted by two maintained OpenAPI linters — Redocly CLI
// (its `recommended` rules) and Spectral (`spectral:oas`) — at zero errors and zero warnings.
// Offline: both read the document from a temporary file; nothing is fetched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApiDocument } from './gen-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'psxmd-openapi-'));
const doc = join(dir, 'openapi.json');
const redoclyConfig = join(dir, 'redocly.yaml');
const spectralRules = join(dir, '.spectral.json');
let failed = false;
try {
  writeFileSync(doc, JSON.stringify(await openApiDocument(), null, 2));
  writeFileSync(redoclyConfig, 'extends:\n  - recommended\n');
  writeFileSync(spectralRules, JSON.stringify({ extends: ['spectral:oas'] }));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const runs: Array<[string, string[]]> = [
    ['redocly', ['lint', doc, '--config', redoclyConfig, '--max-problems', '1000']],
    ['spectral', ['lint', doc, '--ruleset', spectralRules, '--fail-severity', 'warn']],
  ];
  for (const [bin, args] of runs) {
    const run = spawnSync(join('node_modules', '.bin', bin), args, { stdio: 'inherit', env });
    if (run.status !== 0) {
      console.error(`${bin}: the OpenAPI document has problems (exit ${run.status})`);
      failed = true;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
