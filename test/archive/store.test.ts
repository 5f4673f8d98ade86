// The archive's contract, run against both backends: SQLite in a temp directory and a real
// PostgreSQL started by the test on loopback (skipped, saying why, when it is not installed).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import postgres from 'postgres';
import { PostgresArchive } from '../../src/archive/postgres-archive.ts';
import { SqliteArchive } from '../../src/archive/sqlite-archive.ts';
import type { DailyFileRow } from '../../src/archive/daily-files.ts';
import { ArchiveUnavailableError, type ArchiveStore, type DailyBar } from '../../src/archive/store.ts';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.ts';

function bar(symbol: string, date: string, close: number, reasons: string[] = []): DailyBar {
  return {
    symbol,
    date,
    open: close - 1,
    high: close + 1,
    low: close - 2,
    close,
    volume: 1000,
    anomaly_reasons: reasons,
  };
}

function contract(
  name: string,
  open: () => Promise<ArchiveStore>,
  extra?: (get: () => ArchiveStore) => void,
) {
  describe(`archive store: ${name}`, () => {
    let store: ArchiveStore;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store.close();
    });

    test('a backfilled history is read back by symbol and by day, with its flags', async () => {
      const rows = [
        bar('AAA', '2026-11-18', 10),
        bar('AAA', '2026-11-19', 11.25, ['beyond_price_limit']),
        bar('AAA', '2026-11-20', 12),
      ];
      const result = await store.writeHistory('AAA', rows, 1);
      assert.equal(result.inserted, 3);
      await store.writeHistory('BBB', [bar('BBB', '2026-11-19', 50.5), bar('BBB', '2026-11-20', 51)], 2);
      assert.deepEqual(await store.bars(['AAA'], '2026-11-19', '2026-11-20'), rows.slice(1));
      const day = await store.dailyBars('2026-11-19');
      assert.deepEqual(
        day.map((b) => [b.symbol, b.close, b.anomaly_reasons]),
        [
          ['AAA', 11.25, ['beyond_price_limit']],
          ['BBB', 50.5, []],
        ],
      );
      assert.deepEqual([...(await store.backfilled())].sort(), ['AAA', 'BBB']);
      assert.deepEqual(await store.field(['BBB', 'AAA', 'NONE'], 'close', '2026-11-19'), [
        { symbol: 'BBB', dates: ['2026-11-19', '2026-11-20'], values: [50.5, 51] },
        { symbol: 'AAA', dates: ['2026-11-19', '2026-11-20'], values: [11.25, 12] },
        { symbol: 'NONE', dates: [], values: [] },
      ]);
      // Panels keep the order asked for.
      assert.deepEqual(
        (await store.bars(['BBB', 'AAA'], '2026-11-20')).map((b) => b.symbol),
        ['BBB', 'AAA'],
      );
    });

    test('raw rows are never overwritten: a different value is reported, the stored one stays', async () => {
      const result = await store.writeDay(
        '2026-11-20',
        [bar('AAA', '2026-11-20', 12.5), bar('CCC', '2026-11-20', 7)],
        [],
        3,
      );
      assert.equal(result.inserted, 1);
      assert.deepEqual(
        result.disagreements.map((d) => [d.key, d.field, d.stored, d.seen]),
        [
          ['AAA', 'open', 11, 11.5],
          ['AAA', 'high', 13, 13.5],
          ['AAA', 'low', 10, 10.5],
          ['AAA', 'close', 12, 12.5],
        ],
      );
      assert.equal((await store.bars(['AAA'], '2026-11-20'))[0]!.close, 12);
      assert.ok((await store.recordedDays()).has('2026-11-20'));
    });

    test('trading days, neighbours and stats come from the bars held', async () => {
      assert.deepEqual(await store.tradingDays('2026-11-01', '2026-11-30'), [
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
      ]);
      assert.deepEqual(await store.neighbours('2026-11-19'), { previous: '2026-11-18', next: '2026-11-20' });
      assert.deepEqual(await store.neighbours('2026-11-21'), { previous: '2026-11-20', next: null });
      const stats = await store.stats();
      assert.deepEqual(stats, {
        symbolsBackfilled: 2,
        rows: 6,
        days: 3,
        firstDate: '2026-11-18',
        lastDate: '2026-11-20',
      });
    });

    test('index levels from the daily series and the closing page agree on what both give', async () => {
      await store.writeIndexLevels([
        { index: 'KSE100', date: '2026-11-19', open: 100, high: null, low: null, close: 101, volume: 5 },
      ]);
      const closing = await store.writeDay(
        '2026-11-19',
        [],
        [{ index: 'KSE100', date: '2026-11-19', open: null, high: 102, low: 99, close: 101, volume: null }],
        4,
      );
      assert.deepEqual(closing.disagreements, []);
      assert.equal((await store.indexLevels(['KSE100']))[0]!.close, 101);
    });

    test('intraday series, snapshots and payouts are kept as first written', async () => {
      await store.writeIntraday('KSE100', '2026-11-20', [
        [1, 100, 5],
        [2, 101, 6],
      ]);
      const again = await store.writeIntraday('KSE100', '2026-11-20', [[1, 100, 5]]);
      assert.equal(again.disagreements.length, 1);
      assert.deepEqual(await store.intraday('KSE100', '2026-11-20'), [
        [1, 100, 5],
        [2, 101, 6],
      ]);
      assert.equal(await store.intraday('KSE100', '2026-11-19'), undefined);
      await store.writeSnapshot('2026-11-20', 1000, [['AAA', 12, 1, 500, 13, 11, 11]]);
      assert.deepEqual(await store.snapshots('2026-11-20'), [
        { at: 1000, rows: [['AAA', 12, 1, 500, 13, 11, 11]] },
      ]);
      const payout = {
        symbol: 'AAA',
        announced: '2026-04-17T17:10:00+05:00',
        details: '25% (D)',
        row: { x: 1 },
      };
      assert.equal(await store.writePayouts([payout, payout]), 1);
      assert.equal(await store.writePayouts([payout]), 0);
      assert.deepEqual(await store.payouts('AAA'), [payout]);
    });

    test('corporate actions: factors kept as first written, the coverage only widens', async () => {
      const first = {
        symbol: 'AAA',
        checkedAt: 10,
        checkedThrough: '2026-11-19',
        seriesStart: '2021-11-19',
        dividendsFrom: '2025-06-01',
        dividendsKnown: true,
        factors: [
          {
            exDate: '2023-06-14',
            kind: 'capital_change' as const,
            factor: 1 / 1.1,
            ratio: 1.1,
            amount: null,
          },
          { exDate: '2025-09-16', kind: 'cash_dividend' as const, factor: 0.97, ratio: null, amount: 5 },
          { exDate: '2025-09-16', kind: 'cash_dividend' as const, factor: 0.99, ratio: null, amount: 1 },
        ],
      };
      assert.equal((await store.writeAdjustments(first)).inserted, 3);
      // A later look: the series window moved on (the 2023 step is gone from it), a new dividend,
      // and one held factor now reads differently: reported, the stored one stays.
      const later = await store.writeAdjustments({
        symbol: 'AAA',
        checkedAt: 20,
        checkedThrough: '2026-11-20',
        seriesStart: '2021-12-01',
        dividendsFrom: null,
        dividendsKnown: false,
        factors: [
          { exDate: '2025-09-16', kind: 'cash_dividend', factor: 0.96, ratio: null, amount: 6 },
          { exDate: '2026-11-18', kind: 'cash_dividend', factor: 0.98, ratio: null, amount: 2 },
        ],
      });
      assert.equal(later.inserted, 1);
      assert.deepEqual(
        later.disagreements.map((d) => [d.key, d.date, d.field, d.stored, d.seen]),
        [['AAA', '2025-09-16', 'cash_dividend_factor', 0.97, 0.96]],
      );
      const held = await store.adjustments(['AAA', 'NONE']);
      assert.deepEqual([...held.keys()], ['AAA']);
      assert.deepEqual(held.get('AAA'), {
        symbol: 'AAA',
        checkedAt: 20,
        checkedThrough: '2026-11-20',
        seriesStart: '2021-11-19',
        dividendsFrom: '2025-06-01',
        dividendsKnown: true,
        factors: [
          first.factors[0],
          first.factors[1],
          first.factors[2],
          { exDate: '2026-11-18', kind: 'cash_dividend', factor: 0.98, ratio: null, amount: 2 },
        ],
      });
      assert.deepEqual([...(await store.adjustments()).keys()], ['AAA']);
    });

    test('a panel column keeps a missing value as null and a price to its last digit', async () => {
      const rows = [
        { ...bar('NUL', '2026-10-05', 0.1 + 0.2), open: null },
        bar('NUL', '2026-10-06', 1234.5678),
        bar('NUL', '2026-10-07', 7.05),
      ];
      await store.writeHistory('NUL', rows, 1);
      assert.deepEqual(await store.field(['NUL'], 'open'), [
        { symbol: 'NUL', dates: ['2026-10-05', '2026-10-06', '2026-10-07'], values: [null, 1233.5678, 6.05] },
      ]);
      assert.deepEqual((await store.field(['NUL', 'NUL'], 'close', '2026-10-05', '2026-10-05'))[0]!.values, [
        0.1 + 0.2,
      ]);
    });

    test('a closing file is read back as written: quotes, backslashes, braces, null, full precision', async () => {
      const row = (symbol: string, name: string, close: number | null): DailyFileRow => ({
        date: '2016-03-01',
        symbol,
        sectorCode: '0801',
        name,
        marker: null,
        open: 0.1 + 0.2,
        high: 1234.5678,
        low: null,
        close,
        volume: 4_000_005_000,
        ldcp: 7.05,
        kind: 'equity',
        underlying: null,
        contractMonth: null,
        cashSettled: null,
        series: null,
      });
      const rows = [
        row('ZZQ', 'Quote "A" Ltd', 10),
        row('AAQ', 'Back\\slash, {brace} NULL', null),
        row('MMQ', 'NULL', 1e-7),
        row('AAQ', 'a repeated symbol keeps its first row', 99),
      ];
      await store.files.writeFile('2016-03-01', rows, 5);
      assert.deepEqual(await store.files.fileRows('2016-03-01'), [rows[1], rows[2], rows[0]]);
      assert.equal((await store.files.writeFile('2016-03-01', rows, 6)).inserted, 0);
    });

    test('a closing file whose store fails leaves nothing of that day, and is stored whole next time', async () => {
      const row = (symbol: string, name: string): DailyFileRow => ({
        date: '2016-03-03',
        symbol,
        sectorCode: '0801',
        name,
        marker: null,
        open: 1,
        high: 2,
        low: 0.5,
        close: 1.5,
        volume: 10,
        ldcp: 1,
        kind: 'equity',
        underlying: null,
        contractMonth: null,
        cashSettled: null,
        series: null,
      });
      const good = [row('AAF', 'A'), row('BBF', 'B'), row('CCF', 'C')];
      // A name the table refuses (NOT NULL), after a row that went in: the whole day is rolled back.
      const broken = [good[0]!, { ...good[1]!, name: JSON.parse('null') as string }, good[2]!];
      await assert.rejects(store.files.writeFile('2016-03-03', broken, 5));
      assert.deepEqual(await store.files.fileRows('2016-03-03'), []);
      assert.equal(
        (await store.files.fileDays()).find((d) => d.date === '2016-03-03'),
        undefined,
      );
      assert.equal((await store.files.writeFile('2016-03-03', good, 6)).inserted, 3);
      assert.deepEqual(await store.files.fileRows('2016-03-03'), good);
    });

    extra?.(() => store);
  });
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

contract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-archive-'));
  dirs.push(dir);
  return new SqliteArchive(dir);
});

const pgSkip = postgresUnavailableReason();
let pg: TestPostgres | undefined;
describe('PostgreSQL backend', { skip: pgSkip }, () => {
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await pg?.destroy();
  });
  contract(
    'PostgreSQL',
    async () => new PostgresArchive(pg!.url),
    (get) => {
      test('with the server gone every call says the archive is unavailable, and works again when it is back', async () => {
        await pg!.stop();
        await assert.rejects(get().dailyBars('2026-11-20'), ArchiveUnavailableError);
        await assert.rejects(
          get().writeDay('2026-11-21', [bar('AAA', '2026-11-21', 1)], [], 5),
          ArchiveUnavailableError,
        );
        await pg!.start();
        assert.equal((await get().dailyBars('2026-11-20')).length, 3);
        assert.equal((await get().dailyBars('2026-11-21')).length, 0, 'a failed write left nothing');
      });

      test('the closing files keep one row a symbol a day in a new archive and in one made with the (day, symbol) primary key', async () => {
        const admin = postgres(pg!.url, { onnotice: () => {} });
        try {
          await admin`CREATE DATABASE files_earlier`;
          const url = pg!.url.replace(/\/postgres$/, '/files_earlier');
          const earlier = postgres(url, { onnotice: () => {} });
          await earlier.unsafe(`CREATE TABLE archive_file_rows (
            day INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, sector TEXT NOT NULL, name TEXT NOT NULL,
            marker TEXT, open DOUBLE PRECISION, high DOUBLE PRECISION, low DOUBLE PRECISION, close DOUBLE PRECISION,
            volume DOUBLE PRECISION, ldcp DOUBLE PRECISION,
            underlying TEXT, contract_month TEXT, cash_settled BOOLEAN, series TEXT,
            PRIMARY KEY (day, symbol))`);
          const indexes = async (sql: postgres.Sql) =>
            (
              await sql<Array<{ indexdef: string }>>`
                SELECT indexdef FROM pg_indexes WHERE tablename = 'archive_file_rows' ORDER BY indexname`
            ).map((r) => r.indexdef.replace(/^.* USING btree /, ''));
          // The partial index of the rows that carry an ex-marker (XD/XB/XR), beside the keys.
          const MARKED = '(symbol, day, marker) WHERE (marker IS NOT NULL)';
          const rows: DailyFileRow[] = ['BBB', 'AAA'].map((symbol) => ({
            date: '2016-03-02',
            symbol,
            sectorCode: '0801',
            name: symbol,
            marker: null,
            open: 1,
            high: 2,
            low: 0.5,
            close: 1.5,
            volume: 10,
            ldcp: 1,
            kind: 'equity',
            underlying: null,
            contractMonth: null,
            cashSettled: null,
            series: null,
          }));
          for (const [sql, store, keys] of [
            [earlier, new PostgresArchive(url), ['(symbol, day)', MARKED, '(day, symbol)']],
            [admin, get(), ['(day DESC, symbol)', '(symbol, day)', MARKED]],
          ] as const) {
            await store.files.writeFile('2016-03-02', rows, 5);
            assert.deepEqual(
              (await store.files.fileRows('2016-03-02')).map((r) => r.symbol),
              ['AAA', 'BBB'],
            );
            assert.deepEqual(await indexes(sql), keys);
            await assert.rejects(
              sql`INSERT INTO archive_file_rows (day, symbol, kind, sector, name) SELECT day, symbol, kind, sector, name FROM archive_file_rows`,
              /duplicate key/,
            );
            if (store !== get()) await store.close();
          }
          await earlier.end();
        } finally {
          await admin.end();
        }
      });
    },
  );
});
