// DNS-rebinding protection for /mcp: a web page on another site can make a browser send requests
// to a service on the user's own machine by pointing its DNS name at 127.0.0.1; the Host and
// Origin headers still name that site, so only requests naming an allowed host (and, from a
// browser, an allowed origin) are taken.
import type { IncomingHttpHeaders } from 'node:http';

export interface McpAccess {
  /** Host names (no port) requests may name; `*` allows any (protection off). */
  hosts: ReadonlySet<string>;
  /** Origins (`https://app.example`) a browser page may send from, besides the allowed hosts'. */
  origins: ReadonlySet<string>;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

/**
 * The allowed hosts: loopback, the host the service listens on (unless it is every interface),
 * and the configured ones.
 */
export function mcpAccess(
  listenHost: string,
  hosts: readonly string[],
  origins: readonly string[],
): McpAccess {
  const all = new Set<string>(LOOPBACK);
  if (listenHost !== '0.0.0.0' && listenHost !== '::' && listenHost !== '') all.add(listenHost.toLowerCase());
  for (const h of hosts) all.add(h.toLowerCase());
  return { hosts: all, origins: new Set(origins.map((o) => o.toLowerCase().replace(/\/+$/, ''))) };
}

/** `host:port` or `[v6]:port` → the host name, lower-cased. */
function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** Undefined when the request may go on; otherwise why not, in a sentence. */
export function allowedRequest(headers: IncomingHttpHeaders, access: McpAccess): string | undefined {
  if (access.hosts.has('*')) return undefined;
  const host = headers.host;
  if (host === undefined || !access.hosts.has(hostName(host))) {
    return `Host ${JSON.stringify(String(host ?? '').slice(0, 64))} is not allowed to use /mcp (DNS-rebinding protection: add it to MCP_ALLOWED_HOSTS)`;
  }
  const origin = headers.origin;
  if (origin === undefined || access.origins.has('*')) return undefined;
  const normalised = origin.toLowerCase().replace(/\/+$/, '');
  if (access.origins.has(normalised)) return undefined;
  let originHost: string;
  try {
    originHost = hostName(new URL(normalised).host);
  } catch {
    return `Origin ${JSON.stringify(origin.slice(0, 64))} is not a valid origin`;
  }
  if (access.hosts.has(originHost)) return undefined;
  return `Origin ${JSON.stringify(origin.slice(0, 64))} is not allowed to use /mcp (add it to MCP_ALLOWED_ORIGINS)`;
}
