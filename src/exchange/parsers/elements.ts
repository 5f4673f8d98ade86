// A small element tree for pages whose data sits in nested `div`s rather than in one table (the
// company page: stats panels, profile items, tabbed tables). Built from the project's scanner
// (scanner.ts, htmlparser2's Tokenizer callbacks) without a full HTML tree builder: a closing tag
// closes the nearest open element of that name (implying the ones inside it), a stray closing tag
// is ignored, and void elements never open. That is all the portal's templates need.
import { decodeAttribute, decodeText } from '../html/entities.ts';
import { scanHtml, type ScanCallbacks } from '../html/scanner.ts';
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
  readonly attrs: Map<string, string>;
  readonly children: (Element | TextNode)[];
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

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

class TreeBuilder implements ScanCallbacks {
  readonly root: MutableElement = { tag: '#root', attrs: new Map(), children: [], parent: null };
  private current: MutableElement = this.root;
  private pendingTag = '';
  private pendingAttrs = new Map<string, string>();
  private attrName = '';
  private attrValue = '';

  constructor(private readonly html: string) {}

  ontext(start: number, end: number): void {
    if (start < 0 || RAW.has(this.current.tag)) return;
    this.current.children.push({ text: decodeText(this.html.slice(start, end)) });
  }

  onopentagname(start: number, end: number): void {
    this.pendingTag = this.html.slice(start, end).toLowerCase();
    this.pendingAttrs = new Map();
  }

  onattribname(start: number, end: number): void {
    this.attrName = this.html.slice(start, end).toLowerCase();
    this.attrValue = '';
  }

  onattribdata(start: number, end: number): void {
    this.attrValue += this.html.slice(start, end);
  }

  onattribend(): void {
    if (!this.pendingAttrs.has(this.attrName)) {
      this.pendingAttrs.set(this.attrName, decodeAttribute(this.attrValue));
    }
  }

  onopentagend(): void {
    this.open();
  }

  onselfclosingtag(): void {
    // In HTML a `/>` on a non-void element is ignored: the element still opens.
    this.open();
  }

  onclosetag(start: number, end: number): void {
    const tag = this.html.slice(start, end).toLowerCase();
    for (let el: MutableElement | null = this.current; el !== null; el = el.parent as MutableElement | null) {
      if (el.tag === tag) {
        this.current = (el.parent as MutableElement | null) ?? this.root;
        return;
      }
      if (el === this.root) return;
    }
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}

  private open(): void {
    const el: MutableElement = {
      tag: this.pendingTag,
      attrs: this.pendingAttrs,
      children: [],
      parent: this.current,
    };
    this.current.children.push(el);
    if (!VOID.has(el.tag)) this.current = el;
  }
}

/** The page as a tree; the returned root's children are the top-level nodes. */
export function parseElements(html: string): Element {
  const builder = new TreeBuilder(html);
  scanHtml(html, builder);
  return builder.root;
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

/** Text of the element's own text nodes only (not of its child elements). */
export function ownTextOf(el: Element): string {
  let out = '';
  for (const child of el.children) if (!isElement(child)) out += child.text;
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
