// The front door's access line is written by hand (src/http/pipeline/access-line.ts) into the logger's own
// stream. What a reader of the log relies on: each line is pino's line byte for byte (same fields,
// same order, valid JSON whatever the client put in the URL), it sits in order among pino's other
// lines in the one buffered standard output, and the logger's level decides whether it is written.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { connect, Socket } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { accessLineOf, jsonMilliseconds } from '../../src/http/pipeline/access-line.ts';
import { requestIdOf } from '../../src/http/pipeline/common-headers.ts';
import { createLogger } from '../../src/service.ts';
import { spawnService } from '../helpers/process.ts';
import { startService, type RunningService } from '../helpers/service.ts';

interface Line {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
  aborted?: boolean;
}

/** A request as Node's parser hands it over, with the fields the line reads. */
function requestOf(url: string | undefined, id: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  if (url !== undefined) req.url = url;
  req.headers = { 'x-request-id': id };
  return req;
}

const isAccess = (l: Line) => l.msg === 'request completed' || l.msg === 'request aborted';

/** Sends `path` as written, bytes and all, on a raw connection; resolves with the status line. */
async function rawGet(url: string, path: Buffer, id: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    Buffer.concat([
      Buffer.from('GET '),
      path,
      Buffer.from(` HTTP/1.1\r\nhost: ${hostname}\r\nx-request-id: ${id}\r\nconnection: close\r\n\r\n`),
    ]),
  );
  let answer = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
  await once(socket, 'close');
  return answer.split('\r\n')[0] ?? '';
}

describe('the hand-built access line', () => {
  let portal: FakePortal;
  const services: RunningService[] = [];
  const dirs: string[] = [];

  before(async () => {
    portal = await startFakePortal();
  });
  after(async () => {
    for (const svc of services) await svc.close();
    await portal?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function logged(env: Record<string, string> = {}) {
    const lines: string[] = [];
    const svc = await startService(portal.url, { LOG_LEVEL: 'info', ...env }, { logLines: lines });
    services.push(svc);
    return { svc, lines, parsed: () => lines.map((l) => JSON.parse(l) as Line) };
  }

  it('is the line pino writes for the same fields, byte for byte, whatever the strings hold', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void written.push(line) });
    let address = '';
    const line = accessLineOf(logger, () => address);
    const viaPino = logger.child({}, { redact: [] });
    const strange = [
      '/stocks/ENGRO/quote',
      '/a"b\\c',
      '/\u0001\u001f\t\n\u007f',
      '/é/漢字/😀/\u2028',
      '/lone\ud800surrogate\udc00',
      '',
    ];
    for (const url of strange) {
      for (const aborted of [false, true]) {
        // A caller's id of anything but token characters is replaced (requestIdOf), so the line
        // never has an id to escape; the URL and the address (from a forwarded header) may hold anything.
        const req = requestOf(url, `id-${url}`);
        address = `::ffff:127.0.0.1${url}`;
        line.write(req, 200, 1.234567, aborted);
        viaPino.info(
          {
            reqId: requestIdOf(req),
            req: { method: req.method, url: req.url, remoteAddress: address },
            res: { statusCode: 200 },
            responseTime: Math.round(1.234567 * 1000) / 1000,
            ...(aborted ? { aborted: true } : {}),
          },
          aborted ? 'request aborted' : 'request completed',
        );
        const [mine, pinos] = written.splice(0, 2).map((l) => l.replace(/"time":\d+/, '"time":0'));
        const parsed = JSON.parse(mine!) as Line;
        assert.equal(parsed.req?.url, url, 'the URL survives the round trip through JSON');
        assert.equal(parsed.req?.remoteAddress, address, 'so does the address');
        assert.equal(mine, pinos);
      }
    }
  });

  it('writes responseTime to the microsecond, as JSON writes the rounded number', () => {
    const cases = [
      0,
      2,
      1.05,
      1.2345,
      0.28391599655151367,
      0.0004,
      0.0005,
      999.9996,
      12345.000001,
      -1.5,
      1e12 + 0.5,
    ];
    for (const ms of cases) {
      assert.equal(jsonMilliseconds(ms), JSON.stringify(Math.round(ms * 1000) / 1000), String(ms));
    }
    assert.equal(jsonMilliseconds(0.28391599655151367), '0.284');
    assert.equal(jsonMilliseconds(Number.NaN), 'null');
    assert.equal(jsonMilliseconds(Number.POSITIVE_INFINITY), 'null');
  });

  it('goes through pino for a logger whose lines the template would not reproduce', () => {
    const written: string[] = [];
    const logger = pino(
      { mixin: () => ({ zone: 'pk' }) },
      { write: (line: string) => void written.push(line) },
    );
    accessLineOf(logger, () => '127.0.0.1').write(requestOf('/health', 'mixed'), 200, 1, false);
    const line = JSON.parse(written[0]!) as Line & { zone?: string };
    assert.equal(line.zone, 'pk', 'the mixin’s field, as pino adds it');
    assert.equal(line.reqId, 'mixed');
  });

  it('carries the fields of the answer over HTTP, each line valid JSON whatever the URL holds', async () => {
    const { svc, parsed } = await logged();
    const res = await request(`${svc.url}/stocks/ENGRO/quote`, { headers: { 'x-request-id': 'quote-1' } });
    await res.body.dump();
    const quote = parsed().find((l) => l.reqId === 'quote-1');
    assert.ok(quote, 'the access line of the quote');
    assert.deepEqual(Object.keys(quote), [
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'req',
      'res',
      'responseTime',
      'msg',
    ]);
    assert.equal(quote.level, 30);
    assert.ok(Math.abs(quote.time - Date.now()) < 60_000, 'the time is the epoch in ms');
    assert.equal(quote.pid, process.pid);
    assert.equal(typeof quote.hostname, 'string');
    assert.deepEqual(quote.req, { method: 'GET', url: '/stocks/ENGRO/quote', remoteAddress: '127.0.0.1' });
    assert.deepEqual(quote.res, { statusCode: 200 });
    assert.equal(typeof quote.responseTime, 'number');
    assert.ok(quote.responseTime! >= 0 && quote.responseTime! < 60_000);
    assert.equal(quote.msg, 'request completed');

    // Quotes and backslashes, as Node's HTTP parser lets them through (it answers 400 itself to
    // control characters and bytes beyond ASCII in a request line: those are tested above).
    const path = Buffer.from('/nope/"quoted"/back\\slash/{x}|^`');
    const status = await rawGet(svc.url, path, 'strange-1');
    assert.match(status, /^HTTP\/1\.1 404/);
    const strange = parsed().find((l) => l.reqId === 'strange-1');
    assert.ok(strange, 'the access line of the strange URL');
    assert.equal(strange.req?.url, path.toString('latin1'));
    assert.equal(strange.req?.url, '/nope/"quoted"/back\\slash/{x}|^`');
    assert.equal(strange.res?.statusCode, 404);
    assert.equal(strange.msg, 'request completed');
  });

  it('is not written when the level is above info, set at start or later', async () => {
    const quiet = await logged({ LOG_LEVEL: 'warn' });
    for (let i = 0; i < 3; i++) await (await request(`${quiet.svc.url}/stocks/ENGRO/quote`)).body.dump();
    assert.deepEqual(quiet.parsed().filter(isAccess), [], 'LOG_LEVEL=warn writes no access line');

    const written: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void written.push(line) });
    const line = accessLineOf(logger, () => '127.0.0.1');
    const entry = (reqId: string) => [requestOf('/health', reqId), 200, 1, false] as const;
    assert.equal(line.enabled(), true);
    line.write(...entry('before'));
    logger.level = 'warn';
    assert.equal(line.enabled(), false);
    line.write(...entry('after'));
    assert.deepEqual(
      written.map((l) => (JSON.parse(l) as Line).reqId),
      ['before'],
    );
  });

  it('sits in order among pino’s lines in the buffered standard output, a warning written at once', async () => {
    assert.ok(existsSync('dist/main.js'), 'dist/main.js is missing: `npm ci` or `npm run build` makes it');
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-access-line-'));
    dirs.push(dir);
    const service = await spawnService(
      {
        EXCHANGE_BASE_URL: portal.url,
        CACHE_DIR: dir,
        RATE_LIMIT_PER_MINUTE: '0',
        PARSER_WARM_UP: 'false',
        EXCHANGE_MAX_RETRIES: '0',
      },
      60_000,
      { compiled: true },
    );
    try {
      const ask = async (path: string, id: string) => {
        const res = await request(`${service.url}${path}`, { headers: { 'x-request-id': id } });
        await res.body.dump();
        return res.statusCode;
      };
      assert.equal(await ask('/stocks/ENGRO/quote', 'ok-1'), 200);
      assert.equal(await ask('/stocks/ENGRO/quote', 'ok-2'), 200);
      portal.fail({ mode: 'down' });
      const failed = await ask('/sectors', 'failed-1');
      portal.clear();
      assert.ok(failed >= 500, `the sectors with the portal down: ${failed}`);
      // The warning is written at once, with the lines before it, not at the next periodic flush.
      const warned = () =>
        service.logs.some((l) => l.includes('"reqId":"failed-1"') && l.includes('"level":40'));
      const started = Date.now();
      while (!warned() && Date.now() - started < 900) await new Promise((r) => setTimeout(r, 20));
      assert.ok(warned(), `no warning within 0.9 s:\n${service.logs.join('\n')}`);
      assert.equal(await ask('/health', 'ok-3'), 200);
      service.child.kill('SIGTERM');
      assert.equal((await service.exited).code, 0);

      const lines = service.logs.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
      const order = lines
        .filter((l) => l.reqId !== undefined || l.msg === 'shutting down')
        .map((l) => `${l.reqId ?? ''} ${l.msg}`);
      assert.deepEqual(order.slice(0, 2), ['ok-1 request completed', 'ok-2 request completed']);
      const warning = order.findIndex((l) => l.startsWith('failed-1 ') && !l.endsWith('request completed'));
      const failedLine = order.indexOf('failed-1 request completed');
      assert.ok(
        warning >= 2 && warning < failedLine,
        `the warning before its access line:\n${order.join('\n')}`,
      );
      assert.deepEqual(order.slice(-2), ['ok-3 request completed', ' shutting down']);
      for (const l of lines.filter(isAccess)) assert.equal(l.pid, lines[0]!.pid);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
    }
  });
});
