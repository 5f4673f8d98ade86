// The element tree for pages whose data sits in nested `div`s rather than in one table (the
// company page: stats panels, profile items, tabbed tables). htmlparser2 builds the DOM (its
// implied closes, void elements and entity decoding are the browser's rules the portal's templates
// are written for); this file turns it into the small read-only tree the page parsers query, so
// no parser knows tokens or DOM node types.
import type { ChildNode, Element as DomElement } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { collapseWhitespace } from '../html/text.ts';

export interface TextNode {
  readonly text: string;
}

export interface Element {
  /** Lowercase tag name. */
  readonly tag: string;
  /** Attributes by lowercase name, entities decoded; the first of duplicates wins, as in browsers. */
  readonly attrs: ReadonlyMap<string, string>;
  readonly children: readonly (Element | TextNode)[];
  readonly parent: Element | null;
}

interface MutableElement extends Element {
  readonly children: (Element | TextNode)[];
}

/** Elements whose text is not content. */
const RAW = new Set(['script', 'style']);

/** Elements whose boundaries separate words (`<td>a</td><td>b</td>` reads `a b`). */
const BLOCK = new Set([
  'br',
  'div',
  'p',
  'li',
  'td',
  'th',
  'tr',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

export function isElement(node: Element | TextNode): node is Element {
  return (node as Element).tag !== undefined;
}

function adopt(nodes: readonly ChildNode[], parent: MutableElement): void {
  for (const node of nodes) {
    if (node.type === 'text') {
      parent.children.push({ text: node.data });
    } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const dom = node as DomElement;
      const el: MutableElement = {
        tag: dom.name,
        attrs: new Map(Object.entries(dom.attribs)),
        children: [],
        parent,
      };
      parent.children.push(el);
      if (!RAW.has(el.tag)) adopt(dom.children, el);
    }
  }
}

/** The page as a tree; the returned root's children are the top-level nodes. */
export function parseElements(html: string): Element {
  const root: MutableElement = { tag: '#root', attrs: new Map(), children: [], parent: null };
  adopt(parseDocument(html).children, root);
  return root;
}

export function hasClass(el: Element, name: string): boolean {
  const list = el.attrs.get('class');
  if (list === undefined) return false;
  for (const token of list.split(/\s+/)) if (token === name) return true;
  return false;
}

/** Every descendant element matching `test`, in document order. */
export function findAll(root: Element, test: (el: Element) => boolean): Element[] {
  const found: Element[] = [];
  const walk = (el: Element): void => {
    for (const child of el.children) {
      if (!isElement(child)) continue;
      if (test(child)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

export function findFirst(root: Element, test: (el: Element) => boolean): Element | null {
  for (const child of root.children) {
    if (!isElement(child)) continue;
    if (test(child)) return child;
    const inner = findFirst(child, test);
    if (inner !== null) return inner;
  }
  return null;
}

export const byClass =
  (name: string) =>
  (el: Element): boolean =>
    hasClass(el, name);

export const byTag =
  (tag: string) =>
  (el: Element): boolean =>
    el.tag === tag;

/** The element's text: entities decoded, word boundaries at block elements, whitespace collapsed. */
export function textOf(el: Element): string {
  let out = '';
  const walk = (node: Element | TextNode): void => {
    if (!isElement(node)) {
      out += node.text;
      return;
    }
    if (RAW.has(node.tag)) return;
    const block = BLOCK.has(node.tag);
    if (block) out += ' ';
    for (const child of node.children) walk(child);
    if (block) out += ' ';
  };
  walk(el);
  return collapseWhitespace(out);
}

/** Element children only. */
export function childElements(el: Element): Element[] {
  return el.children.filter(isElement);
}

export interface SimpleTable {
  /** Header texts, lowercased, whitespace collapsed. */
  readonly headers: string[];
  /** Body rows: their `td`/`th` cells. */
  readonly rows: Element[][];
}

/**
 * The rows of a `<table>`: the first row of `th` cells is the header; other rows are the body.
 * Rows are found at any depth (the portal's financial tables put `tbody` inside `thead`), but a
 * nested table's rows stay its own.
 */
export function readTable(table: Element): SimpleTable {
  const rows: Element[][] = [];
  let headers: string[] | null = null;
  const walk = (el: Element): void => {
    for (const child of childElements(el)) {
      if (child.tag === 'table') continue;
      if (child.tag !== 'tr') {
        walk(child);
        continue;
      }
      const cells = childElements(child).filter((c) => c.tag === 'td' || c.tag === 'th');
      if (cells.length === 0) continue;
      if (headers === null && rows.length === 0 && cells.every((c) => c.tag === 'th')) {
        headers = cells.map((c) => textOf(c).toLowerCase());
      } else {
        rows.push(cells);
      }
    }
  };
  walk(table);
  return { headers: headers ?? [], rows };
}
