// The service's logger (createLogger): lines wait in the 4 KB buffer until a warning, which is
// written at once with every line before it; a caller's proxy credentials in request headers are
// redacted; the front door's access line, written without the redaction, carries no headers.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { request } from 'undici';
import { startFakePortal } from '../../dev/fake-portal/server.ts';
import { createLogger } from '../../src/service.ts';
import { startService } from '../helpers/service.ts';

const dir = mkdtempSync(join(tmpdir(), 'psxmd-log-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function buffered(name: string): { file: string; destination: ReturnType<typeof pino.destination> } {
  const file = join(dir, name);
  return { file, destination: pino.destination({ dest: file, sync: true, minLength: 4096, mkdir: true }) };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the service logger', () => {
  it('keeps info lines in the buffer and writes them out with the first warning, in order', () => {
    const { file, destination } = buffered('flush.log');
    const logger = createLogger('info', destination);
    logger.info('first');
    logger.info('second');
    assert.equal(readFileSync(file, 'utf8'), '', 'info lines wait in the buffer');
    logger.warn('third');
    assert.deepEqual(
      lines(file).map((l) => l.msg),
      ['first', 'second', 'third'],
    );
    logger.info('fourth');
    logger.child({ reqId: 'r1' }).error('fifth');
    assert.deepEqual(
      lines(file).map((l) => l.msg),
      ['first', 'second', 'third', 'fourth', 'fifth'],
    );
    logger.info('sixth');
    logger.flush();
    assert.equal(lines(file).at(-1)?.msg, 'sixth', 'logger.flush() writes the buffer out');
  });

  it('redacts proxy credentials and authorization in request headers', () => {
    const { file, destination } = buffered('redact.log');
    const logger = createLogger('info', destination);
    logger.child({ reqId: 'r2' }).warn({
      req: {
        method: 'GET',
        headers: {
          'x-exchange-proxy': 'http://user:secret@proxy.example:8080',
          'x-psx-proxy': 'http://user:secret@proxy.example:8081',
          authorization: 'Bearer secret',
          accept: 'application/json',
        },
      },
    });
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /secret/);
    const headers = (lines(file)[0]?.req as { headers: Record<string, string> }).headers;
    assert.equal(headers['x-exchange-proxy'], '[redacted]');
    assert.equal(headers['x-psx-proxy'], '[redacted]');
    assert.equal(headers.authorization, '[redacted]');
    assert.equal(headers.accept, 'application/json');
  });

  it('writes the access line without headers, credentials included', async () => {
    const portal = await startFakePortal();
    const logLines: string[] = [];
    const svc = await startService(portal.url, { LOG_LEVEL: 'info' }, { logLines });
    try {
      const res = await request(`${svc.url}/health`, {
        headers: { 'x-exchange-proxy': 'http://user:secret@127.0.0.1:9', authorization: 'Bearer secret' },
      });
      await res.body.dump();
      const id = String(res.headers['x-request-id']);
      const access = logLines
        .map((l) => JSON.parse(l))
        .find((l) => l.reqId === id && l.msg === 'request completed');
      assert.ok(access, 'the access line');
      assert.deepEqual(Object.keys(access.req).sort(), ['method', 'remoteAddress', 'url']);
      assert.doesNotMatch(logLines.join('\n'), /secret/);
    } finally {
      await svc.close();
      await portal.close();
    }
  });
});
