// An answer's key names the resource by its normalised inputs and every option it was asked with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerKey } from '../../src/market/answer.ts';

describe('answerKey', () => {
  it('includes every option, in a fixed order, leaving out absent ones', () => {
    const a = answerKey('historical', 'ENGRO', { start: '2025-01-01', order: 'asc', limit: undefined });
    const b = answerKey('historical', 'ENGRO', { order: 'asc', start: '2025-01-01' });
    assert.equal(a, b);
    assert.equal(a, 'historical:ENGRO?order=asc&start=2025-01-01');
  });

  it('tells apart answers that differ in any option, including one added later', () => {
    const base = { start: '2025-01-01', order: 'asc' };
    const keys = new Set([
      answerKey('historical', 'ENGRO', base),
      answerKey('historical', 'ENGRO', { ...base, limit: 5 }),
      answerKey('historical', 'ENGRO', { ...base, adjusted: true }),
      answerKey('historical', 'LUCK', base),
      answerKey('fundamentals', 'ENGRO'),
    ]);
    assert.equal(keys.size, 5);
  });
});
