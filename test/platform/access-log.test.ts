// The default configuration logs one access line per request (LOG_LEVEL=info) through a buffered,
// asynchronous destination; no line may be lost on the ways out of the process: SIGTERM and a
// fatal error. Run over the compiled service as `npm start` runs it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { npmStartNodeArgs } from '../../scripts/npm-start.ts';
import { spawnService } from '../helpers/process.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string };
}

function parsed(lines: string[]): LogLine[] {
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
}

describe('access log of the default configuration', () => {
  let portal: FakePortal;
  const dirs: string[] = [];
  const cacheDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-access-log-'));
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    assert.ok(existsSync('dist/main.js'), 'dist/main.js is missing: `npm ci` or `npm run build` makes it');
    portal = await startFakePortal();
  });

  after(async () => {
    await portal?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('writes every request’s line by the time SIGTERM has stopped the service', async () => {
    const service = await spawnService(
      {
        EXCHANGE_BASE_URL: portal.url,
        CACHE_DIR: cacheDir(),
        RATE_LIMIT_PER_MINUTE: '0',
        PARSER_WARM_UP: 'false',
      },
      60_000,
      { compiled: true },
    );
    try {
      // Enough lines to fill the buffer several times, the last ones well under its threshold.
      const ids: string[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 25 }, () => request(`${service.url}/stocks/ENGRO/quote`)),
        );
        for (const res of answers) {
          assert.equal(res.statusCode, 200);
          await res.body.dump();
          ids.push(String(res.headers['x-request-id']));
        }
      }
      // The last answer is logged before SIGTERM: the front door writes the line when the response
      // is done, and the next request on this loop starts after it. One more request after it,
      // its line as last, makes sure the line of the last answer is not racing the signal.
      const last = await request(`${service.url}/health`);
      await last.body.dump();
      ids.push(String(last.headers['x-request-id']));
      service.child.kill('SIGTERM');
      const { code } = await service.exited;
      assert.equal(code, 0);
      const logged = new Set(
        parsed(service.logs).flatMap((line) => (line.msg === 'request completed' ? [line.reqId] : [])),
      );
      const missing = ids.filter((id) => !logged.has(id));
      assert.deepEqual(missing, [], `${missing.length} of ${ids.length} access lines missing`);
      const lines = parsed(service.logs);
      assert.equal(lines.at(-1)?.msg, 'shutting down');
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    }
  });

  it('writes the fatal error’s line before exiting with 1', async () => {
    // A port already taken: listening fails after start-up, an error nothing catches.
    const taken: Server = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [...npmStartNodeArgs(), 'dist/main.js'], {
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'info',
          EXCHANGE_BASE_URL: portal.url,
          CACHE_DIR: cacheDir(),
          PARSER_WARM_UP: 'false',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const [code] = (await once(child, 'close')) as [number | null];
      assert.equal(code, 1);
      const fatal = parsed(stdout.split('\n')).find((line) => line.level === 60);
      assert.ok(fatal, `no fatal line in:\n${stdout}`);
      assert.equal(fatal.msg, 'fatal error; exiting');
      assert.match(fatal.err?.message ?? '', /EADDRINUSE/);
    } finally {
      taken.close();
    }
  });
});
