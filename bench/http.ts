// One-off HTTP requests from the runner (warming caches, capturing the bytes the bare server replays).
import { request } from 'undici';
import type { Route } from './children/messages.ts';

export interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export async function get(url: string, requestHeaders: Record<string, string> = {}): Promise<Fetched> {
  const res = await request(url, { method: 'GET', headers: requestHeaders });
  const body = Buffer.from(await res.body.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: res.statusCode, headers, body };
}

export function routeOf(path: string, f: Fetched): Route {
  const gzip = f.headers['content-encoding'] === 'gzip';
  return { path, gzip, status: f.status, headers: f.headers, body: f.body.toString('base64') };
}
