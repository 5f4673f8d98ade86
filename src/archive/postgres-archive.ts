// The archive in PostgreSQL (DATABASE_URL), shared by every replica. Same tables and rules as the
// SQLite archive; a write is one transaction. While the server is away every call fails with
// ArchiveUnavailableError (the endpoints answer 503 not_ready, the archiver waits) and the schema
// is made, if needed, on the first call that reaches it.
import postgres from 'postgres';
import {
  adjustmentRecords,
  compareFactors,
  factorRows,
  mergedCoverage,
  POSTGRES_ADJUSTMENT_SCHEMA,
} from './adjustments.ts';
import { POSTGRES_FILE_SCHEMA, type DailyFileStore } from './daily-files.ts';
import { PostgresDailyFiles } from './postgres-files.ts';
import {
  barRowOf,
  coverageRowOf,
  factorRowOf,
  fieldRowOf,
  levelRowOf,
  type BarRow,
  type DbRow,
  type Prices,
} from './rows.ts';
import {
  announcedBounds,
  ArchiveUnavailableError,
  comparePayout,
  compareBar,
  dayNumber,
  dayText,
  reasonsList,
  reasonsText,
  type AdjustmentRecord,
  type ArchivedPayout,
  type PayoutSource,
  type ArchiveStats,
  type ArchiveStore,
  type BarField,
  type DailyBar,
  type IndexLevel,
  type IntradayPoint,
  type SnapshotRow,
  type WriteResult,
} from './store.ts';
import { bounds, merge } from './sqlite-archive.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS archive_bars (
  symbol TEXT NOT NULL, day INTEGER NOT NULL,
  open DOUBLE PRECISION, high DOUBLE PRECISION, low DOUBLE PRECISION, close DOUBLE PRECISION,
  volume DOUBLE PRECISION, reasons TEXT NOT NULL,
  PRIMARY KEY (symbol, day)
);
CREATE INDEX IF NOT EXISTS archive_bars_by_day ON archive_bars (day, symbol);
CREATE TABLE IF NOT EXISTS archive_index_levels (
  code TEXT NOT NULL, day INTEGER NOT NULL,
  open DOUBLE PRECISION, high DOUBLE PRECISION, low DOUBLE PRECISION, close DOUBLE PRECISION,
  volume DOUBLE PRECISION, PRIMARY KEY (code, day)
);
CREATE TABLE IF NOT EXISTS archive_backfill (symbol TEXT PRIMARY KEY, done_at BIGINT NOT NULL, rows INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS archive_recorded_days (day INTEGER PRIMARY KEY, recorded_at BIGINT NOT NULL, symbols INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS archive_intraday (code TEXT NOT NULL, day INTEGER NOT NULL, points TEXT NOT NULL, PRIMARY KEY (code, day));
CREATE TABLE IF NOT EXISTS archive_snapshots (day INTEGER NOT NULL, at BIGINT NOT NULL, rows TEXT NOT NULL, PRIMARY KEY (day, at));
CREATE TABLE IF NOT EXISTS archive_payouts (
  symbol TEXT NOT NULL, announced TEXT NOT NULL, details TEXT NOT NULL, row TEXT NOT NULL,
  PRIMARY KEY (symbol, announced, details)
);
CREATE INDEX IF NOT EXISTS archive_payouts_by_announced ON archive_payouts (announced);
CREATE TABLE IF NOT EXISTS archive_market_payouts (
  symbol TEXT NOT NULL, announced TEXT NOT NULL, details TEXT NOT NULL, row TEXT NOT NULL,
  PRIMARY KEY (symbol, announced, details)
);
CREATE INDEX IF NOT EXISTS archive_market_payouts_by_announced ON archive_market_payouts (announced);
`;

/** The table of each payouts page's kept rows. */
const PAYOUT_TABLES = { company: 'archive_payouts', market: 'archive_market_payouts' } as const;

type Sql = postgres.Sql | postgres.TransactionSql;

/** A float8[] in PostgreSQL's text form ({1.5,NULL,2}), exactly as the server prints each value. */
function arrayNumbers(text: string): Array<number | null> {
  return text
    .slice(1, -1)
    .split(',')
    .map((v) => (v === 'NULL' ? null : Number(v)));
}

export class PostgresArchive implements ArchiveStore {
  readonly backend = 'postgres' as const;
  private readonly sql: postgres.Sql;
  private schema: Promise<void> | undefined;
  readonly files: DailyFileStore = new PostgresDailyFiles(
    (query) => this.read(query),
    (work) => this.write(work),
  );

  constructor(url: string) {
    this.sql = postgres(url, {
      max: 4,
      connect_timeout: 3,
      idle_timeout: 30,
      onnotice: () => {},
      transform: { undefined: null },
    });
  }

  async writeHistory(symbol: string, bars: readonly DailyBar[], doneAt: number): Promise<WriteResult> {
    return this.write(async (tx) => {
      const held = new Map<number, BarRow>();
      for (const row of await tx`SELECT symbol, day, open, high, low, close, volume, reasons FROM archive_bars WHERE symbol = ${symbol}`) {
        const r = barRowOf(row);
        held.set(r.day, r);
      }
      const result = await putBars(tx, bars, held);
      await tx`INSERT INTO archive_backfill (symbol, done_at, rows) VALUES (${symbol}, ${doneAt}, ${bars.length}) ON CONFLICT (symbol) DO NOTHING`;
      return result;
    });
  }

  async writeDay(
    date: string,
    bars: readonly DailyBar[],
    indices: readonly IndexLevel[],
    recordedAt: number,
  ): Promise<WriteResult> {
    return this.write(async (tx) => {
      const day = dayNumber(date);
      const held = new Map<string, BarRow>();
      for (const row of await tx`SELECT symbol, day, open, high, low, close, volume, reasons FROM archive_bars WHERE day = ${day}`) {
        const r = barRowOf(row);
        held.set(r.symbol, r);
      }
      const result = await putBars(tx, bars, undefined, held);
      const levels = await putLevels(tx, indices);
      await tx`INSERT INTO archive_recorded_days (day, recorded_at, symbols) VALUES (${day}, ${recordedAt}, ${bars.length}) ON CONFLICT (day) DO NOTHING`;
      return merge(result, levels);
    });
  }

  async writeIndexLevels(levels: readonly IndexLevel[]): Promise<WriteResult> {
    return this.write((tx) => putLevels(tx, levels));
  }

  async dailyBars(date: string): Promise<DailyBar[]> {
    const rows = await this.read(
      (sql) =>
        sql`SELECT symbol, day, open, high, low, close, volume, reasons FROM archive_bars WHERE day = ${dayNumber(date)} ORDER BY symbol`,
    );
    return rows.map(barOf);
  }

  async bars(symbols: readonly string[], start?: string, end?: string): Promise<DailyBar[]> {
    if (symbols.length === 0) return [];
    const [from, to] = bounds(start, end);
    const rows = await this.read(
      (sql) =>
        sql`SELECT symbol, day, open, high, low, close, volume, reasons FROM archive_bars
          WHERE symbol = ANY(${sql.array([...symbols])}) AND day BETWEEN ${from} AND ${to} ORDER BY symbol, day`,
    );
    // Rows arrive by symbol then day; regrouped in the order asked without a sort.
    const bySymbol = new Map<string, DailyBar[]>(symbols.map((s) => [s, []]));
    for (const row of rows) {
      const bar = barOf(row);
      bySymbol.get(bar.symbol)?.push(bar);
    }
    return [...bySymbol.values()].flat();
  }

  async field(symbols: readonly string[], field: BarField, start?: string, end?: string) {
    const [from, to] = bounds(start, end);
    const out = new Map(
      symbols.map((s) => [s, { symbol: s, dates: [] as string[], values: [] as Array<number | null> }]),
    );
    if (symbols.length === 0) return [];
    // One row per symbol, its days and values as two arrays: a row per bar costs the client more
    // to parse than the query costs the server. Each symbol is its own walk of the primary key (a
    // lateral join) rather than one scan for all symbols grouped afterwards: the walk arrives in day
    // order, so the server does a fraction of the work. A symbol without bars aggregates to null.
    // The values come as the array's text and are split here: the client's own array parser reads
    // a NULL element of a float8[] as NaN.
    const rows = await this.read((sql) =>
      sql`SELECT s.symbol, b.days, b.vs FROM unnest(${sql.array([...symbols])}::text[]) AS s(symbol)
          CROSS JOIN LATERAL (SELECT array_agg(day ORDER BY day) AS days, array_agg(${sql(field)} ORDER BY day)::text AS vs
            FROM archive_bars WHERE archive_bars.symbol = s.symbol AND day BETWEEN ${from} AND ${to}) b`.values(),
    );
    for (const row of rows) {
      const { symbol, days, values } = fieldRowOf(row, field);
      if (days === null || values === null) continue;
      const s = out.get(symbol)!;
      s.dates = days.map(dayText);
      s.values = arrayNumbers(values);
    }
    return [...out.values()];
  }

  async indexLevels(indices: readonly string[], start?: string, end?: string): Promise<IndexLevel[]> {
    if (indices.length === 0) return [];
    const [from, to] = bounds(start, end);
    const rows = await this.read(
      (sql) =>
        sql`SELECT code, day, open, high, low, close, volume FROM archive_index_levels
          WHERE code = ANY(${sql.array([...indices])}) AND day BETWEEN ${from} AND ${to} ORDER BY code, day`,
    );
    return rows.map((row) => {
      const r = levelRowOf(row);
      return {
        index: r.code,
        date: dayText(r.day),
        open: r.open,
        high: r.high,
        low: r.low,
        close: r.close,
        volume: r.volume,
      };
    });
  }

  async tradingDays(from: string, to: string): Promise<string[]> {
    const rows = await this.read(
      (sql) =>
        sql<
          Array<{ day: number }>
        >`SELECT DISTINCT day FROM archive_bars WHERE day BETWEEN ${dayNumber(from)} AND ${dayNumber(to)} ORDER BY day`,
    );
    return rows.map((r) => dayText(r.day));
  }

  async neighbours(date: string): Promise<{ previous: string | null; next: string | null }> {
    const day = dayNumber(date);
    const [row] = await this.read(
      (sql) => sql<Array<{ previous: number | null; next: number | null }>>`SELECT
        (SELECT max(day) FROM archive_bars WHERE day < ${day}) AS previous,
        (SELECT min(day) FROM archive_bars WHERE day > ${day}) AS next`,
    );
    return {
      previous: row?.previous == null ? null : dayText(row.previous),
      next: row?.next == null ? null : dayText(row.next),
    };
  }

  async backfilled(): Promise<Set<string>> {
    const rows = await this.read(
      (sql) => sql<Array<{ symbol: string }>>`SELECT symbol FROM archive_backfill`,
    );
    return new Set(rows.map((r) => r.symbol));
  }

  async recordedDays(): Promise<Set<string>> {
    const rows = await this.read((sql) => sql<Array<{ day: number }>>`SELECT day FROM archive_recorded_days`);
    return new Set(rows.map((r) => dayText(r.day)));
  }

  async stats(): Promise<ArchiveStats> {
    const [row] = await this.read(
      (sql) => sql<
        Array<{ symbols: number; rows: number; days: number; first: number | null; last: number | null }>
      >`SELECT (SELECT count(*) FROM archive_backfill)::int AS symbols,
          count(*)::int AS rows, count(DISTINCT day)::int AS days, min(day) AS first, max(day) AS last
        FROM archive_bars`,
    );
    return {
      symbolsBackfilled: row?.symbols ?? 0,
      rows: row?.rows ?? 0,
      days: row?.days ?? 0,
      firstDate: row?.first == null ? null : dayText(row.first),
      lastDate: row?.last == null ? null : dayText(row.last),
    };
  }

  async writeIntraday(code: string, date: string, points: readonly IntradayPoint[]): Promise<WriteResult> {
    const day = dayNumber(date);
    const text = JSON.stringify(points);
    return this.write(async (tx) => {
      const [held] = await tx<
        Array<{ points: string }>
      >`SELECT points FROM archive_intraday WHERE code = ${code} AND day = ${day}`;
      if (!held) {
        await tx`INSERT INTO archive_intraday (code, day, points) VALUES (${code}, ${day}, ${text})`;
        return { inserted: 1, unchanged: 0, disagreements: [] };
      }
      if (held.points === text) return { inserted: 0, unchanged: 1, disagreements: [] };
      return {
        inserted: 0,
        unchanged: 0,
        disagreements: [
          { key: code, date, field: 'intraday', stored: held.points.length, seen: text.length },
        ],
      };
    });
  }

  async intraday(code: string, date: string): Promise<IntradayPoint[] | undefined> {
    const [held] = await this.read(
      (sql) =>
        sql<
          Array<{ points: string }>
        >`SELECT points FROM archive_intraday WHERE code = ${code} AND day = ${dayNumber(date)}`,
    );
    return held ? (JSON.parse(held.points) as IntradayPoint[]) : undefined;
  }

  async writeSnapshot(date: string, at: number, rows: readonly SnapshotRow[]): Promise<void> {
    await this.write(
      (tx) =>
        tx`INSERT INTO archive_snapshots (day, at, rows) VALUES (${dayNumber(date)}, ${at}, ${JSON.stringify(rows)}) ON CONFLICT DO NOTHING`,
    );
  }

  async snapshots(date: string): Promise<Array<{ at: number; rows: SnapshotRow[] }>> {
    const rows = await this.read(
      (sql) =>
        sql<
          Array<{ at: number; rows: string }>
        >`SELECT at, rows FROM archive_snapshots WHERE day = ${dayNumber(date)} ORDER BY at`,
    );
    return rows.map((r) => ({ at: Number(r.at), rows: JSON.parse(r.rows) as SnapshotRow[] }));
  }

  async writePayouts(rows: readonly ArchivedPayout[]): Promise<number> {
    return this.write(async (tx) => {
      let added = 0;
      for (const r of rows) {
        const res = await tx`INSERT INTO archive_payouts (symbol, announced, details, row)
          VALUES (${r.symbol}, ${r.announced ?? ''}, ${r.details}, ${JSON.stringify(r.row)}) ON CONFLICT DO NOTHING`;
        added += res.count;
      }
      return added;
    });
  }

  async payouts(symbol: string): Promise<ArchivedPayout[]> {
    const rows = await this.read(
      (sql) =>
        sql<
          Array<{ symbol: string; announced: string; details: string; row: string }>
        >`SELECT symbol, announced, details, row
          FROM archive_payouts WHERE symbol = ${symbol} ORDER BY announced DESC`,
    );
    return rows.map((r) => ({
      symbol: r.symbol,
      announced: r.announced === '' ? null : r.announced,
      details: r.details,
      row: JSON.parse(r.row) as unknown,
    }));
  }

  async writeAdjustments(record: AdjustmentRecord): Promise<WriteResult> {
    return this.write(async (tx) => {
      const held = (
        await tx`SELECT symbol, day, kind, seq, factor, ratio, amount
          FROM archive_adjustment_factors WHERE symbol = ${record.symbol}`
      ).map(factorRowOf);
      const { fresh, result } = compareFactors(held, factorRows(record));
      for (const f of fresh) {
        await tx`INSERT INTO archive_adjustment_factors (symbol, day, kind, seq, factor, ratio, amount)
          VALUES (${f.symbol}, ${f.day}, ${f.kind}, ${f.seq}, ${f.factor}, ${f.ratio}, ${f.amount})`;
      }
      const [coverage] = (
        await tx`SELECT * FROM archive_adjustment_coverage WHERE symbol = ${record.symbol} FOR UPDATE`
      ).map(coverageRowOf);
      const c = mergedCoverage(coverage, record);
      await tx`INSERT INTO archive_adjustment_coverage
          (symbol, checked_at, checked_through, series_start, dividends_from, dividends_known)
        VALUES (${c.symbol}, ${c.checked_at}, ${c.checked_through}, ${c.series_start}, ${c.dividends_from}, ${Boolean(c.dividends_known)})
        ON CONFLICT (symbol) DO UPDATE SET checked_at = excluded.checked_at,
          checked_through = excluded.checked_through, series_start = excluded.series_start,
          dividends_from = excluded.dividends_from, dividends_known = excluded.dividends_known`;
      return result;
    });
  }

  async keepPayouts(source: PayoutSource, rows: readonly ArchivedPayout[]): Promise<WriteResult> {
    const table = PAYOUT_TABLES[source];
    return this.write(async (tx) => {
      const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
      for (const r of rows) {
        const json = JSON.stringify(r.row);
        const held = await tx<Array<{ row: string }>>`SELECT row FROM ${tx(table)}
          WHERE symbol = ${r.symbol} AND announced = ${r.announced ?? ''} AND details = ${r.details}`;
        if (held.length === 0) {
          await tx`INSERT INTO ${tx(table)} (symbol, announced, details, row)
            VALUES (${r.symbol}, ${r.announced ?? ''}, ${r.details}, ${json}) ON CONFLICT DO NOTHING`;
          result.inserted++;
          continue;
        }
        const diff = comparePayout(r, held[0]!.row, json);
        if (diff.length === 0) result.unchanged++;
        else result.disagreements.push(...diff);
      }
      return result;
    });
  }

  async adjustments(symbols?: readonly string[]) {
    const [coverage, factors] = await this.read(async (sql) =>
      symbols === undefined
        ? Promise.all([
            sql`SELECT * FROM archive_adjustment_coverage`,
            sql`SELECT * FROM archive_adjustment_factors`,
          ])
        : Promise.all([
            sql`SELECT * FROM archive_adjustment_coverage WHERE symbol = ANY(${sql.array([...symbols])})`,
            sql`SELECT * FROM archive_adjustment_factors WHERE symbol = ANY(${sql.array([...symbols])})`,
          ]),
    );
    return adjustmentRecords(coverage.map(coverageRowOf), factors.map(factorRowOf));
  }

  async keptPayouts(
    source: PayoutSource,
    from: string,
    to: string,
    symbol?: string,
  ): Promise<ArchivedPayout[]> {
    const table = PAYOUT_TABLES[source];
    const [lo, hi] = announcedBounds(from, to);
    const rows = await this.read(
      (sql) =>
        sql<Array<{ symbol: string; announced: string; details: string; row: string }>>`
          SELECT symbol, announced, details, row FROM ${sql(table)}
          WHERE announced >= ${lo} AND announced < ${hi} ${symbol === undefined ? sql`` : sql`AND symbol = ${symbol}`}
          ORDER BY announced DESC, symbol, details`,
    );
    return rows.map((r) => ({
      symbol: r.symbol,
      announced: r.announced,
      details: r.details,
      row: JSON.parse(r.row) as unknown,
    }));
  }

  async ping(): Promise<void> {
    await this.read((sql) => sql`SELECT 1`);
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 2 });
  }

  private async ready(): Promise<void> {
    this.schema ??= this.sql
      .unsafe(SCHEMA + POSTGRES_ADJUSTMENT_SCHEMA + POSTGRES_FILE_SCHEMA)
      .then(() => undefined)
      .catch((err: unknown) => {
        this.schema = undefined;
        throw err;
      });
    return this.schema;
  }

  private async read<T>(query: (sql: postgres.Sql) => Promise<T>): Promise<T> {
    try {
      await this.ready();
      return await query(this.sql);
    } catch (err) {
      throw unavailable('read', err);
    }
  }

  private async write<T>(work: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
    try {
      await this.ready();
      return (await this.sql.begin((tx) => work(tx))) as T;
    } catch (err) {
      throw unavailable('written', err);
    }
  }
}

function unavailable(verb: string, err: unknown): ArchiveUnavailableError {
  return new ArchiveUnavailableError(`the archive could not be ${verb}: ${(err as Error).message}`, err);
}

/** New bars inserted in one statement; held ones compared (by day for a symbol, by symbol for a day). */
async function putBars(
  tx: Sql,
  bars: readonly DailyBar[],
  byDay?: Map<number, BarRow>,
  bySymbol?: Map<string, BarRow>,
): Promise<WriteResult> {
  const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
  const fresh: BarRow[] = [];
  for (const bar of bars) {
    const day = dayNumber(bar.date);
    const stored = byDay ? byDay.get(day) : bySymbol?.get(bar.symbol);
    if (stored) {
      const diff = compareBar(bar.symbol, bar.date, stored, bar);
      if (diff.length === 0) result.unchanged++;
      else result.disagreements.push(...diff);
      continue;
    }
    const row = { ...bar, day, reasons: reasonsText(bar.anomaly_reasons) };
    byDay?.set(day, row);
    bySymbol?.set(bar.symbol, row);
    fresh.push(row);
  }
  for (let i = 0; i < fresh.length; i += 5000) {
    const chunk = fresh.slice(i, i + 5000);
    await tx`INSERT INTO archive_bars (symbol, day, open, high, low, close, volume, reasons)
      SELECT * FROM unnest(${tx.array(chunk.map((r) => r.symbol))}::text[], ${tx.array(chunk.map((r) => r.day))}::int[],
        ${tx.array(chunk.map((r) => r.open) as number[])}::float8[], ${tx.array(chunk.map((r) => r.high) as number[])}::float8[],
        ${tx.array(chunk.map((r) => r.low) as number[])}::float8[], ${tx.array(chunk.map((r) => r.close) as number[])}::float8[],
        ${tx.array(chunk.map((r) => r.volume) as number[])}::float8[], ${tx.array(chunk.map((r) => r.reasons))}::text[])`;
  }
  result.inserted += fresh.length;
  return result;
}

async function putLevels(tx: Sql, levels: readonly IndexLevel[]): Promise<WriteResult> {
  const result: WriteResult = { inserted: 0, unchanged: 0, disagreements: [] };
  if (levels.length === 0) return result;
  const codes = [...new Set(levels.map((l) => l.index))];
  const days = levels.map((l) => dayNumber(l.date));
  const held = new Map<string, Prices>();
  const rows = await tx`SELECT code, day, open, high, low, close, volume
    FROM archive_index_levels WHERE code = ANY(${tx.array(codes)}) AND day BETWEEN ${Math.min(...days)} AND ${Math.max(...days)}`;
  for (const row of rows) {
    const r = levelRowOf(row);
    held.set(`${r.code}|${r.day}`, r);
  }
  const fresh: Array<IndexLevel & { day: number }> = [];
  for (const l of levels) {
    const day = dayNumber(l.date);
    const stored = held.get(`${l.index}|${day}`);
    if (stored) {
      // A closing page has no open and the daily series no high or low: only shared fields count.
      const both = (f: keyof Prices, a: Prices, b: Prices) => (a[f] === null || b[f] === null ? null : a[f]);
      const pick = (a: Prices, b: Prices) => ({
        open: both('open', a, b),
        high: both('high', a, b),
        low: both('low', a, b),
        close: both('close', a, b),
        volume: both('volume', a, b),
      });
      const diff = compareBar(l.index, l.date, pick(stored, l), pick(l, stored));
      if (diff.length === 0) result.unchanged++;
      else result.disagreements.push(...diff);
      continue;
    }
    const row = { ...l, day };
    held.set(`${l.index}|${day}`, row);
    fresh.push(row);
  }
  for (let i = 0; i < fresh.length; i += 5000) {
    const c = fresh.slice(i, i + 5000);
    const col = (f: 'open' | 'high' | 'low' | 'close' | 'volume') => tx.array(c.map((r) => r[f]) as number[]);
    await tx`INSERT INTO archive_index_levels (code, day, open, high, low, close, volume)
      SELECT * FROM unnest(${tx.array(c.map((r) => r.index))}::text[], ${tx.array(c.map((r) => r.day))}::int[],
        ${col('open')}::float8[], ${col('high')}::float8[], ${col('low')}::float8[], ${col('close')}::float8[],
        ${col('volume')}::float8[])`;
  }
  result.inserted += fresh.length;
  return result;
}

function barOf(row: DbRow): DailyBar {
  const r: BarRow = barRowOf(row);
  return {
    symbol: r.symbol,
    date: dayText(r.day),
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
    anomaly_reasons: reasonsList(r.reasons),
  };
}
