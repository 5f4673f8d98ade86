// Rendered pages as bytes, with the place of the session token marked so a page is rendered once and
// served with whatever token is current; kept in a byte-bounded LRU cache.
import type { ServerResponse } from 'node:http';

export const HTML = 'text/html; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
/** Where a rendered page carries the current token (the home page's `_k`, forms' hidden fields). */
export const TOKEN_MARK = '\u0000FAKE_PORTAL_TOKEN\u0000';

export interface Page {
  status: number;
  type: string;
  /** Body bytes; with two parts the current token goes between them. */
  parts: Buffer[];
  bytes: number;
}

export function page(status: number, type: string, text: string): Page {
  const parts = text.split(TOKEN_MARK).map((p) => Buffer.from(p, 'utf8'));
  return { status, type, parts, bytes: parts.reduce((n, b) => n + b.length, 0) };
}

/** Rendered pages by key, least recently used evicted past a byte budget (1,000 histories do not fit). */
export class PageCache {
  private readonly pages = new Map<string, Page>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  get(key: string, render: () => Page): Page {
    const hit = this.pages.get(key);
    if (hit) {
      this.pages.delete(key);
      this.pages.set(key, hit);
      return hit;
    }
    const fresh = render();
    this.pages.set(key, fresh);
    this.bytes += fresh.bytes;
    for (const [k, p] of this.pages) {
      if (this.bytes <= this.budget || k === key) break;
      this.pages.delete(k);
      this.bytes -= p.bytes;
    }
    return fresh;
  }
}

/** Writes `p` with `token` at its marks. */
export function writePage(res: ServerResponse, p: Page, token: string): void {
  const tokenBytes = p.parts.length > 1 ? Buffer.from(token, 'utf8') : null;
  const length = p.bytes + (tokenBytes ? tokenBytes.length * (p.parts.length - 1) : 0);
  res.writeHead(p.status, {
    'Content-Type': p.type,
    'Content-Length': length,
    'Cache-Control': 'no-store',
  });
  p.parts.forEach((part, i) => {
    if (i > 0 && tokenBytes) res.write(tokenBytes);
    res.write(part);
  });
  res.end();
}
