// Builds the market services' view of a request: the client IP (rate limits, budgets) and, when
// the caller names a proxy, how to route portal traffic through it.
import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../../errors.ts';
import type { ClientAddress } from './client-address.ts';
import type { RequestContext } from '../../market/context.ts';

export const PROXY_HEADERS = ['x-exchange-proxy', 'x-psx-proxy'] as const;

/** Reads the proxy header and returns the route the portal traffic should take; throws 400 on bad input. */
export type ProxyGate = (header: string, req: FastifyRequest) => RequestContext['proxy'];

export function proxyHeaderOf(req: FastifyRequest): string | undefined {
  for (const name of PROXY_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) throw new BadRequestError(`${name} may be given only once`);
  }
  return undefined;
}

/** Without passthrough enabled the header is refused outright, so callers learn it had no effect. */
export const passthroughDisabled: ProxyGate = () => {
  throw new BadRequestError('proxy passthrough is disabled on this server');
};

export function contextBuilder(
  clientAddress: ClientAddress,
  gate: ProxyGate,
): (req: FastifyRequest) => RequestContext {
  return (req) => {
    const header = proxyHeaderOf(req);
    const ctx: RequestContext = { clientIp: clientAddress.of(req.raw) };
    if (header !== undefined) ctx.proxy = gate(header, req);
    if (lowUrgency(req.headers.priority)) ctx.spare = true;
    return ctx;
  };
}

/**
 * A request the client marked less urgent than the default (RFC 9218 `Priority: u=5` … `u=7`; the
 * default is 3): its exchange fetches are spare, made only while the server's budget has room (the
 * dashboard's sections below the fold), else a 503 with Retry-After, which the client may await.
 */
function lowUrgency(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  const urgency = value ? /(?:^|,)\s*u=([0-7])\s*(?:[,;]|$)/.exec(value)?.[1] : undefined;
  return urgency !== undefined && Number(urgency) >= 5;
}
