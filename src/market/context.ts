import type { Route } from '../exchange/client.ts';

/** Who is asking, as far as the market services need to know: for budgets and proxy routing. */
export interface RequestContext {
  clientIp: string;
  /**
   * Present when the caller asked for its own proxy (X-Exchange-Proxy) and the server allows it.
   * Resolved (DNS, address policy, dialer) only when the portal must actually be fetched.
   */
  proxy?: { display: string; resolveRoute: () => Promise<Route> };
}
