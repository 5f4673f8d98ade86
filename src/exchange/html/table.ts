// Streaming table extractor for the portal's pages. It is driven by scanner.ts, a scanner that
// makes exactly the callbacks of htmlparser2's Tokenizer (decodeEntities off) but reads each token
// with `indexOf` and tight loops instead of a per-character state switch: the Tokenizer was about
// half of the history page's parse+map time. htmlparser2's Parser was never an option here: with
// no-op handlers it takes several times the Tokenizer's time (a tag stack and an attribute object per
// tag). The state machine below replaces the part of the Parser that matters here (implied
// `</td>`/`</tr>`), and slices only the text and attributes it keeps.
import { decodeAttribute, decodeText } from './entities.ts';
import { scanHtml, type ScanCallbacks } from './scanner.ts';
import { collapseWhitespace } from './text.ts';

/** One body cell of a portal table, with the pieces the page parsers read. */
export interface Cell {
  /** Text content: entities decoded, whitespace collapsed, trimmed. */
  readonly text: string;
  /** The raw sort value the portal puts on numeric and symbol cells. */
  readonly order: string | null;
  readonly search: string | null;
  /** Text of the first `<strong>`/`<b>` in the cell (a symbol, an index code, a sector name). */
  readonly strong: string | null;
  /** `data-code` of the first link in the cell. */
  readonly linkCode: string | null;
  /** `data-title` of the first link in the cell (a company name). */
  readonly linkTitle: string | null;
  /** `href` of the first link in the cell, as written. */
  readonly href: string | null;
  /** Every link of the cell in order (a document cell has a `View` link and a `PDF` link). */
  readonly links: readonly CellLink[];
}

/** One `<a>` of a cell. */
export interface CellLink {
  /** `href` as written (`/download/document/283814.pdf`, `javascript:`); null without one. */
  readonly href: string | null;
  /** `data-images` as written (`283814-1.gif`): the images a `View` link shows. */
  readonly images: string | null;
  /** The link's text, whitespace collapsed (`PDF`, `View`). */
  readonly text: string;
}

export type Row = readonly Cell[];

const NO_LINKS: readonly CellLink[] = Object.freeze([]);

/** The element a scoped table sits in (e.g. `div.sectorSummary__companies__table[data-code]`). */
export interface TableScope {
  /** The scope element's `data-code`. */
  readonly code: string | null;
  /** The scope element's `data-name` (a tab panel's key). */
  readonly name: string | null;
  /** Text inside the scope element before the table (a heading, an `As of …` line). */
  readonly text: string;
}

export interface Table {
  readonly id: string | null;
  /** Header texts: trimmed, lowercased, whitespace collapsed (`DATE ` → `date`). */
  readonly headers: readonly string[];
  /** The header cells' `data-name` attributes, aligned with `headers`. */
  readonly headerNames: readonly (string | null)[];
  readonly rows: readonly Row[];
  /** Text of the nearest `<h1>`…`<h6>` before the table (within its scope, if it has one). */
  readonly heading: string | null;
  /** Set when the table sits inside an element matching the query's scope. */
  readonly scope: TableScope | null;
}

/** Which `div` marks a scope: every given condition must hold. */
export interface ScopeQuery {
  readonly id?: string;
  /** One of the element's classes. */
  readonly className?: string;
  /** Require a `data-code` attribute. */
  readonly withCode?: boolean;
}

export interface TableQuery {
  /** Collect only tables with this `id`. */
  readonly tableId?: string;
  /** Mark tables inside a matching `div` (all tables are still collected). */
  readonly scope?: ScopeQuery;
}

// Tag identities; everything the state machine does not care about is OTHER.
const OTHER = 0;
const TABLE = 1;
const THEAD = 2;
const TBODY = 3;
const TFOOT = 4;
const TR = 5;
const TD = 6;
const TH = 7;
const A = 8;
const STRONG = 9;
const DIV = 10;
const BREAK = 11; // p, br, li: a text boundary inside a cell
const HEADING = 12;
const RAW = 13; // script, style: their text is never content

// Attribute identities, per slot of the pending open tag.
const NONE = 0;
const ORDER = 1;
const SEARCH = 2;
const CODE = 3;
const TITLE = 4;
const HREF = 5;
const ID = 6;
const CLASS = 7;
const NAME = 8;
const IMAGES = 9;

const SECTION_NONE = 0;
const SECTION_HEAD = 1;
const SECTION_BODY = 2;

interface TableBuilder {
  id: string | null;
  headers: string[];
  headerNames: (string | null)[];
  rows: Cell[][];
  heading: string | null;
  scope: TableScope | null;
}

/** Lowercase-insensitive comparison of `html[start, end)` with an all-lowercase ASCII word. */
function nameIs(html: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    if ((html.charCodeAt(start + i) | 0x20) !== word.charCodeAt(i)) return false;
  }
  return true;
}

function tagOf(html: string, start: number, end: number): number {
  const c0 = html.charCodeAt(start) | 0x20;
  switch (end - start) {
    case 1:
      if (c0 === 0x61) return A;
      if (c0 === 0x62) return STRONG;
      if (c0 === 0x70) return BREAK;
      return OTHER;
    case 2: {
      const c1 = html.charCodeAt(start + 1);
      if (c0 === 0x68 && c1 >= 0x31 && c1 <= 0x36) return HEADING;
      const l1 = c1 | 0x20;
      if (c0 === 0x74) {
        if (l1 === 0x64) return TD;
        if (l1 === 0x68) return TH;
        if (l1 === 0x72) return TR;
      }
      if ((c0 === 0x62 && l1 === 0x72) || (c0 === 0x6c && l1 === 0x69)) return BREAK;
      return OTHER;
    }
    case 3:
      return nameIs(html, start, end, 'div') ? DIV : OTHER;
    case 5:
      if (nameIs(html, start, end, 'table')) return TABLE;
      if (nameIs(html, start, end, 'thead')) return THEAD;
      if (nameIs(html, start, end, 'tbody')) return TBODY;
      if (nameIs(html, start, end, 'tfoot')) return TFOOT;
      if (nameIs(html, start, end, 'style')) return RAW;
      return OTHER;
    case 6:
      if (nameIs(html, start, end, 'strong')) return STRONG;
      if (nameIs(html, start, end, 'script')) return RAW;
      return OTHER;
    default:
      return OTHER;
  }
}

function attributeOf(html: string, start: number, end: number): number {
  const length = end - start;
  if (length >= 9) {
    // data-*: the letter after `data-` tells them apart before a full comparison (cells also
    // carry `data-filter`).
    const key = html.charCodeAt(start + 5) | 0x20;
    if (length === 10) {
      if (key === 0x6f) return nameIs(html, start, end, 'data-order') ? ORDER : NONE;
      if (key === 0x74) return nameIs(html, start, end, 'data-title') ? TITLE : NONE;
    } else if (length === 11) {
      if (key === 0x73) return nameIs(html, start, end, 'data-search') ? SEARCH : NONE;
      if (key === 0x69) return nameIs(html, start, end, 'data-images') ? IMAGES : NONE;
    } else if (length === 9) {
      if (key === 0x63) return nameIs(html, start, end, 'data-code') ? CODE : NONE;
      if (key === 0x6e) return nameIs(html, start, end, 'data-name') ? NAME : NONE;
    }
    return NONE;
  }
  if (length === 5) return nameIs(html, start, end, 'class') ? CLASS : NONE;
  if (length === 4) return nameIs(html, start, end, 'href') ? HREF : NONE;
  if (length === 2) return nameIs(html, start, end, 'id') ? ID : NONE;
  return NONE;
}

function hasClass(classList: string, name: string): boolean {
  for (const token of classList.split(/\s+/)) if (token === name) return true;
  return false;
}

// The collector's state is split into the records below, one per part of the state machine. Every
// field is set in the constructor (class fields) and only ever reassigned, so each record keeps one
// hidden class for the whole parse: the callbacks run once per token of every page.

/** The open tag being read, and the attributes captured from it (the first of each kept name). */
class PendingTag {
  tag = OTHER;
  /** Which kept attribute the scanner is reading the value of (NONE: one we do not keep). */
  attr = NONE;
  attrValue = '';
  order: string | null = null;
  search: string | null = null;
  code: string | null = null;
  title: string | null = null;
  href: string | null = null;
  id: string | null = null;
  className: string | null = null;
  name: string | null = null;
  images: string | null = null;

  /**
   * A new tag starts. Only the tags the state machine acts on read their attributes, so only they
   * need the previous tag's forgotten: an OTHER tag leaves them as they were, unread.
   */
  start(tag: number): void {
    this.tag = tag;
    this.attr = NONE;
    if (tag !== OTHER) {
      this.order = null;
      this.search = null;
      this.code = null;
      this.title = null;
      this.href = null;
      this.id = null;
      this.className = null;
      this.name = null;
      this.images = null;
    }
  }

  /** A new attribute starts: nothing read yet, and kept under nothing until its name is known. */
  startAttribute(): void {
    this.attr = NONE;
    this.attrValue = '';
  }

  /** Keeps the value just read under its attribute. Browsers keep the first of duplicated attributes. */
  keep(value: string): void {
    switch (this.attr) {
      case ORDER:
        this.order ??= value;
        break;
      case SEARCH:
        this.search ??= value;
        break;
      case CODE:
        this.code ??= value;
        break;
      case TITLE:
        this.title ??= value;
        break;
      case HREF:
        this.href ??= value;
        break;
      case ID:
        this.id ??= value;
        break;
      case CLASS:
        this.className ??= value;
        break;
      case NAME:
        this.name ??= value;
        break;
      case IMAGES:
        this.images ??= value;
        break;
    }
    this.attr = NONE;
    this.attrValue = '';
  }
}

/** The outermost `<table>` being read: its depth of nesting, its builder and its section. */
class OpenTable {
  /** `<table>` nesting depth; only depth 1 is collected, deeper tables are cell text. */
  depth = 0;
  /** Null between tables, and for a table the query's `tableId` skips. */
  builder: TableBuilder | null = null;
  section = SECTION_NONE;
}

/** The row being read. */
class OpenRow {
  /** Null when no row is open. */
  cells: Cell[] | null = null;
  /** Every cell so far is a `<th>`: a header row, when it comes first outside `<tbody>`. */
  allTh = true;
  /** The `<th>`s' `data-name`s by column, made on the first one. */
  names: (string | null)[] | null = null;

  start(): void {
    this.cells = [];
    this.allTh = true;
    this.names = null;
  }
}

/** A link of the open cell; its text grows while the link is open. */
interface OpenLink {
  readonly href: string | null;
  readonly images: string | null;
  text: string;
}

/** The cell being read: its text, and the attributes of the cell and of its first strong and link. */
class OpenCell {
  open = false;
  isTh = false;
  text = '';
  order: string | null = null;
  search: string | null = null;
  /** A `<th>`'s `data-name`. */
  name: string | null = null;
  /** Text of the first `<strong>`/`<b>`: null until one opens. */
  strong: string | null = null;
  strongDepth = 0;
  /** The first strong has closed: later ones are not read. */
  strongDone = false;
  linkSeen = false;
  linkCode: string | null = null;
  linkTitle: string | null = null;
  href: string | null = null;
  /** Every link so far (null until the first); `linkOpen` while text goes to the last one. */
  links: OpenLink[] | null = null;
  linkOpen = false;

  /** Opens a cell with the attributes its `<td>`/`<th>` tag carried. */
  start(isTh: boolean, tag: PendingTag): void {
    this.open = true;
    this.isTh = isTh;
    this.text = '';
    this.order = tag.order;
    this.search = tag.search;
    this.name = tag.name;
    this.strong = null;
    this.strongDepth = 0;
    this.strongDone = false;
    this.linkSeen = false;
    this.linkCode = null;
    this.linkTitle = null;
    this.href = null;
    this.links = null;
    this.linkOpen = false;
  }

  /** Keeps the first link's attributes apart, and every link's href, images and text. */
  takeLink(tag: PendingTag): void {
    if (!this.linkSeen) {
      this.linkSeen = true;
      this.linkCode = tag.code;
      this.linkTitle = tag.title;
      this.href = tag.href;
    }
    (this.links ??= []).push({ href: tag.href, images: tag.images, text: '' });
    this.linkOpen = true;
  }

  toCell(): Cell {
    // `strong` is collapsed before the literal, not inside it: with both calls among the literal's
    // fields the whole extraction measured slower (bench/README.md).
    const strong = this.strong === null ? null : collapseWhitespace(this.strong) || null;
    return {
      text: collapseWhitespace(this.text),
      order: this.order,
      search: this.search,
      strong,
      linkCode: this.linkCode,
      linkTitle: this.linkTitle,
      href: this.href,
      links:
        this.links === null
          ? NO_LINKS
          : this.links.map((l) => ({ href: l.href, images: l.images, text: collapseWhitespace(l.text) })),
    };
  }
}

/** The `<h1>`…`<h6>` outside tables being read, and the last one read (a table's heading). */
class Heading {
  open = false;
  text = '';
  last: string | null = null;
}

/** The `div` matching the query's scope that the parser is inside, if any. */
class Scope {
  inside = false;
  /** Open `div`s inside the scope, itself included: it ends when this falls to 0. */
  divDepth = 0;
  code: string | null = null;
  name: string | null = null;
  /** Text inside the scope before its table. */
  text = '';

  enter(code: string | null, name: string | null): void {
    this.inside = true;
    this.divDepth = 1;
    this.code = code;
    this.name = name;
    this.text = '';
  }

  leave(): void {
    this.inside = false;
    this.code = null;
    this.name = null;
    this.text = '';
  }
}

class TableCollector implements ScanCallbacks {
  readonly tables: Table[] = [];

  private readonly pending = new PendingTag();
  private readonly table = new OpenTable();
  private readonly row = new OpenRow();
  private readonly cell = new OpenCell();
  private readonly heading = new Heading();
  private readonly scope = new Scope();
  /** Inside `<script>`/`<style>`: their text is never content. */
  private rawText = false;

  /** Pages without any `&` (a history page) skip the per-string entity check. */
  private readonly hasEntities: boolean;

  constructor(
    private readonly html: string,
    private readonly query: TableQuery,
  ) {
    this.hasEntities = html.indexOf('&') >= 0;
  }

  // ---- text ----

  ontext(start: number, end: number): void {
    if (this.rawText) return;
    const cell = this.cell;
    if (cell.open) {
      const raw = this.html.slice(start, end);
      const piece = this.hasEntities ? decodeText(raw) : raw;
      cell.text += piece;
      if (cell.strongDepth > 0 && !cell.strongDone) cell.strong += piece;
      if (cell.linkOpen) {
        const link = cell.links?.at(-1);
        if (link !== undefined) link.text += piece;
      }
      return;
    }
    // Between a table's tags (whitespace, mostly): the most frequent text outside cells.
    if (this.table.depth > 0) return;
    const heading = this.heading;
    const scope = this.scope;
    if (!(heading.open || scope.inside)) return;
    const raw = this.html.slice(start, end);
    const piece = this.hasEntities ? decodeText(raw) : raw;
    if (heading.open) heading.text += piece;
    if (scope.inside) scope.text += piece;
  }

  // ---- attributes ----

  onattribname(start: number, end: number): void {
    const pending = this.pending;
    pending.startAttribute();
    const html = this.html;
    switch (pending.tag) {
      case TD:
      case TH: {
        // Cells also carry `class` and `data-filter`; `class` is rejected on its length alone.
        if (end - start < 9 || this.table.builder === null || this.table.depth !== 1) return;
        const attr = attributeOf(html, start, end);
        if (attr === ORDER || attr === SEARCH || attr === NAME) pending.attr = attr;
        return;
      }
      case A: {
        if (!this.cell.open) return;
        const attr = attributeOf(html, start, end);
        if (attr === HREF || attr === CODE || attr === TITLE || attr === IMAGES) pending.attr = attr;
        return;
      }
      case TABLE:
        if (this.table.depth === 0 && attributeOf(html, start, end) === ID) pending.attr = ID;
        return;
      case DIV: {
        if (this.query.scope === undefined || this.scope.inside) return;
        const attr = attributeOf(html, start, end);
        if (attr === ID || attr === CLASS || attr === CODE || attr === NAME) pending.attr = attr;
        return;
      }
    }
  }

  onattribdata(start: number, end: number): void {
    const pending = this.pending;
    if (pending.attr !== NONE) pending.attrValue += this.html.slice(start, end);
  }

  onattribend(): void {
    const pending = this.pending;
    if (pending.attr === NONE) return;
    pending.keep(this.hasEntities ? decodeAttribute(pending.attrValue) : pending.attrValue);
  }

  // ---- tags ----

  onopentagname(start: number, end: number): void {
    this.pending.start(tagOf(this.html, start, end));
  }

  onopentagend(): void {
    this.openTag(this.pending.tag);
  }

  // In HTML a `/>` on a non-void element is ignored: the element still opens.
  onselfclosingtag(): void {
    this.openTag(this.pending.tag);
  }

  onclosetag(start: number, end: number): void {
    this.closeTag(tagOf(this.html, start, end));
  }

  onend(): void {
    if (this.table.builder !== null) this.finishTable();
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private openTag(tag: number): void {
    const table = this.table;
    const cell = this.cell;
    const inTable = table.builder !== null && table.depth === 1;
    switch (tag) {
      case TABLE:
        table.depth++;
        if (table.depth === 1) this.startTable();
        break;
      case THEAD:
      case TBODY:
      case TFOOT:
        if (inTable) {
          this.closeRow();
          table.section = tag === THEAD ? SECTION_HEAD : SECTION_BODY;
        }
        break;
      case TR:
        if (inTable) {
          this.closeRow();
          this.row.start();
        }
        break;
      case TD:
      case TH:
        if (inTable) {
          this.closeCell();
          if (this.row.cells === null) this.row.start();
          if (tag !== TH) this.row.allTh = false;
          cell.start(tag === TH, this.pending);
        }
        break;
      case STRONG:
        if (cell.open && !cell.strongDone) {
          if (cell.strongDepth === 0) cell.strong = '';
          cell.strongDepth++;
        }
        break;
      case A:
        if (cell.open) cell.takeLink(this.pending);
        break;
      case DIV:
        if (cell.open) cell.text += ' ';
        if (this.scope.inside) this.scope.divDepth++;
        else if (this.matchesScope()) {
          this.scope.enter(this.pending.code, this.pending.name);
          this.heading.last = null;
        }
        break;
      case BREAK:
        if (cell.open) cell.text += ' ';
        break;
      case HEADING:
        if (table.depth === 0) {
          this.heading.open = true;
          this.heading.text = '';
        }
        break;
      case RAW:
        this.rawText = true;
        break;
    }
  }

  private closeTag(tag: number): void {
    const table = this.table;
    const cell = this.cell;
    switch (tag) {
      case TABLE:
        if (table.depth === 0) return;
        if (table.depth === 1 && table.builder !== null) this.finishTable();
        table.depth--;
        break;
      case THEAD:
      case TBODY:
      case TFOOT:
        if (table.builder !== null && table.depth === 1) {
          this.closeRow();
          table.section = SECTION_NONE;
        }
        break;
      case TR:
        if (table.depth === 1) this.closeRow();
        break;
      case TD:
      case TH:
        if (table.depth === 1) this.closeCell();
        break;
      case A:
        cell.linkOpen = false;
        break;
      case STRONG:
        if (cell.open && cell.strongDepth > 0) {
          cell.strongDepth--;
          if (cell.strongDepth === 0) cell.strongDone = true;
        }
        break;
      case DIV:
        if (cell.open) cell.text += ' ';
        if (this.scope.inside && --this.scope.divDepth === 0) {
          this.scope.leave();
          this.heading.last = null;
        }
        break;
      case BREAK:
        if (cell.open) cell.text += ' ';
        break;
      case HEADING: {
        const heading = this.heading;
        if (heading.open) {
          heading.open = false;
          heading.last = collapseWhitespace(heading.text) || null;
        }
        break;
      }
      case RAW:
        this.rawText = false;
        break;
    }
  }

  private matchesScope(): boolean {
    const scope = this.query.scope;
    if (scope === undefined) return false;
    const pending = this.pending;
    if (scope.id !== undefined && pending.id !== scope.id) return false;
    if (
      scope.className !== undefined &&
      (pending.className === null || !hasClass(pending.className, scope.className))
    ) {
      return false;
    }
    if (scope.withCode === true && pending.code === null) return false;
    return true;
  }

  private startTable(): void {
    const wanted = this.query.tableId;
    const id = this.pending.id;
    const table = this.table;
    if (wanted !== undefined && id !== wanted) {
      table.builder = null;
      return;
    }
    const scope = this.scope;
    table.builder = {
      id,
      headers: [],
      headerNames: [],
      rows: [],
      heading: this.heading.last,
      scope: scope.inside
        ? { code: scope.code, name: scope.name, text: collapseWhitespace(scope.text) }
        : null,
    };
    table.section = SECTION_NONE;
  }

  private finishTable(): void {
    this.closeRow();
    const table = this.table;
    const builder = table.builder;
    table.builder = null;
    table.section = SECTION_NONE;
    if (builder !== null) this.tables.push(builder);
  }

  private closeRow(): void {
    this.closeCell();
    const row = this.row;
    const cells = row.cells;
    const table = this.table;
    const builder = table.builder;
    row.cells = null;
    if (cells === null || cells.length === 0 || builder === null) return;
    const isHeader =
      table.section === SECTION_HEAD ||
      (table.section === SECTION_NONE &&
        row.allTh &&
        builder.headers.length === 0 &&
        builder.rows.length === 0);
    if (!isHeader) {
      builder.rows.push(cells);
      return;
    }
    const names = row.names;
    builder.headers = cells.map((cell) => cell.text.toLowerCase());
    builder.headerNames = cells.map((_, i) => names?.[i] ?? null);
  }

  private closeCell(): void {
    const cell = this.cell;
    const cells = this.row.cells;
    if (!cell.open || cells === null) return;
    cell.open = false;
    cells.push(cell.toCell());
    if (cell.isTh && cell.name !== null) (this.row.names ??= [])[cells.length - 1] = cell.name;
  }
}

/**
 * Every `<table>` of the page in document order (only those with `query.tableId`, when given).
 * Nested tables are read as text of the outer table's cell.
 */
export function extractTables(html: string, query: TableQuery = {}): Table[] {
  const collector = new TableCollector(html, query);
  scanHtml(html, collector);
  return collector.tables;
}
