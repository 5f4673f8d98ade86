// The buffered output behind the service's standard output (src/log-destination.ts): lines wait in
// the block until it is full, a flush or the periodic flush; nothing is cut, reordered or lost,
// however long a line or however many lines; the service logger's flush at warn reaches it.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BufferedOutput } from '../../src/log-destination.ts';
import { createLogger } from '../../src/service.ts';

const dir = mkdtempSync(join(tmpdir(), 'psxmd-log-buffer-'));
const fds: number[] = [];
after(() => {
  for (const fd of fds) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

function output(name: string, blockBytes: number, flushEveryMs = 0) {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  fds.push(fd);
  return { read: () => readFileSync(file, 'utf8'), out: new BufferedOutput(fd, blockBytes, flushEveryMs) };
}

describe('the buffered log output', () => {
  it('writes whole blocks once full, and the rest at a flush, in order', () => {
    const { read, out } = output('blocks.log', 1024);
    const lines = Array.from(
      { length: 100 },
      (_, i) => `{"n":${i},"pad":"${'x'.repeat(i % 40)}","é":"漢😀"}\n`,
    );
    out.write(lines[0]!);
    assert.equal(read(), '', 'a line waits in the block');
    for (const line of lines.slice(1)) out.write(line);
    const before = read();
    assert.ok(before.length > 0 && before.endsWith('\n'), 'full blocks were written, ending at a line');
    assert.ok(lines.join('').startsWith(before));
    out.flushSync();
    assert.equal(read(), lines.join(''));
  });

  it('writes a line longer than the block whole, after the lines before it', () => {
    const { read, out } = output('long.log', 256);
    out.write('first\n');
    const long = `${'é'.repeat(5000)}\n`;
    out.write(long);
    out.write('last\n');
    out.flush();
    assert.equal(read(), `first\n${long}last\n`);
  });

  it('writes what waits at the periodic flush', async () => {
    const { read, out } = output('periodic.log', 64 * 1024, 50);
    out.write('quiet\n');
    const started = Date.now();
    while (read() === '' && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 20));
    assert.equal(read(), 'quiet\n');
  });

  it('is written out with the first warning through the service logger', () => {
    const { read, out } = output('warn.log', 64 * 1024);
    const logger = createLogger('info', out);
    logger.info('one');
    assert.equal(read(), '');
    logger.warn('two');
    assert.deepEqual(
      read()
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { msg: string }).msg),
      ['one', 'two'],
    );
  });
});
