// Waiting for an archiver's backfill over HTTP (GET /archive/status).
import { setTimeout as sleep } from 'node:timers/promises';
import { http } from './service.ts';

export async function waitForBackfill(url: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await http(url, '/archive/status');
    const s = res.json?.data;
    if (s && s.archiver === 'idle' && s.symbols_total !== null && s.symbols_done === s.symbols_total)
      return s;
    if (Date.now() > until) throw new Error(`backfill did not finish: ${res.text}`);
    await sleep(100);
  }
}

/** Waits until the archiver has settled every daily closing file it was asked for (files_done of files_total). */
export async function waitForFiles(url: string, timeoutMs = 90_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await http(url, '/archive/status');
    const s = res.json?.data;
    if (s && s.files_total !== null && s.files_total > 0 && s.files_done === s.files_total) return s;
    if (Date.now() > until) throw new Error(`the closing files were not backfilled: ${res.text}`);
    await sleep(100);
  }
}
