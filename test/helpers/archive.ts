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
