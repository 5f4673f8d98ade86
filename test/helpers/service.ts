// Starts the real service on a loopback port against a given portal URL, and speaks HTTP to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig } from '../../src/config.ts';
import { createLogger, createService, type Service, type ServiceOverrides } from '../../src/service.ts';

export interface RunningService {
  url: string;
  service: Service;
  close(): Promise<void>;
}

/** Test defaults: no request limit, plain TTLs, quick retries, a private store directory. */
export async function startService(
  exchangeBaseUrl: string,
  env: Record<string, string> = {},
  options: { overrides?: ServiceOverrides; logLines?: string[] } = {},
): Promise<RunningService> {
  const dir = mkdtempSync(join(tmpdir(), 'psxmd-test-'));
  const config = loadConfig({
    EXCHANGE_BASE_URL: exchangeBaseUrl,
    RATE_LIMIT_PER_MINUTE: '0',
    CACHE_FOLLOW_MARKET_CLOCK: 'false',
    EXCHANGE_RETRY_BASE_MS: '5',
    EXCHANGE_FETCH_LIMIT_PER_IP: '0',
    EXCHANGE_FETCH_LIMIT_GLOBAL: '0',
    CACHE_DIR: dir,
    LOG_LEVEL: 'silent',
    // ~0.3–0.5 s of CPU per start on this machine; test/exchange/parsers/warm-up.test.ts covers it.
    PARSER_WARM_UP: 'false',
    // A cached dataset mutated by mistake throws in every test (src/cache/immutable.ts).
    CACHE_FREEZE_DATASETS: 'true',
    // The daily closing files of the fake market's last week only (test/archive/daily-files.test.ts
    // asks for more); the default reaches back to 2013: about 3,400 fetches.
    ARCHIVE_FILES_FROM: '2026-11-16',
    ...env,
  });
  const destination = options.logLines
    ? { write: (line: string) => void options.logLines!.push(line) }
    : undefined;
  const service = await createService(config, createLogger(config.logLevel, destination), options.overrides);
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    service,
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
  json: any;
}

export async function http(
  base: string,
  path: string,
  init: {
    method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
    headers?: Record<string, string>;
  } = {},
): Promise<HttpResult> {
  const res = await request(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  let json: unknown = undefined;
  if (text && (headers['content-type'] ?? '').includes('json')) json = JSON.parse(text);
  return { status: res.statusCode, headers, text, json };
}
