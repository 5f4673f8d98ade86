// The post-start compaction gives back the young generation that start-up grew: measured here on
// V8's own figure for it, in this process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { compactHeap, compactWhenIdle } from '../src/compact-heap.ts';

const newSpaceBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

describe('compactHeap', () => {
  it('shrinks the young generation after a burst of surviving allocations, and exposes no global gc', () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc;
    // Objects that survive a few scavenges make V8 grow the semi-spaces, as module loading does.
    let keep: unknown[] = [];
    for (let round = 0; round < 40; round++) {
      keep.push(Array.from({ length: 20_000 }, (_, i) => ({ i, s: `v${i}` })));
      if (keep.length > 8) keep = keep.slice(4);
    }
    keep = [];
    const grown = newSpaceBytes();
    compactHeap();
    const after = newSpaceBytes();
    assert.ok(grown > 4 * 1024 * 1024, `the young generation grew (${grown} bytes)`);
    assert.ok(after < grown / 2, `shrunk from ${grown} to ${after} bytes`);
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, hadGc);
  });

  it('compacts once the process falls idle after its memory grew, and not while it stays small', async () => {
    const compactions: [number, number][] = [];
    const stop = compactWhenIdle({
      everyMs: 250,
      idleCpuShare: 0.5,
      growthBytes: 8 * 1024 * 1024,
      onCompact: (before, after) => compactions.push([before, after]),
    });
    try {
      // A busy spell that leaves garbage behind: grows the young generation and RSS.
      let keep: unknown[] = [];
      for (let round = 0; round < 60; round++) {
        keep.push(Array.from({ length: 20_000 }, (_, i) => ({ i, s: `v${i}` })));
        if (keep.length > 8) keep = keep.slice(4);
      }
      keep = [];
      const grown = newSpaceBytes();
      for (let waited = 0; compactions.length === 0 && waited < 20_000; waited += 100) await sleep(100);
      assert.equal(compactions.length, 1, 'one compaction once idle');
      assert.ok(newSpaceBytes() < grown, `young generation ${grown} → ${newSpaceBytes()} bytes`);
      // Idle and not grown since: no second compaction.
      await sleep(1_000);
      assert.equal(compactions.length, 1);
    } finally {
      stop();
    }
  });
});
