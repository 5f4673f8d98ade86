import type { Route } from '../exchange/client.ts';
import type { CompositeCharge } from '../limits/portal-budget.ts';

/** Who is asking, as far as the market services need to know: for budgets and proxy routing. */
export interface RequestContext {
  clientIp: string;
  /**
   * Present when the caller asked for its own proxy (X-Exchange-Proxy) and the server allows it.
   * Resolved (DNS, address policy, dialer) only when the portal must actually be fetched.
   */
  proxy?: { display: string; resolveRoute: () => Promise<Route> };
  /** A page of several parts: counted once against the client's exchange-fetch budget (limits). */
  composite?: CompositeCharge;
  /** A part fewer readers need: fetched only while the server's budget has room (limits). */
  spare?: boolean;
}
