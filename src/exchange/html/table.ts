// Streaming table extractor for the portal's pages. It is driven by scanner.ts, a scanner that
// makes exactly the callbacks of htmlparser2's Tokenizer (decodeEntities off) but reads each token
// with `indexOf` and tight loops instead of a per-character state switch: the Tokenizer was about
// half of the history page's parse+map time. htmlparser2's Parser was never an option here: with
// no-op handlers it takes 2.5–3× the Tokenizer's time (a tag stack and an attribute object per
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
}

export type Row = readonly Cell[];

/** The element a scoped table sits in (e.g. `div.sectorSummary__companies__table[data-code]`). */
export interface TableScope {
  /** The scope element's `data-code`. */
  readonly code: string | null;
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

class TableCollector implements ScanCallbacks {
  readonly tables: Table[] = [];

  // The open tag being read, and its captured attributes.
  private tag = OTHER;
  private attr = NONE;
  private attrValue = '';
  private aOrder: string | null = null;
  private aSearch: string | null = null;
  private aCode: string | null = null;
  private aTitle: string | null = null;
  private aHref: string | null = null;
  private aId: string | null = null;
  private aClass: string | null = null;
  private aName: string | null = null;

  private rawText = false;
  private tableDepth = 0;
  private table: TableBuilder | null = null;
  private section = SECTION_NONE;

  private row: Cell[] | null = null;
  private rowAllTh = true;
  private rowNames: (string | null)[] | null = null;

  private cellOpen = false;
  private cellIsTh = false;
  private cellText = '';
  private cellOrder: string | null = null;
  private cellSearch: string | null = null;
  private cellName: string | null = null;
  private cellStrong: string | null = null;
  private strongDepth = 0;
  private strongDone = false;
  private linkSeen = false;
  private cellCode: string | null = null;
  private cellTitle: string | null = null;
  private cellHref: string | null = null;

  private headingOpen = false;
  private headingText = '';
  private lastHeading: string | null = null;

  private inScope = false;
  private scopeDivDepth = 0;
  private scopeCode: string | null = null;
  private scopeText = '';

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
    if (this.cellOpen) {
      const raw = this.html.slice(start, end);
      const piece = this.hasEntities ? decodeText(raw) : raw;
      this.cellText += piece;
      if (this.strongDepth > 0 && !this.strongDone) this.cellStrong += piece;
      return;
    }
    if (this.tableDepth > 0 || !(this.headingOpen || this.inScope)) return;
    const raw = this.html.slice(start, end);
    const piece = this.hasEntities ? decodeText(raw) : raw;
    if (this.headingOpen) this.headingText += piece;
    if (this.inScope) this.scopeText += piece;
  }

  // ---- attributes ----

  onattribname(start: number, end: number): void {
    this.attrValue = '';
    this.attr = NONE;
    const html = this.html;
    switch (this.tag) {
      case TD:
      case TH: {
        // Cells also carry `class` and `data-filter`; `class` is rejected on its length alone.
        if (end - start < 9 || this.table === null || this.tableDepth !== 1) return;
        const attr = attributeOf(html, start, end);
        if (attr === ORDER || attr === SEARCH || attr === NAME) this.attr = attr;
        return;
      }
      case A: {
        if (!this.cellOpen || this.linkSeen) return;
        const attr = attributeOf(html, start, end);
        if (attr === HREF || attr === CODE || attr === TITLE) this.attr = attr;
        return;
      }
      case TABLE:
        if (this.tableDepth === 0 && attributeOf(html, start, end) === ID) this.attr = ID;
        return;
      case DIV: {
        if (this.query.scope === undefined || this.inScope) return;
        const attr = attributeOf(html, start, end);
        if (attr === ID || attr === CLASS || attr === CODE) this.attr = attr;
        return;
      }
    }
  }

  onattribdata(start: number, end: number): void {
    if (this.attr !== NONE) this.attrValue += this.html.slice(start, end);
  }

  onattribend(): void {
    if (this.attr === NONE) return;
    const value = this.hasEntities ? decodeAttribute(this.attrValue) : this.attrValue;
    // Browsers keep the first of duplicated attributes.
    switch (this.attr) {
      case ORDER:
        this.aOrder ??= value;
        break;
      case SEARCH:
        this.aSearch ??= value;
        break;
      case CODE:
        this.aCode ??= value;
        break;
      case TITLE:
        this.aTitle ??= value;
        break;
      case HREF:
        this.aHref ??= value;
        break;
      case ID:
        this.aId ??= value;
        break;
      case CLASS:
        this.aClass ??= value;
        break;
      case NAME:
        this.aName ??= value;
        break;
    }
    this.attr = NONE;
    this.attrValue = '';
  }

  // ---- tags ----

  onopentagname(start: number, end: number): void {
    const tag = tagOf(this.html, start, end);
    this.tag = tag;
    this.attr = NONE;
    if (tag !== OTHER) {
      this.aOrder = null;
      this.aSearch = null;
      this.aCode = null;
      this.aTitle = null;
      this.aHref = null;
      this.aId = null;
      this.aClass = null;
      this.aName = null;
    }
  }

  onopentagend(): void {
    this.openTag(this.tag);
  }

  // In HTML a `/>` on a non-void element is ignored: the element still opens.
  onselfclosingtag(): void {
    this.openTag(this.tag);
  }

  onclosetag(start: number, end: number): void {
    this.closeTag(tagOf(this.html, start, end));
  }

  onend(): void {
    if (this.table !== null) this.finishTable();
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private openTag(tag: number): void {
    const inTable = this.table !== null && this.tableDepth === 1;
    switch (tag) {
      case TABLE:
        this.tableDepth++;
        if (this.tableDepth === 1) this.startTable();
        break;
      case THEAD:
      case TBODY:
      case TFOOT:
        if (inTable) {
          this.closeRow();
          this.section = tag === THEAD ? SECTION_HEAD : SECTION_BODY;
        }
        break;
      case TR:
        if (inTable) {
          this.closeRow();
          this.openRow();
        }
        break;
      case TD:
      case TH:
        if (inTable) {
          this.closeCell();
          if (this.row === null) this.openRow();
          this.openCell(tag === TH);
        }
        break;
      case STRONG:
        if (this.cellOpen && !this.strongDone) {
          if (this.strongDepth === 0) this.cellStrong = '';
          this.strongDepth++;
        }
        break;
      case A:
        if (this.cellOpen && !this.linkSeen) {
          this.linkSeen = true;
          this.cellCode = this.aCode;
          this.cellTitle = this.aTitle;
          this.cellHref = this.aHref;
        }
        break;
      case DIV:
        if (this.cellOpen) this.cellText += ' ';
        if (this.inScope) this.scopeDivDepth++;
        else if (this.matchesScope()) this.enterScope();
        break;
      case BREAK:
        if (this.cellOpen) this.cellText += ' ';
        break;
      case HEADING:
        if (this.tableDepth === 0) {
          this.headingOpen = true;
          this.headingText = '';
        }
        break;
      case RAW:
        this.rawText = true;
        break;
    }
  }

  private closeTag(tag: number): void {
    switch (tag) {
      case TABLE:
        if (this.tableDepth === 0) return;
        if (this.tableDepth === 1 && this.table !== null) this.finishTable();
        this.tableDepth--;
        break;
      case THEAD:
      case TBODY:
      case TFOOT:
        if (this.table !== null && this.tableDepth === 1) {
          this.closeRow();
          this.section = SECTION_NONE;
        }
        break;
      case TR:
        if (this.tableDepth === 1) this.closeRow();
        break;
      case TD:
      case TH:
        if (this.tableDepth === 1) this.closeCell();
        break;
      case STRONG:
        if (this.cellOpen && this.strongDepth > 0) {
          this.strongDepth--;
          if (this.strongDepth === 0) this.strongDone = true;
        }
        break;
      case DIV:
        if (this.cellOpen) this.cellText += ' ';
        if (this.inScope && --this.scopeDivDepth === 0) this.leaveScope();
        break;
      case BREAK:
        if (this.cellOpen) this.cellText += ' ';
        break;
      case HEADING:
        if (this.headingOpen) {
          this.headingOpen = false;
          this.lastHeading = collapseWhitespace(this.headingText) || null;
        }
        break;
      case RAW:
        this.rawText = false;
        break;
    }
  }

  private matchesScope(): boolean {
    const scope = this.query.scope;
    if (scope === undefined) return false;
    if (scope.id !== undefined && this.aId !== scope.id) return false;
    if (scope.className !== undefined && (this.aClass === null || !hasClass(this.aClass, scope.className))) {
      return false;
    }
    if (scope.withCode === true && this.aCode === null) return false;
    return true;
  }

  private enterScope(): void {
    this.inScope = true;
    this.scopeDivDepth = 1;
    this.scopeCode = this.aCode;
    this.scopeText = '';
    this.lastHeading = null;
  }

  private leaveScope(): void {
    this.inScope = false;
    this.scopeCode = null;
    this.scopeText = '';
    this.lastHeading = null;
  }

  private startTable(): void {
    const wanted = this.query.tableId;
    if (wanted !== undefined && this.aId !== wanted) {
      this.table = null;
      return;
    }
    this.table = {
      id: this.aId,
      headers: [],
      headerNames: [],
      rows: [],
      heading: this.lastHeading,
      scope: this.inScope ? { code: this.scopeCode, text: collapseWhitespace(this.scopeText) } : null,
    };
    this.section = SECTION_NONE;
  }

  private finishTable(): void {
    this.closeRow();
    const table = this.table;
    this.table = null;
    this.section = SECTION_NONE;
    if (table !== null) this.tables.push(table);
  }

  private openRow(): void {
    this.row = [];
    this.rowAllTh = true;
    this.rowNames = null;
  }

  private closeRow(): void {
    this.closeCell();
    const row = this.row;
    const table = this.table;
    this.row = null;
    if (row === null || row.length === 0 || table === null) return;
    const isHeader =
      this.section === SECTION_HEAD ||
      (this.section === SECTION_NONE &&
        this.rowAllTh &&
        table.headers.length === 0 &&
        table.rows.length === 0);
    if (!isHeader) {
      table.rows.push(row);
      return;
    }
    const names = this.rowNames;
    table.headers = row.map((cell) => cell.text.toLowerCase());
    table.headerNames = row.map((_, i) => names?.[i] ?? null);
  }

  private openCell(isTh: boolean): void {
    this.cellOpen = true;
    this.cellIsTh = isTh;
    if (!isTh) this.rowAllTh = false;
    this.cellText = '';
    this.cellOrder = this.aOrder;
    this.cellSearch = this.aSearch;
    this.cellName = this.aName;
    this.cellStrong = null;
    this.strongDepth = 0;
    this.strongDone = false;
    this.linkSeen = false;
    this.cellCode = null;
    this.cellTitle = null;
    this.cellHref = null;
  }

  private closeCell(): void {
    if (!this.cellOpen || this.row === null) return;
    this.cellOpen = false;
    const strong = this.cellStrong === null ? null : collapseWhitespace(this.cellStrong) || null;
    this.row.push({
      text: collapseWhitespace(this.cellText),
      order: this.cellOrder,
      search: this.cellSearch,
      strong,
      linkCode: this.cellCode,
      linkTitle: this.cellTitle,
      href: this.cellHref,
    });
    if (this.cellIsTh && this.cellName !== null) (this.rowNames ??= [])[this.row.length - 1] = this.cellName;
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
