// Builds the undici dispatcher that sends the portal fetch through a checked, pinned proxy, and
// caches one per proxy: a dispatcher owns a connection pool, so one per request would leak
// sockets and defeat keep-alive.
//
// Error contract: failures to reach the proxy, or of its CONNECT/SOCKS5 handshake (including
// missing or wrong credentials, and the proxy failing to reach the target), reject `request()`
// with ProxyUnreachableError directly; the caller needs no mapping. Failures after the tunnel is
// up (the target's TLS certificate, the target's HTTP answer) are not the proxy's and pass through
// unchanged, exactly as they would without a proxy.
import { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher } from 'undici';
import type { TargetTrust } from './connect-options.ts';
import { httpTunnelDispatcher } from './http-tunnel.ts';
import type { ProxyErrorContext } from './proxy-errors.ts';
import type { PinnedProxy } from './resolve.ts';
import { socksConnector, systemTargetLookup, type TargetLookup } from './socks-connector.ts';

export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

export type ProxyDispatcherOptions = {
  /** Deadline for the proxy to accept TCP, and separately for it to finish its handshake. */
  connectTimeoutMs?: number;
  /** Extra trust anchors for the target's certificate (tests). */
  tls?: TargetTrust;
  /** How socks5:// resolves the target locally; defaults to the system resolver. */
  targetLookup?: TargetLookup;
};

export function proxyDispatcher(pinned: PinnedProxy, options: ProxyDispatcherOptions = {}): Dispatcher {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const tls = options.tls ?? {};
  const errorContext: ProxyErrorContext = {
    display: pinned.spec.display,
    hasCredentials: pinned.spec.username !== undefined,
    connectTimeoutMs,
  };
  if (pinned.spec.scheme === 'http') {
    return httpTunnelDispatcher(pinned, { connectTimeoutMs, tls, errorContext });
  }
  const targetLookup = options.targetLookup ?? systemTargetLookup;
  return new Agent({
    connect: socksConnector(pinned, { connectTimeoutMs, tls, targetLookup, errorContext }),
  });
}

export type ProxyDispatcherCache = {
  /** The cached dispatcher for this proxy and pinned address, created on first use. */
  get(pinned: PinnedProxy): Dispatcher;
  readonly size: number;
  /** Evicts everything; evicted dispatchers are closed once their requests finish. */
  clear(): void;
};

export type ProxyDispatcherCacheOptions = {
  max?: number;
  /** A dispatcher unused this long is evicted and closed, releasing its idle sockets. */
  idleTtlMs?: number;
  dispatcher?: ProxyDispatcherOptions;
};

export function createProxyDispatcherCache(options: ProxyDispatcherCacheOptions = {}): ProxyDispatcherCache {
  const cache = new LRUCache<string, Dispatcher>({
    max: options.max ?? 100,
    ttl: options.idleTtlMs ?? 10 * 60_000,
    updateAgeOnGet: true,
    ttlAutopurge: true,
    // close() lets in-flight requests finish, so evicting a dispatcher in use is safe.
    dispose: (dispatcher) => void dispatcher.close().catch(() => undefined),
  });
  return {
    get(pinned) {
      // spec.key holds credentials only as a keyed hash; the address is part of the key so a
      // re-check that pins a different address never reuses connections to the old one.
      const key = `${pinned.spec.key}|${pinned.address}`;
      let dispatcher = cache.get(key);
      if (dispatcher === undefined) {
        dispatcher = proxyDispatcher(pinned, options.dispatcher);
        cache.set(key, dispatcher);
      }
      return dispatcher;
    },
    get size() {
      return cache.size;
    },
    clear() {
      cache.clear();
    },
  };
}

const defaultCache = createProxyDispatcherCache();

/** The process-wide cached dispatcher for a pinned proxy (production settings). */
export function getProxyDispatcher(pinned: PinnedProxy): Dispatcher {
  return defaultCache.get(pinned);
}
