// Page drift: rules a test or the control API adds so a page changes its structure the way the real
// portal's pages do without notice (a column dropped, a table gone), until the rule is removed.
// Drift rewrites the rendered HTML of the matching pages, or the `closing11.lis` inside a daily
// closing file (`/download/mkt_summary/…`); the dataset itself is untouched.
import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import { zipOne } from './daily-files.ts';
import { page, TOKEN_MARK, type Page } from './page-cache.ts';

export interface DriftRule {
  /** The page's path exactly (`/market-watch`), or every path under it when it ends with `/` (`/company/`). */
  path: string;
  /** Drop this column from every table that has it: its header and its cell in each row (header text, any case). */
  dropColumn?: string;
  /** Remove every table from the page (what is left still answers 200). */
  removeTables?: boolean;
  /**
   * A daily closing file only: serve its `closing11.lis` text bare, in neither ZIP nor gzip. (On a
   * daily file `dropColumn` names a field of the line layout, `DATE|SYMBOL|SECTOR|NAME|OPEN|HIGH|
   * LOW|CLOSE|VOLUME|LDCP`, removed from every line; `removeTables` does nothing there.)
   */
  unpacked?: boolean;
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
  if (o.unpacked !== undefined) {
    if (typeof o.unpacked !== 'boolean') throw new Error('unpacked must be true or false');
    rule.unpacked = o.unpacked;
  }
  if (rule.dropColumn === undefined && rule.removeTables !== true && rule.unpacked !== true) {
    throw new Error('a drift rule needs dropColumn, removeTables: true or unpacked: true');
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

const DAILY_FILE = /^\/download\/mkt_summary\//;
/** A daily file's line layout (upstream.md §7), the names `dropColumn` takes there. */
const DAILY_FILE_LAYOUT = [
  'date',
  'symbol',
  'sector',
  'name',
  'open',
  'high',
  'low',
  'close',
  'volume',
  'ldcp',
];

/** The `closing11.lis` bytes of a body the fake portal made: gzip, or zipOne's one-member ZIP. */
function unpack(body: Buffer): { zip: boolean; text: Buffer } {
  if (body[0] === 0x1f && body[1] === 0x8b) return { zip: false, text: gunzipSync(body) };
  const nameLength = body.readUInt16LE(26);
  const at = 30 + nameLength + body.readUInt16LE(28);
  return { zip: true, text: inflateRawSync(body.subarray(at, at + body.readUInt32LE(18))) };
}

/** A daily file as the drifted portal serves it. */
function driftDailyFile(body: Buffer, rules: readonly DriftRule[]): Buffer {
  const { zip, text } = unpack(body);
  let lines = text.toString('latin1');
  for (const rule of rules) {
    const column = DAILY_FILE_LAYOUT.indexOf(rule.dropColumn?.trim().toLowerCase() ?? '');
    if (column < 0) continue;
    lines = lines.replace(/^[^\r\n]+/gm, (line) =>
      line
        .split('|')
        .filter((_, i) => i !== column)
        .join('|'),
    );
  }
  const out = Buffer.from(lines, 'latin1');
  if (rules.some((r) => r.unpacked === true)) return out;
  return zip ? zipOne('closing11.lis', out) : gzipSync(out);
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
    if (DAILY_FILE.test(path)) {
      const body = driftDailyFile(Buffer.concat(p.parts), matching);
      return { ...p, parts: [body], bytes: body.length };
    }
    let text = p.parts.map((b) => b.toString('utf8')).join(TOKEN_MARK);
    for (const rule of matching) {
      if (rule.removeTables === true) text = text.replace(TABLE, '');
      const header = rule.dropColumn;
      if (header !== undefined) text = text.replace(TABLE, (table) => dropColumnOf(table, header));
    }
    return page(p.status, p.type, text);
  }
}
