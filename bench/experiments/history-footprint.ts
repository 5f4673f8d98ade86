// Experiment (not part of `npm run bench`): heap bytes one cached 2,162-row history costs in each
// representation the service holds or could hold. Run: node --expose-gc --import tsx bench/experiments/history-footprint.ts
import type { HistoryRow } from '../../src/exchange/types.ts';
import { parseHistory } from '../../src/exchange/parsers/index.ts';
import type { Datasets } from '../../src/market/datasets.ts';
import { historical } from '../../src/market/history/history.ts';
import { createDataset } from '../../dev/fake-portal/dataset.ts';
import { renderHistorical } from '../../dev/fake-portal/pages.ts';

const N = 50;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

function heap(): number {
  for (let i = 0; i < 4; i++) gc?.();
  return process.memoryUsage().heapUsed;
}

/** Heap growth per item while `make` results are held, in KB. */
async function perItem(label: string, make: () => unknown | Promise<unknown>): Promise<void> {
  const before = heap();
  const held: unknown[] = [];
  for (let i = 0; i < N; i++) held.push(await make());
  const after = heap();
  console.log(`${label.padEnd(58)} ${Math.round((after - before) / N / 1024)} KB`);
  held.length = 0;
}

const html = renderHistorical(createDataset(), 'ENGRO');
const ctx = { clientIp: '127.0.0.1' };
const answer = async (rows: HistoryRow[]): Promise<unknown> => {
  const datasets = {
    history: async () => ({
      value: { rows, fullFetchedAt: 0 },
      state: 'HIT',
      fetchedAt: 0,
      freshUntil: 0,
      version: '0',
    }),
  };
  return (await historical(datasets as unknown as Datasets, 'ENGRO', {}, ctx)).data;
};

await perItem('portal rows (HistoryRow[], the cached dataset)', () => parseHistory(html));
await perItem('portal rows + API view (derived HistoricalRowT[])', async () => {
  const rows = parseHistory(html);
  return [rows, await answer(rows)];
});
await perItem('serialised API view (JSON string, the responder view)', async () =>
  JSON.stringify(await answer(parseHistory(html))),
);
await perItem('columnar: Int32Array days + 5 × Float64Array (OHLCV)', () => {
  const rows = parseHistory(html);
  const days = new Int32Array(rows.length);
  const cols = [0, 1, 2, 3, 4].map(() => new Float64Array(rows.length));
  rows.forEach((r, i) => {
    days[i] = Date.parse(r.date) / 86_400_000;
    [r.open, r.high, r.low, r.close, r.volume].forEach(
      (v, c) => ((cols[c] as Float64Array)[i] = v ?? Number.NaN),
    );
  });
  return { days, cols };
});
console.log(
  '(typed arrays live outside the V8 heap: their bytes show in external memory, ~',
  Math.round((2162 * 44) / 1024),
  'KB each)',
);
