// The token store: one fetch per scope while the token is young, shared refreshes, its own clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenStore } from '../../src/exchange/token.ts';

function store(maxAgeMs = 1_000) {
  let clock = 0;
  let fetches = 0;
  const refreshes: [string, boolean][] = [];
  const s = new TokenStore(
    async () => `t${++fetches}`,
    maxAgeMs,
    () => clock,
    (scope, ok) => refreshes.push([scope, ok]),
  );
  return { s, fetches: () => fetches, refreshes, advance: (ms: number) => (clock += ms) };
}

describe('TokenStore', () => {
  it('fetches once per scope while the token is younger than maxAgeMs, then again', async () => {
    const t = store(1_000);
    assert.equal(await t.s.get('direct'), 't1');
    t.advance(999);
    assert.equal(await t.s.get('direct'), 't1');
    assert.equal(await t.s.get('proxy-a'), 't2', 'each scope has its own token');
    t.advance(1);
    assert.equal(await t.s.get('direct'), 't3');
    assert.equal(t.fetches(), 3);
    assert.deepEqual(t.refreshes, [
      ['direct', true],
      ['proxy-a', true],
      ['direct', true],
    ]);
  });

  it('concurrent callers share one fetch, and a refresh of a token already replaced costs none', async () => {
    const t = store();
    const [a, b, c] = await Promise.all([t.s.get('direct'), t.s.get('direct'), t.s.get('direct')]);
    assert.deepEqual([a, b, c], ['t1', 't1', 't1']);
    assert.equal(t.fetches(), 1);
    const refreshed = await Promise.all([t.s.refresh('direct', 't1'), t.s.refresh('direct', 't1')]);
    assert.deepEqual(refreshed, ['t2', 't2']);
    assert.equal(await t.s.refresh('direct', 't1'), 't2', 'the stale token was replaced already');
    assert.equal(t.fetches(), 2);
  });
});
