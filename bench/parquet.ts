// Parquet against CSV for the answer analysts download most: a 100-symbol × 5-year long panel
// (/historical, ~125,000 rows) from the service as `npm start` runs it, against the fake portal.
// The time to serve it (the first request of each form builds it from the cached answer; repeats
// send the bytes kept for that version), and its size as Parquet, CSV and gzip-CSV. The goal
// (issue 41): Parquet at most a third of CSV's size and no slower than CSV.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { describeMachine } from './machine.ts';
import { startPortal, startService } from './processes.ts';
import type { Figure, Section } from './report.ts';
import { median, round } from './stats.ts';

const SYMBOLS = 100;
const FIVE_YEARS = 1250;
const RUNS = Number(process.env.BENCH_PARQUET_RUNS ?? 20);

interface Fetched {
  ms: number;
  bytes: number;
}

async function fetchOnce(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const t0 = performance.now();
  const res = await request(url, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${body.toString().slice(0, 200)}`);
  return { ms, bytes: body.length };
}

async function repeated(url: string, headers: Record<string, string> = {}): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push((await fetchOnce(url, headers)).ms);
  return round(median(ms));
}

export async function runParquet(): Promise<Section> {
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const machine = describeMachine();
  const portal = await startPortal('portal', { extraSymbols: SYMBOLS, historyRows: FIVE_YEARS });
  const service = await startService('service', portal.url);
  try {
    const listed = (await (await request(`${service.url}/stocks`)).body.json()) as { data: string[] };
    const symbols = listed.data.slice(0, SYMBOLS);
    const panel = `${service.url}/historical?symbols=${symbols.join(',')}&start=2000-01-01`;
    const json = await fetchOnce(panel); // fetches the histories and caches the answer
    const rows = ((await (await request(panel)).body.json()) as { meta: { count: number } }).meta.count;
    const csvFirst = await fetchOnce(`${panel}&format=csv`);
    const parquetFirst = await fetchOnce(`${panel}&format=parquet`);
    const gzipCsv = await fetchOnce(`${panel}&format=csv`, { 'accept-encoding': 'gzip' });
    const csvMs = await repeated(`${panel}&format=csv`);
    const gzipCsvMs = await repeated(`${panel}&format=csv`, { 'accept-encoding': 'gzip' });
    const parquetMs = await repeated(`${panel}&format=parquet`);
    const mb = (bytes: number) => round(bytes / 1e6);
    const figures: Figure[] = [
      {
        id: 'parquet-panel-rows',
        label: 'long panel rows (100 symbols × 5 years)',
        value: rows,
        unit: 'rows',
      },
      { id: 'parquet-panel-json-mb', label: 'panel as JSON', value: mb(json.bytes), unit: 'MB' },
      { id: 'parquet-panel-csv-mb', label: 'panel as CSV', value: mb(csvFirst.bytes), unit: 'MB' },
      { id: 'parquet-panel-gzip-csv-mb', label: 'panel as gzip-CSV', value: mb(gzipCsv.bytes), unit: 'MB' },
      {
        id: 'parquet-panel-parquet-mb',
        label: 'panel as Parquet',
        value: mb(parquetFirst.bytes),
        unit: 'MB',
      },
      {
        id: 'parquet-panel-size-vs-csv',
        label: 'Parquet size / CSV size',
        value: round(parquetFirst.bytes / csvFirst.bytes),
        unit: '×',
        target: { op: '<=', limit: 0.333 },
      },
      {
        id: 'parquet-panel-size-vs-gzip-csv',
        label: 'Parquet size / gzip-CSV size',
        value: round(parquetFirst.bytes / gzipCsv.bytes),
        unit: '×',
      },
      {
        id: 'parquet-panel-csv-first-ms',
        label: 'CSV, first request (built)',
        value: round(csvFirst.ms),
        unit: 'ms',
      },
      {
        id: 'parquet-panel-parquet-first-ms',
        label: 'Parquet, first request (built)',
        value: round(parquetFirst.ms),
        unit: 'ms',
      },
      {
        id: 'parquet-panel-first-vs-csv',
        label: 'Parquet first request / CSV first request',
        value: round(parquetFirst.ms / csvFirst.ms),
        unit: '×',
        target: { op: '<=', limit: 1 },
      },
      { id: 'parquet-panel-csv-ms', label: 'CSV, repeat p50', value: csvMs, unit: 'ms' },
      { id: 'parquet-panel-gzip-csv-ms', label: 'gzip-CSV, repeat p50', value: gzipCsvMs, unit: 'ms' },
      { id: 'parquet-panel-parquet-ms', label: 'Parquet, repeat p50', value: parquetMs, unit: 'ms' },
      {
        id: 'parquet-panel-repeat-vs-csv',
        label: 'Parquet repeat / CSV repeat (p50)',
        value: round(parquetMs / csvMs),
        unit: '×',
        target: { op: '<=', limit: 1 },
      },
    ];
    return {
      id: 'parquet',
      title: 'Parquet',
      startedAt,
      durationSec: (Date.now() - t0) / 1000,
      machine,
      figures,
      tables: [],
      notes: [
        `GET /historical?symbols=<${SYMBOLS} symbols>&start=2000-01-01 (long layout) from the service started as \`npm start\` runs it; times are the client's, over loopback, body read whole; repeats: ${RUNS}.`,
      ],
    };
  } finally {
    await service.stop();
    await portal.stop();
  }
}
