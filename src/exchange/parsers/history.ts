// `POST /historical`: `table#historicalTable`, the symbol's whole daily history, newest first.
// Headers `DATE ` (trailing space), OPEN, HIGH, LOW, CLOSE, VOLUME. The date cell's data-order is
// epoch seconds of 16:00 Asia/Karachi that day (text `Jan 3, 2025`); the numeric cells have no
// data-order and show `4,496,408`. A symbol without history gives the table with an empty body.
import type { HistoryRow } from '../types.ts';
import { cellInteger, cellNumber, parseOrderNumber } from './cells.ts';
import { cellAt, preferTableId, requirePageText, selectTable } from './columns.ts';
import { karachiDateFromEpoch, parseDisplayDate } from './dates.ts';
import { extractTables, type Cell } from '../html/table.ts';

const COLUMNS = {
  date: { labels: ['date'], dataName: 'time', required: true },
  open: { labels: ['open'], dataName: 'open' },
  high: { labels: ['high'], dataName: 'high' },
  low: { labels: ['low'], dataName: 'low' },
  close: { labels: ['close'], dataName: 'close', required: true },
  volume: { labels: ['volume'], dataName: 'volume' },
} as const;

/** Epoch seconds the portal could mean: 1973 … 2286. Anything else is not seconds. */
const MIN_EPOCH = 1e8;
const MAX_EPOCH = 1e10;

function historyDate(cell: Cell | undefined): string | null {
  if (cell === undefined) return null;
  const epoch = parseOrderNumber(cell.order);
  if (epoch !== null && epoch >= MIN_EPOCH && epoch < MAX_EPOCH) return karachiDateFromEpoch(epoch);
  return parseDisplayDate(cell.text);
}

/** Rows in the portal's order (newest first); rows without a readable date are skipped. */
export function parseHistory(html: string): HistoryRow[] {
  const page = requirePageText('history', html);
  const { table, columns: c } = selectTable(
    'history',
    preferTableId(extractTables(page), 'historicalTable'),
    COLUMNS,
  );
  const rows: HistoryRow[] = [];
  for (const row of table.rows) {
    const date = historyDate(cellAt(row, c.date));
    if (date === null) continue;
    rows.push({
      date,
      open: cellNumber(cellAt(row, c.open)),
      high: cellNumber(cellAt(row, c.high)),
      low: cellNumber(cellAt(row, c.low)),
      close: cellNumber(cellAt(row, c.close)),
      volume: cellInteger(cellAt(row, c.volume)),
    });
  }
  return rows;
}
