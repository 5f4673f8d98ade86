// Experiment (not part of `npm run bench`): the parse+map hot path of the history and screener
// pages, for timing, profiling and checking that a parser change keeps every page's rows.
//   npx tsx bench/experiments/parse-hot.ts time [ms-per-page]      best/median parse+map per page
//   node --cpu-prof --import tsx bench/experiments/parse-hot.ts loop KIND SOURCE [seconds]
//   npx tsx bench/experiments/parse-hot.ts snapshot FILE | check FILE   every page kind's rows
import { readFileSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import {
  parseHistory,
  parseIndexConstituents,
  parseIndexLevels,
  parseMarketWatch,
  parseScreener,
  parseSectorSummary,
} from '../../src/exchange/parsers/index.ts';
import type { Datasets } from '../../src/market/datasets.ts';
import { historical } from '../../src/market/history/history.ts';
import { screener } from '../../src/market/quotes/screener.ts';
import { generatedPages, recordedPages, type BenchPage, type PageKind } from '../pages.ts';

const CTX = { clientIp: '127.0.0.1' };

function stub(accessor: keyof Datasets, value: unknown): Datasets {
  const cached = { value, state: 'MISS', fetchedAt: 0, freshUntil: 0, version: '0' };
  return { [accessor]: async () => cached } as unknown as Datasets;
}

const PARSE: Record<PageKind, (html: string) => unknown> = {
  history: parseHistory,
  screener: parseScreener,
  'market-watch': parseMarketWatch,
  'index-constituents': parseIndexConstituents,
  'index-levels': parseIndexLevels,
  'sector-summary': parseSectorSummary,
};

async function parseMap(page: BenchPage): Promise<unknown> {
  if (page.kind === 'history') {
    const rows = parseHistory(page.html);
    return historical(stub('history', { rows, fullFetchedAt: 0 }), 'ENGRO', {}, CTX);
  }
  return screener(stub('screener', parseScreener(page.html)), CTX);
}

const pages = (): BenchPage[] => [...generatedPages(), ...recordedPages()];
const hot = (): BenchPage[] => pages().filter((p) => p.kind === 'history' || p.kind === 'screener');

const [mode = 'time', ...args] = process.argv.slice(2);

if (mode === 'time') {
  const budget = Number(args[0] ?? 3000);
  const list = hot();
  const samples = list.map((): number[] => []);
  for (const page of list) for (let i = 0; i < 20; i++) await parseMap(page);
  // Interleaved rounds so a burst of another tenant's work spreads over all pages.
  const started = performance.now();
  while (performance.now() - started < budget * list.length) {
    for (const [i, page] of list.entries()) {
      for (let k = 0; k < 5; k++) {
        const t = performance.now();
        await parseMap(page);
        samples[i]!.push(performance.now() - t);
      }
    }
  }
  for (const [i, page] of list.entries()) {
    const s = samples[i]!.sort((a, b) => a - b);
    const med = s[s.length >> 1]!;
    const p10 = s[Math.floor(s.length * 0.1)]!;
    console.log(
      `${page.label.padEnd(34)} ${page.source.padEnd(9)} best ${s[0]!.toFixed(2)}  p10 ${p10.toFixed(2)}  median ${med.toFixed(2)} ms  (n=${s.length})`,
    );
  }
} else if (mode === 'loop') {
  const [kind = 'history', source = 'recorded', seconds = '10'] = args;
  const list = source === 'recorded' ? recordedPages() : generatedPages();
  const page = list.find((p) => p.kind === kind);
  if (page === undefined) throw new Error(`no ${kind} ${source} page`);
  const until = performance.now() + Number(seconds) * 1000;
  let n = 0;
  while (performance.now() < until) {
    await parseMap(page);
    n++;
  }
  console.log(`${n} runs, ${((Number(seconds) * 1000) / n).toFixed(2)} ms each`);
} else if (mode === 'snapshot' || mode === 'check') {
  const file = args[0] ?? '/tmp/parse-snapshot.v8';
  const outputs: Record<string, unknown> = {};
  for (const page of pages()) {
    outputs[`${page.source} ${page.label}`] = {
      rows: PARSE[page.kind](page.html),
      mapped:
        page.kind === 'history' || page.kind === 'screener'
          ? ((await parseMap(page)) as { data: unknown }).data
          : null,
    };
  }
  // v8 serialisation keeps -0 and undefined, which JSON would blur.
  const json = deserialize(serialize(outputs)) as Record<string, unknown>;
  if (mode === 'snapshot') {
    writeFileSync(file, serialize(json));
    console.log(`wrote ${Object.keys(json).length} pages to ${file}`);
  } else {
    const before = deserialize(readFileSync(file)) as Record<string, unknown>;
    let same = true;
    for (const key of Object.keys(before)) {
      const ok = isDeepStrictEqual(before[key], json[key]);
      if (!ok) same = false;
      console.log(`${ok ? 'same' : 'DIFFERENT'}  ${key}`);
    }
    if (!same) process.exitCode = 1;
  }
}
