// The Python client (packages/python) over real HTTP: its unittest suite runs against the service
// and the fake portal started here, with Debian's python3 and python3-pandas (.ci/run installs
// them), and `pip install` of the package works offline (no package index).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { startService, type RunningService } from '../helpers/service.ts';

const PACKAGE = fileURLToPath(new URL('../../packages/python', import.meta.url));
// Debian's interpreter (the one python3-pandas installs into) before whatever else is on PATH.
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

interface Run {
  code: number | null;
  output: string;
}

function run(args: string[], env: Record<string, string> = {}, cwd = PACKAGE): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, args, {
      cwd,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PIP_NO_INDEX: '1', ...env },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let portal: FakePortal;
let svc: RunningService;
let limited: RunningService;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
  limited = await startService(portal.url, { RATE_LIMIT_PER_MINUTE: '1' });
});
after(async () => {
  await limited?.close();
  await svc?.close();
  await portal?.close();
});

describe('Python client', () => {
  it('has pandas where CI runs it', async () => {
    const res = await run(['-c', 'import pandas; print(pandas.__version__)']);
    assert.equal(res.code, 0, `${PYTHON} lacks pandas (apt-get install python3-pandas): ${res.output}`);
  });

  it('passes its unittest suite against the service', async () => {
    const res = await run(
      ['-W', 'error::ResourceWarning', '-m', 'unittest', 'discover', '-v', '-s', 'tests'],
      {
        PSX_BASE_URL: svc.url,
        PSX_LIMITED_URL: limited.url,
      },
    );
    assert.equal(res.code, 0, res.output);
    assert.match(res.output, /Ran \d+ tests/);
    assert.doesNotMatch(res.output, /skipped/, res.output);
  });

  it('installs with pip offline, and imports from where it was installed', async (t) => {
    if ((await run(['-m', 'pip', '--version'])).code !== 0) {
      t.skip(`no pip for ${PYTHON} (apt-get install python3-pip)`);
      return;
    }
    const target = mkdtempSync(join(tmpdir(), 'psxmd-pip-'));
    try {
      const install = await run([
        '-m',
        'pip',
        'install',
        '--no-index',
        '--no-cache-dir',
        '--target',
        target,
        PACKAGE,
      ]);
      assert.equal(install.code, 0, install.output);
      const imported = await run(
        [
          '-c',
          'import psx_market_data, sys; print(psx_market_data.__file__); print(psx_market_data.__version__)',
        ],
        { PYTHONPATH: target },
        tmpdir(),
      );
      assert.equal(imported.code, 0, imported.output);
      assert.ok(imported.output.startsWith(target), imported.output);
      assert.match(imported.output, /0\.1\.0/);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
