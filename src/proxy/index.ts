// Public API of the X-Exchange-Proxy passthrough. Intended request flow:
//   const spec = parseProxyHeader(value);      // every request: syntax (400)
//   checkLiteral(spec);                        // every request: literal non-public IP (400)
//   ...on a cache miss only...
//   const pinned = await checkProxy(spec);     // resolve + policy (400), DNS failure (502)
//   await request(url, { dispatcher: getProxyDispatcher(pinned) }); // proxy failures: 502
// loopbackAllowedForTests is deliberately not re-exported: tests import it from its own file.
export {
  parseProxyHeader,
  MAX_HEADER_BYTES,
  type ProxySpec,
  type ProxyScheme,
  type HostKind,
} from './header.ts';
export { publicUnicastOnly, type AddressPolicy, type AddressVerdict } from './address-policy.ts';
export {
  checkProxy,
  checkLiteral,
  systemResolver,
  DEFAULT_RESOLVE_TIMEOUT_MS,
  type Resolver,
  type ResolvedAddress,
  type PinnedProxy,
  type CheckOptions,
} from './resolve.ts';
export {
  proxyDispatcher,
  getProxyDispatcher,
  createProxyDispatcherCache,
  DEFAULT_CONNECT_TIMEOUT_MS,
  type ProxyDispatcherOptions,
  type ProxyDispatcherCache,
  type ProxyDispatcherCacheOptions,
} from './dialers.ts';
export type { TargetLookup } from './socks-connector.ts';
export type { TargetTrust } from './connect-options.ts';
