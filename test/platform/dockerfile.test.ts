// The image starts the service as `npm start` does: same node flags, same allocator setting. The
// Dockerfile cannot read package.json, so the two are kept equal here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { npmStartNodeArgs } from '../../scripts/npm-start.ts';

const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8');
const startScript: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  .scripts.start;

describe('the Dockerfile', () => {
  it('runs dist/main.js with the node flags of npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    assert.ok(cmd, 'an exec-form CMD');
    assert.deepEqual(JSON.parse(cmd), ['node', ...npmStartNodeArgs(), 'dist/main.js']);
  });

  it('sets the MALLOC_MMAP_THRESHOLD_ that npm start defaults to', () => {
    const inImage = /^ENV .*\bMALLOC_MMAP_THRESHOLD_=(\d+)/m.exec(dockerfile)?.[1];
    const inStart = /MALLOC_MMAP_THRESHOLD_:-(\d+)/.exec(startScript)?.[1];
    assert.ok(inStart, 'npm start sets a default');
    assert.equal(inImage, inStart);
  });
});
