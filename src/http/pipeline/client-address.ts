// Who a request comes from: the address the request limit counts, the portal budget charges and the
// access log names. With TRUST_PROXY on (only behind your own reverse proxy) it is the first address
// in X-Forwarded-For, which the proxy appends to; otherwise the connection's peer. One rule, given
// to Fastify as its `trustProxy` too, so `req.ip` can never disagree with it.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

const ADDRESS = Symbol('clientAddress');

type Addressed = IncomingMessage & { [ADDRESS]?: string };

export class ClientAddress {
  /**
   * Whether a hop may be believed about the one before it (proxy-addr's trust function), or
   * false: no proxy is believed, and Fastify skips its forwarded-header work altogether.
   */
  readonly trust: ((address: string, hop: number) => boolean) | false;

  constructor(trustProxy: boolean) {
    this.trust = trustProxy ? () => true : false;
  }

  /** The client address of `req`, worked out once per request. */
  of(req: IncomingMessage): string {
    const addressed = req as Addressed;
    return (addressed[ADDRESS] ??=
      this.trust === false ? (req.socket.remoteAddress ?? '') : proxyAddr(req, this.trust));
  }
}
