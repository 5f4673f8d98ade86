// `GET /sector-summary/sectorwise`: a summary table (one row per sector), then one
// `div.sectorSummary__companies__table[data-code]` per sector with an `<h3>` name and a member
// table. Templating comments sit between cells (and once hid Open/Current/Change columns).
import type { SectorMembers, SectorPage, SectorSummaryRow } from '../types.ts';
import { cellInteger, cellNumber, cellSymbol, cellText } from './cells.ts';
import { cellAt, requirePageText, selectTable } from './columns.ts';
import { extractTables, type Cell } from '../html/table.ts';

const SUMMARY_COLUMNS = {
  code: { labels: ['sector code'], required: true },
  name: { labels: ['sector name'], required: true },
  advance: { labels: ['advance'] },
  decline: { labels: ['decline'] },
  // The portal's header says "Unchange".
  unchanged: { labels: ['unchange', 'unchanged'] },
  turnover: { labels: ['turnover'] },
  marketCapB: { labels: ['market cap. (b)', 'market cap (b)'] },
} as const;

const MEMBER_COLUMNS = {
  symbol: { labels: ['symbol'], dataName: 'symbol', required: true },
} as const;

/** The sector name: data-order holds it whole; the `<strong>` and the text are fallbacks. */
function sectorName(cell: Cell | undefined): string | null {
  if (cell === undefined) return null;
  const name = cell.order?.trim() || cell.strong || cell.text;
  return name.length > 0 ? name : null;
}

export function parseSectorSummary(html: string): SectorPage {
  const page = requirePageText('sector-summary', html);
  const tables = extractTables(page, {
    scope: { className: 'sectorSummary__companies__table', withCode: true },
  });
  const { table: summary, columns: c } = selectTable(
    'sector-summary',
    tables.filter((t) => t.scope === null),
    SUMMARY_COLUMNS,
  );

  const sectors: SectorSummaryRow[] = [];
  for (const row of summary.rows) {
    const sectorCode = cellText(cellAt(row, c.code));
    const name = sectorName(cellAt(row, c.name));
    if (sectorCode === null || name === null) continue;
    sectors.push({
      sectorCode,
      sectorName: name,
      advance: cellInteger(cellAt(row, c.advance)),
      decline: cellInteger(cellAt(row, c.decline)),
      unchanged: cellInteger(cellAt(row, c.unchanged)),
      turnover: cellNumber(cellAt(row, c.turnover)),
      marketCapB: cellNumber(cellAt(row, c.marketCapB)),
    });
  }

  const namesByCode = new Map(sectors.map((s) => [s.sectorCode, s.sectorName]));
  const members: SectorMembers[] = [];
  for (const table of tables) {
    const sectorCode = table.scope?.code?.trim();
    if (sectorCode === undefined || sectorCode.length === 0) continue;
    const symbols: string[] = [];
    // A sector can come as `<thead></thead><tbody></tbody>`: no members, and no headers either.
    if (table.rows.length > 0) {
      const { columns } = selectTable('sector-summary', [table], MEMBER_COLUMNS);
      for (const row of table.rows) {
        const symbol = cellSymbol(cellAt(row, columns.symbol));
        if (symbol !== null) symbols.push(symbol);
      }
    }
    members.push({
      sectorCode,
      sectorName: table.heading ?? namesByCode.get(sectorCode) ?? '',
      symbols,
    });
  }
  return { sectors, members };
}
