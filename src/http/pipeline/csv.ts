// RFC 4180 CSV for answers: a header row (also when there are no rows), CRLF line ends, fields
// quoted only when they must be. Lists inside a cell (anomaly reasons, listed_in) are joined with
// ';'; null is an empty field.

/**
 * `columns`: the header of an empty list, or of a list of strings (`['symbol']`). `order`: the
 * answer's own field order (Answer.columns), where the objects' key order is not it.
 */
export function toCsv(
  rows: readonly unknown[],
  columns: readonly string[],
  order?: readonly string[],
): string {
  if (rows.length === 0) return columns.map(field).join(',') + '\r\n';
  if (typeof rows[0] !== 'object') {
    return [columns.map(field).join(','), ...rows.map((r) => field(r))].join('\r\n') + '\r\n';
  }
  const cols = orderedKeys(columnOrder(rows as Array<Record<string, unknown>>, columns), order);
  const lines = [cols.map(field).join(',')];
  for (const row of rows as Array<Record<string, unknown>>) {
    lines.push(cols.map((c) => field(row[c])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * Every key any row has (optional fields such as freefloat_m vs shares_m appear in some rows only).
 * When `columns` names all of the first row's keys it gives the order: JavaScript lists an
 * integer-like key first (a wide panel's `786` before `date`), which would break a reader that takes
 * the first column as the index.
 */
export function columnOrder(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns: readonly string[],
): string[] {
  const keys = new Set<string>();
  const first = rows[0];
  if (first !== undefined && Object.keys(first).every((k) => columns.includes(k))) {
    for (const c of columns) if (Object.hasOwn(first, c)) keys.add(c);
  }
  for (const row of rows) for (const k of Object.keys(row)) keys.add(k);
  return [...keys];
}

/** `keys` with those `order` names first, in its order; the rest after, as they came. */
export function orderedKeys(keys: readonly string[], order: readonly string[] | undefined): string[] {
  if (order === undefined) return [...keys];
  const present = new Set(keys);
  const first = order.filter((k) => present.has(k));
  const named = new Set(first);
  return [...first, ...keys.filter((k) => !named.has(k))];
}

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value)
    ? value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(';')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
