// Experiment (not part of `npm run bench`), issue 39: PostgreSQL parse + store of one closing file,
// the code at a git revision (BEFORE, default cafd832) against the working tree, interleaved in one
// run on one server, each in its own schema, files newest first as the backfill asks for them; then
// a day's read and a symbol's read from each, with their plans.
//   npx tsx bench/experiments/pg-file-store.ts          FILES=250 DURABLE=1 (fsync on) BEFORE=<rev>
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { POSTGRES_FILE_SCHEMA, type DailyFileStore } from '../../src/archive/daily-files.ts';
import { PostgresDailyFiles } from '../../src/archive/postgres-files.ts';
import { dayNumber } from '../../src/archive/store.ts';
import { parseDailyFileBody } from '../../src/exchange/parsers/daily-file.ts';
import { startPostgres } from '../../test/helpers/postgres.ts';
import { weekdays } from '../archive-data.ts';
import { realSizeFile } from '../archive-files.ts';
import { quantile, round } from '../stats.ts';

const BEFORE = process.env.BEFORE ?? 'cafd832';
const FILES = Number(process.env.FILES ?? 250);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** The revision's daily-files.ts and postgres-files.ts, importing the working tree's other modules. */
async function before(): Promise<{ schema: string; Store: typeof PostgresDailyFiles }> {
  const dir = join(root, 'src', 'archive', '.before');
  mkdirSync(dir, { recursive: true });
  for (const f of ['daily-files.ts', 'postgres-files.ts']) {
    const text = execFileSync('git', ['show', `${BEFORE}:src/archive/${f}`], { cwd: root, encoding: 'utf8' })
      .replaceAll(`from './daily-files.ts'`, `from './daily-files.ts'`)
      .replaceAll(/from '\.\/(?!daily-files)/g, `from '../`)
      .replaceAll(`from '../exchange/`, `from '../../exchange/`);
    writeFileSync(join(dir, f), text);
  }
  const files = (await import(join(dir, 'daily-files.ts'))) as { POSTGRES_FILE_SCHEMA: string };
  const store = (await import(join(dir, 'postgres-files.ts'))) as {
    PostgresDailyFiles: typeof PostgresDailyFiles;
  };
  return { schema: files.POSTGRES_FILE_SCHEMA, Store: store.PostgresDailyFiles };
}

const BARS = `CREATE TABLE archive_bars (symbol TEXT NOT NULL, day INTEGER NOT NULL, open float8, high float8,
  low float8, close float8, volume float8, reasons TEXT NOT NULL, PRIMARY KEY (symbol, day));`;

const old = await before();
const pg = await startPostgres({ durable: process.env.DURABLE === '1' });
const clients: postgres.Sql[] = [];
try {
  const variants: Array<{ name: string; sql: postgres.Sql; store: DailyFileStore }> = [];
  for (const [name, schema, Store] of [
    ['before', old.schema, old.Store],
    ['after', POSTGRES_FILE_SCHEMA, PostgresDailyFiles],
    ...(process.env.SYMONLY === '1'
      ? ([
          [
            'symonly',
            POSTGRES_FILE_SCHEMA.replace(
              'ON archive_file_rows (symbol, day);',
              'ON archive_file_rows (symbol);',
            ),
            PostgresDailyFiles,
          ],
        ] as const)
      : []),
  ] as const) {
    const admin = postgres(pg.url, { onnotice: () => {} });
    await admin.unsafe(`CREATE SCHEMA ${name}`);
    await admin.end();
    const sql = postgres(pg.url, {
      max: 4,
      onnotice: () => {},
      transform: { undefined: null },
      connection: { search_path: name },
    });
    clients.push(sql);
    await sql.unsafe(BARS + schema);
    const store = new Store(
      (q) => q(sql),
      async <T>(work: (tx: postgres.TransactionSql) => Promise<T>) =>
        (await sql.begin((tx) => work(tx))) as T,
    );
    variants.push({ name, sql, store });
  }
  const days = weekdays(FILES, '2015-12-31').reverse();
  const ms: Record<string, number[]> = {};
  const load = [loadavg()[0]!];
  for (let i = 0; i < days.length; i++) {
    const body = realSizeFile(days[i]!);
    for (let k = 0; k < variants.length; k++) {
      const v = variants[(i + k) % variants.length]!;
      const t0 = performance.now();
      const file = parseDailyFileBody(body);
      await v.store.writeFile(days[i]!, file.rows, 0);
      (ms[v.name] ??= []).push(performance.now() - t0);
    }
  }
  load.push(loadavg()[0]!);
  console.log(
    `${new Date().toISOString()} load ${load.map((l) => l.toFixed(1)).join(' → ')}, ${FILES} files each, durable ${process.env.DURABLE === '1'}`,
  );
  for (const v of variants) {
    const a = ms[v.name]!;
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    console.log(
      `${v.name.padEnd(7)} parse+store p50 ${round(quantile(a, 0.5))} ms, p90 ${round(quantile(a, 0.9))}, min ${round(Math.min(...a))}, mean ${round(mean)}`,
    );
  }
  for (const v of variants) {
    await v.sql`ANALYZE archive_file_rows`;
    const day: number[] = [];
    const sym: number[] = [];
    for (let i = 0; i < 20; i++) {
      let t = performance.now();
      await v.store.fileRows(days[(i * 7) % days.length]!);
      day.push(performance.now() - t);
      t = performance.now();
      await v.store.symbolRows(`EQ${(i * 13) % 490}`, '2015-03-01', '2015-09-30');
      sym.push(performance.now() - t);
    }
    const plan = async (q: string) =>
      (await v.sql.unsafe(`EXPLAIN ${q}`)).map((r) => String(Object.values(r)[0]).trim()).join(' / ');
    const [size] = await v.sql`SELECT pg_total_relation_size('archive_file_rows')::float8 AS b`;
    console.log(
      `${v.name.padEnd(7)} day read p50 ${round(quantile(day, 0.5))} ms, symbol read p50 ${round(quantile(sym, 0.5))} ms, table + indexes ${round(Number(size!.b) / 1048576)} MB`,
    );
    console.log(
      `  ${await plan(`SELECT * FROM archive_file_rows WHERE day = ${dayNumber(days[5]!)} ORDER BY symbol`)}`,
    );
    console.log(
      `  ${await plan(`SELECT * FROM archive_file_rows WHERE symbol = 'EQ7' AND day BETWEEN ${dayNumber('2015-03-01')} AND ${dayNumber('2015-09-30')} ORDER BY day`)}`,
    );
  }
} finally {
  for (const c of clients) await c.end();
  await pg.destroy();
  rmSync(join(root, 'src', 'archive', '.before'), { recursive: true, force: true });
}
