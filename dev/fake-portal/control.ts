// The ungated control API under `/__fake/`, for tests that run the portal in another process:
// counts, the token, failure rules, page drift and market ticks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseDriftRule, type DriftRule } from './drift.ts';
import { parseFailureRule, type FailureRule } from './failures.ts';
import { readBody } from './gate.ts';
import { JSON_TYPE } from './page-cache.ts';

/** What the control API acts on: the running portal's own handle (server.ts). */
export interface PortalControls {
  counts(): unknown;
  resetCounts(): void;
  token(): string;
  rotateToken(): string;
  fail(rule: FailureRule): void;
  clear(): void;
  ruleCount(): number;
  drift(rule: DriftRule): void;
  restore(path?: string): void;
  /** Moves the market watch (all symbols, or the ones named) and says what moved. */
  tick(symbols?: string[]): unknown;
}

export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  portal: PortalControls,
): Promise<void> {
  const method = req.method ?? 'GET';
  const body = await readBody(req);
  const reply = (status: number, value: unknown): void => {
    const text = JSON.stringify(value);
    res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const key = `${method} ${path}`;
  if (key === 'GET /__fake/counts') return reply(200, portal.counts());
  if (key === 'GET /__fake/token') return reply(200, { token: portal.token() });
  if (key === 'POST /__fake/reset') {
    portal.resetCounts();
    return reply(200, { ok: true });
  }
  if (key === 'POST /__fake/clear') {
    portal.clear();
    return reply(200, { ok: true });
  }
  if (key === 'POST /__fake/rotate-token') return reply(200, { token: portal.rotateToken() });
  if (key === 'POST /__fake/tick') {
    let symbols: unknown;
    try {
      symbols = (JSON.parse(body || '{}') as { symbols?: unknown }).symbols;
    } catch {
      return reply(400, { error: 'body must be JSON {symbols?: string[]}' });
    }
    if (symbols !== undefined && !(Array.isArray(symbols) && symbols.every((x) => typeof x === 'string'))) {
      return reply(400, { error: 'symbols must be an array of strings' });
    }
    return reply(200, portal.tick(symbols as string[] | undefined));
  }
  // `{"path":"/market-watch","dropColumn":"LDCP"}` or `{"path":"/screener","removeTables":true}`.
  if (key === 'POST /__fake/drift') {
    try {
      portal.drift(parseDriftRule(JSON.parse(body || 'null')));
    } catch (err) {
      return reply(400, { error: (err as Error).message });
    }
    return reply(200, { ok: true });
  }
  // `{"path":"/market-watch"}` restores that page; an empty body, every page.
  if (key === 'POST /__fake/restore') {
    let path: unknown;
    try {
      path = (JSON.parse(body || '{}') as { path?: unknown }).path;
    } catch {
      return reply(400, { error: 'body must be JSON {path?: string}' });
    }
    if (path !== undefined && typeof path !== 'string') return reply(400, { error: 'path must be a string' });
    portal.restore(path as string | undefined);
    return reply(200, { ok: true });
  }
  if (key === 'POST /__fake/fail') {
    try {
      portal.fail(parseFailureRule(JSON.parse(body || 'null')));
    } catch (err) {
      return reply(400, { error: (err as Error).message });
    }
    return reply(200, { ok: true, rules: portal.ruleCount() });
  }
  return reply(404, { error: `unknown control endpoint ${key}` });
}
