// `GET /indices`: a full page. The levels table sits in `div#indicesTable` after an
// `As of Sep 30, 2026 3:50 PM` line; the page also has an index carousel (not a table) and an
// empty "Sector Indices" table, both ignored.
import type { IndexLevelRow, IndexLevelsPage } from '../types.ts';
import { cellNumber, isSymbol } from './cells.ts';
import { cellAt, requirePageText, selectTable } from './columns.ts';
import { karachiDateTime, parseAsOfLine } from './dates.ts';
import { extractTables, type Cell, type Table } from '../html/table.ts';

const COLUMNS = {
  index: { labels: ['index'], required: true },
  high: { labels: ['high'] },
  low: { labels: ['low'] },
  current: { labels: ['current'], required: true },
  change: { labels: ['change'] },
  changePct: { labels: ['% change', 'change (%)'] },
} as const;

/** A stale index shows when it last moved: `(29-09-2026 18:30:00)`, day first. */
const STALE_STAMP = /\((\d{1,2})-(\d{1,2})-(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\)/;

function parseStaleStamp(text: string): string | null {
  const match = STALE_STAMP.exec(text);
  if (match === null) return null;
  return karachiDateTime(
    Number(match[3]),
    Number(match[2]),
    Number(match[1]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6] ?? 0),
  );
}

/** The index code: the link's data-code, or the bare `<b>` of a stale index. */
function indexCode(cell: Cell | undefined): string | null {
  if (cell === undefined) return null;
  for (const candidate of [cell.linkCode, cell.strong, cell.text.split(' ')[0] ?? null]) {
    const code = candidate?.trim();
    if (code !== undefined && isSymbol(code)) return code.toUpperCase();
  }
  return null;
}

export function parseIndexLevels(html: string): IndexLevelsPage {
  const page = requirePageText('index-levels', html);
  const tables = extractTables(page, { scope: { id: 'indicesTable' } });
  // Prefer the table in div#indicesTable; fall back to any table with the columns, should the
  // wrapper be renamed.
  const scoped: Table[] = tables.filter((t) => t.scope !== null);
  const candidates = [...scoped, ...tables.filter((t) => t.scope === null)];
  const { table, columns: c } = selectTable('index-levels', candidates, COLUMNS);
  const rows: IndexLevelRow[] = [];
  for (const row of table.rows) {
    const indexCell = cellAt(row, c.index);
    const index = indexCode(indexCell);
    if (index === null) continue;
    rows.push({
      index,
      high: cellNumber(cellAt(row, c.high)),
      low: cellNumber(cellAt(row, c.low)),
      current: cellNumber(cellAt(row, c.current)),
      change: cellNumber(cellAt(row, c.change)),
      changePct: cellNumber(cellAt(row, c.changePct)),
      staleSince: indexCell === undefined ? null : parseStaleStamp(indexCell.text),
    });
  }
  const asOf = parseAsOfLine(table.scope?.text ?? '') ?? parseAsOfLine(page);
  return { asOf, rows };
}
