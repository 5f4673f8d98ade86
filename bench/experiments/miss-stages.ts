// Experiment (not part of `npm run bench`): what one history cache miss costs after the portal
// answers, stage by stage, on a 2,162-row page: parse, API rows (anomaly flags), the store write,
// the serialised view (JSON, ETag) and its gzip. Usage: tsx bench/experiments/miss-stages.ts
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataset } from '../../dev/fake-portal/dataset.ts';
import { renderHistorical } from '../../dev/fake-portal/pages.ts';
import { SqliteStore } from '../../src/cache/sqlite-store.ts';
import { parseHistory } from '../../src/exchange/parsers/index.ts';
import { gzipHead } from '../../src/http/pipeline/gzip-splice.ts';
import { flagAnomalies } from '../../src/market/anomalies.ts';

const ds = createDataset({ historyRows: 2162 });
const html = renderHistorical(ds, 'ENGRO');
const dir = mkdtempSync(join(tmpdir(), 'miss-stages-'));
const store = new SqliteStore(dir, Date.now);
const times: Record<string, number[]> = {};
const time = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
  const t = performance.now();
  const out = await fn();
  (times[name] ??= []).push(performance.now() - t);
  return out;
};
for (let i = 0; i < 30; i++) {
  const rows = await time('parse', () => parseHistory(html));
  const api = await time('api rows', () => flagAnomalies([...rows].reverse()));
  await time('store write', () =>
    store.write(`history:S${i}`, { value: { rows, fullFetchedAt: 1 }, fetchedAt: 1, freshUntil: 2 }),
  );
  const json = await time('JSON.stringify', () => JSON.stringify(api));
  await time('sha1', () => createHash('sha1').update(json).digest('base64url'));
  const head = await time('Buffer.from', () => Buffer.from(`{"data":${json}`));
  await time('gzip head (thread pool)', () => gzipHead(head));
}
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(
    `${name.padEnd(26)} median ${sorted[sorted.length >> 1]!.toFixed(2)} ms  best ${sorted[0]!.toFixed(2)} ms`,
  );
}
store.close();
rmSync(dir, { recursive: true, force: true });
