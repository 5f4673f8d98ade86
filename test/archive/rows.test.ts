// The typed row mappers: a stored column of a type the code does not read is refused with the table
// and column named, never handed on as a price; the drivers' own types (PostgreSQL's int8 as text,
// its booleans, SQLite's 0/1) are read as they come.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, test } from 'node:test';
import {
  ArchiveRowError,
  barRowOf,
  coverageRowOf,
  dayValueOf,
  storedFileRowOf,
} from '../../src/archive/rows.ts';
import { SqliteArchive } from '../../src/archive/sqlite-archive.ts';
import { ArchiveUnavailableError } from '../../src/archive/store.ts';

const goodBar = {
  symbol: 'OGDC',
  day: 20000,
  open: 100.5,
  high: 101,
  low: null,
  close: 100.75,
  volume: 12000,
  reasons: '',
};

describe('archive row mappers', () => {
  test('a bar row with the expected types is read as it is', () => {
    assert.deepEqual(barRowOf(goodBar), goodBar);
  });

  test('a price stored as text is refused, naming the table and column', () => {
    assert.throws(
      () => barRowOf({ ...goodBar, close: '100.75' }),
      (err: unknown) =>
        err instanceof ArchiveRowError &&
        err.message === "the archive's bars.close should be a number or null but is string",
    );
    assert.throws(() => barRowOf({ ...goodBar, symbol: null }), /bars\.symbol should be text but is null/);
    const { reasons: _, ...withoutReasons } = goodBar;
    assert.throws(() => barRowOf(withoutReasons), /bars\.reasons should be text but is no such column/);
    assert.throws(() => dayValueOf([20000, 'x'], 'close'), /bars\.close should be a number or null/);
  });

  test("PostgreSQL's int8 text and booleans, and SQLite's 0/1 flags, are read as the drivers give them", () => {
    const coverage = coverageRowOf({
      symbol: 'OGDC',
      checked_at: '1764000000000',
      checked_through: 20000,
      series_start: null,
      dividends_from: 19000,
      dividends_known: true,
    });
    assert.equal(coverage.checked_at, 1764000000000);
    assert.equal(coverage.dividends_known, true);
    assert.throws(
      () => coverageRowOf({ ...coverage, checked_at: 'soon' }),
      /adjustment_coverage\.checked_at should be a number but is string/,
    );
    const file = {
      day: 20000,
      symbol: 'OGDC',
      kind: 'equity',
      sector: '0820',
      name: 'Oil & Gas Development',
      marker: null,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 10,
      ldcp: 1.4,
      underlying: null,
      contract_month: null,
      cash_settled: 1,
      series: null,
    };
    assert.equal(storedFileRowOf(file).cash_settled, 1);
    assert.throws(
      () => storedFileRowOf({ ...file, cash_settled: 'yes' }),
      /file_rows\.cash_settled should be a flag/,
    );
  });
});

describe('an archive whose stored column has the wrong type', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-rows-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a read fails as "archive unavailable" naming the column, not with a text price', async () => {
    const store = new SqliteArchive(dir);
    try {
      await store.writeHistory(
        'OGDC',
        [
          {
            symbol: 'OGDC',
            date: '2026-11-20',
            open: 1,
            high: 2,
            low: 0.5,
            close: 1.5,
            volume: 10,
            anomaly_reasons: [],
          },
        ],
        0,
      );
      assert.equal((await store.bars(['OGDC']))[0]?.close, 1.5);
      // Another writer (an older or newer schema) leaves text where the code reads a number.
      const other = new DatabaseSync(join(dir, 'archive.sqlite'));
      other.prepare("UPDATE bars SET close = 'n/a' WHERE symbol = 'OGDC'").run();
      other.close();
      for (const read of [() => store.bars(['OGDC']), () => store.field(['OGDC'], 'close')]) {
        await assert.rejects(
          read(),
          (err: unknown) =>
            err instanceof ArchiveUnavailableError && /bars\.close should be/.test(err.message),
        );
      }
    } finally {
      await store.close();
    }
  });
});
