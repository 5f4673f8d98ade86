// The element tree the company page parser reads: the few HTML rules it relies on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  byClass,
  byTag,
  findAll,
  findFirst,
  parseElements,
  readTable,
  textOf,
} from '../../../src/exchange/parsers/elements.ts';

describe('element tree', () => {
  it('never opens void elements and ignores stray closing tags', () => {
    const root = parseElements(
      '<div class="a"><img src="x"><br>one</span><p>two</p></div><div class="b">three</div>',
    );
    const a = findFirst(root, byClass('a'))!;
    assert.equal(textOf(a), 'one two');
    assert.equal(textOf(findFirst(root, byClass('b'))!), 'three', 'b is a sibling of a, not inside the img');
  });

  it('closes the elements inside a closed one', () => {
    const root = parseElements('<div class="outer"><span class="inner">x</div><div class="next">y</div>');
    const next = findFirst(root, byClass('next'))!;
    assert.equal(next.parent?.tag, '#root');
  });

  it('decodes entities in text and attributes, and skips script text', () => {
    const root = parseElements('<a href="/x?a=1&amp;b=2">A &amp; B</a><script>var s = "<div>";</script>');
    const a = findFirst(root, byTag('a'))!;
    assert.equal(a.attrs.get('href'), '/x?a=1&b=2');
    assert.equal(textOf(root), 'A & B');
    assert.equal(findAll(root, byTag('div')).length, 0);
  });

  it('reads a table whose body sits inside its head (the portal financials)', () => {
    const root = parseElements(
      '<table><thead><tr><th></th><th>2025</th></tr><tbody><tr><td>EPS</td><td>(0.15)</td></tr></tbody></thead></table>',
    );
    const table = readTable(findFirst(root, byTag('table'))!);
    assert.deepEqual(table.headers, ['', '2025']);
    assert.deepEqual(
      table.rows.map((r) => r.map(textOf)),
      [['EPS', '(0.15)']],
    );
  });

  it("keeps a nested table's rows to itself", () => {
    const root = parseElements(
      '<table><tr><td>a</td><td><table><tr><td>inner</td></tr></table></td></tr></table>',
    );
    const outer = readTable(findFirst(root, byTag('table'))!);
    assert.equal(outer.rows.length, 1);
    assert.equal(textOf(outer.rows[0]![1]!), 'inner');
  });
});
