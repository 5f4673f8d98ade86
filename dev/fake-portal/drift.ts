// Page drift: rules a test or the control API adds so a page changes its structure the way the real
// portal's pages do without notice (a column dropped, a table gone), until the rule is removed.
// Drift rewrites the rendered HTML of the matching pages; the dataset itself is untouched.
import { page, TOKEN_MARK, type Page } from './page-cache.ts';

export interface DriftRule {
  /** The page's path exactly (`/market-watch`), or every path under it when it ends with `/` (`/company/`). */
  path: string;
  /** Drop this column from every table that has it: its header and its cell in each row (header text, any case). */
  dropColumn?: string;
  /** Remove every table from the page (what is left still answers 200). */
  removeTables?: boolean;
}

/** Validates a rule from the control API or a test; throws on anything malformed. */
export function parseDriftRule(input: unknown): DriftRule {
  if (typeof input !== 'object' || input === null) throw new Error('drift rule must be an object');
  const o = input as Record<string, unknown>;
  if (typeof o.path !== 'string' || !o.path.startsWith('/')) throw new Error('path must start with /');
  const rule: DriftRule = { path: o.path };
  if (o.dropColumn !== undefined) {
    if (typeof o.dropColumn !== 'string' || o.dropColumn.trim() === '') {
      throw new Error('dropColumn must be a header text');
    }
    rule.dropColumn = o.dropColumn;
  }
  if (o.removeTables !== undefined) {
    if (typeof o.removeTables !== 'boolean') throw new Error('removeTables must be true or false');
    rule.removeTables = o.removeTables;
  }
  if (rule.dropColumn === undefined && rule.removeTables !== true) {
    throw new Error('a drift rule needs dropColumn or removeTables: true');
  }
  return rule;
}

const TABLE = /<table\b[\s\S]*?<\/table>/gi;
const ROW = /<tr\b[^>]*>[\s\S]*?<\/tr>/gi;
const CELL = /<(t[hd])\b[^>]*>[\s\S]*?<\/\1>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;

/** A header's text as a reader sees it: tags dropped, whitespace collapsed, lowercased. */
function headerText(cell: string): string {
  return cell
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The table without the column headed `header`; unchanged when it has no such column. */
function dropColumnOf(table: string, header: string): string {
  const plain = table.replace(COMMENT, '');
  const wanted = header.replace(/\s+/g, ' ').trim().toLowerCase();
  let column = -1;
  for (const row of plain.match(ROW) ?? []) {
    const cells = row.match(CELL) ?? [];
    if (!cells.some((c) => /^<th\b/i.test(c))) continue;
    column = cells.findIndex((c) => headerText(c) === wanted);
    break;
  }
  if (column < 0) return table;
  return plain.replace(ROW, (row) => {
    let index = -1;
    return row.replace(CELL, (cell) => (++index === column ? '' : cell));
  });
}

/** The rules in force; each rewrites the pages its path matches, in the order added. */
export class DriftRules {
  private rules: DriftRule[] = [];

  get size(): number {
    return this.rules.length;
  }

  add(rule: DriftRule): void {
    this.rules.push(rule);
  }

  /** Removes the rules for `path` (exactly as given when added), or every rule. */
  restore(path?: string): void {
    this.rules = path === undefined ? [] : this.rules.filter((r) => r.path !== path);
  }

  /** `p` as the drifted portal serves it at `path` (the same page when no rule matches or it is not 200). */
  apply(path: string, p: Page): Page {
    if (this.rules.length === 0 || p.status !== 200) return p;
    const matching = this.rules.filter(
      (r) => r.path === path || (r.path.endsWith('/') && path.startsWith(r.path)),
    );
    if (matching.length === 0) return p;
    let text = p.parts.map((b) => b.toString('utf8')).join(TOKEN_MARK);
    for (const rule of matching) {
      if (rule.removeTables === true) text = text.replace(TABLE, '');
      const header = rule.dropColumn;
      if (header !== undefined) text = text.replace(TABLE, (table) => dropColumnOf(table, header));
    }
    return page(p.status, p.type, text);
  }
}
