import type { Route } from '../exchange/client.ts';

/** Who is asking, as far as the market services need to know: for budgets and proxy routing. */
export interface RequestContext {
  clientIp: string;
  /**
   * Present when the caller asked for its own proxy (X-Exchange-Proxy) and the server allows it.
   * Resolved (DNS, address policy, dialer) only when the portal must actually be fetched.
   */
  proxy?: { display: string; resolveRoute: () => Promise<Route> };
  /** The reader's page the request is for: its fetches count once a minute per client (limits). */
  page?: string;
  /** A part fewer readers need: fetched only while the server's budget has room (limits). */
  spare?: boolean;
}

/** `ctx` for the symbol page of `symbol` (its overview, performance and indicators). */
export function symbolPage(ctx: RequestContext, symbol: string): RequestContext {
  return { ...ctx, page: `stock:${symbol}` };
}
