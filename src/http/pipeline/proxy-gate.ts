// X-Exchange-Proxy when passthrough is enabled. Cheap checks happen on every request (syntax, a
// literal non-public address); the proxy's name is resolved, checked and pinned, and the proxy
// contacted, only when the portal must actually be fetched (spec: the proxy is not contacted when
// the answer comes from cache).
import type { Route } from '../../exchange/client.ts';
import {
  checkLiteral,
  checkProxy,
  createProxyDispatcherCache,
  publicUnicastOnly,
  parseProxyHeader,
  systemResolver,
  type AddressPolicy,
  type ProxyDispatcherOptions,
  type Resolver,
} from '../../proxy/index.ts';
import type { ProxyGate } from './request-context.ts';

export interface PassthroughOptions {
  /** Production uses publicUnicastOnly; only code (a test) can pass anything else, never config. */
  policy?: AddressPolicy;
  resolver?: Resolver;
  dispatcher?: ProxyDispatcherOptions;
}

export function proxyPassthrough(opts: PassthroughOptions = {}): ProxyGate {
  const policy = opts.policy ?? publicUnicastOnly;
  const resolver = opts.resolver ?? systemResolver;
  const dispatchers = createProxyDispatcherCache({ dispatcher: opts.dispatcher });
  return (header) => {
    const spec = parseProxyHeader(header);
    checkLiteral(spec, policy);
    return {
      display: spec.display,
      resolveRoute: async (): Promise<Route> => {
        const pinned = await checkProxy(spec, { resolver, policy });
        // Tokens may be tied to the egress IP, so each proxy keeps its own (spec.key hides credentials).
        return { scope: `proxy:${spec.key}`, dispatcher: dispatchers.get(pinned) };
      },
    };
  };
}
