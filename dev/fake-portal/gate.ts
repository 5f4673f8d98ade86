// The portal's gate: a browser User-Agent, the portal's own Origin if any, the
// XMLHttpRequest header and the current session token on every data request; tokens come from a
// seeded sequence so two portals with the same seed issue the same ones.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type GateRejection =
  'user-agent' | 'origin' | 'x-requested-with' | 'token' | 'refuse-token' | 'referer';

const PORTAL_ORIGIN = 'https://dps.psx.com.pk';
const MAX_BODY = 1 << 20;

/** Token number n of a seed: 32 bytes as base64url, 43 characters like the portal's `_k`. */
export function makeToken(seed: string, n: number): string {
  return createHash('sha256').update(`${seed}:${n}`).digest('base64url');
}

/** Why the gate refuses a data request, with the status the portal answers; null when it passes. */
export function gateRefusal(
  req: IncomingMessage,
  token: string,
  ownOrigin: string,
): { status: number; reason: GateRejection } | null {
  if (!(header(req, 'user-agent') ?? '').includes('Mozilla/')) return { status: 404, reason: 'user-agent' };
  const origin = header(req, 'origin');
  if (origin !== undefined && origin !== PORTAL_ORIGIN && origin !== ownOrigin) {
    return { status: 403, reason: 'origin' };
  }
  if (header(req, 'x-requested-with') !== 'XMLHttpRequest')
    return { status: 403, reason: 'x-requested-with' };
  if (header(req, 'x-req-id') !== token) return { status: 403, reason: 'token' };
  return null;
}

/**
 * The rule of `/download/*` (upstream.md §7): no token, but a browser User-Agent and the portal's
 * Referer; without the Referer the portal answers 403.
 */
export function downloadRefusal(
  req: IncomingMessage,
  ownOrigin: string,
): { status: number; reason: GateRejection } | null {
  if (!(header(req, 'user-agent') ?? '').includes('Mozilla/')) return { status: 404, reason: 'user-agent' };
  const referer = header(req, 'referer') ?? '';
  if (!(referer.startsWith(PORTAL_ORIGIN) || (ownOrigin !== '' && referer.startsWith(ownOrigin)))) {
    return { status: 403, reason: 'referer' };
  }
  return null;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The request's body as text, refused past 1 MiB. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
