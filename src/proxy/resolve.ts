// Turns a parsed proxy into the one address that will be dialled. Every address the host resolves
// to is checked, not just the one we would use: a name that answers both a public and a private
// address is refused outright. The result is pinned so the dialers never look the name up again,
// which is what defeats DNS rebinding.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BadRequestError, ProxyUnreachableError } from '../errors.ts';
import { publicUnicastOnly, type AddressPolicy } from './address-policy.ts';
import type { ProxySpec } from './header.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** A proxy whose address passed the policy; dialers connect to `address` and nothing else. */
export type PinnedProxy = { spec: ProxySpec; address: string; family: 4 | 6 };

export type CheckOptions = {
  /** Defaults to the system resolver (getaddrinfo, all A and AAAA answers). */
  resolver?: Resolver;
  /** Defaults to publicUnicastOnly; only tests pass anything else. */
  policy?: AddressPolicy;
  /** Budget for resolving the proxy host name. */
  resolveTimeoutMs?: number;
};

export const DEFAULT_RESOLVE_TIMEOUT_MS = 5000;

export const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

function refused(spec: ProxySpec, reason: string | undefined): BadRequestError {
  const what = reason ?? 'non-public address';
  const verb = spec.hostKind === 'name' ? 'resolves to' : 'is';
  return new BadRequestError(
    `X-Exchange-Proxy host ${spec.host} ${verb} a ${what}; only public unicast addresses are allowed`,
  );
}

/**
 * The cheap check for the cache-first path: refuses a literal non-public address without any I/O.
 * Host names pass; they are checked by checkProxy when the portal must actually be fetched.
 */
export function checkLiteral(spec: ProxySpec, policy: AddressPolicy = publicUnicastOnly): void {
  if (spec.hostKind === 'name') return;
  const verdict = policy(spec.host);
  if (!verdict.allowed) throw refused(spec, verdict.reason);
}

// Only short upper-case codes (ENOTFOUND, EAI_AGAIN) are copied into messages: they say why
// without carrying anything the caller supplied.
function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? ` (${code})` : '';
}

async function resolveWithin(
  resolver: Resolver,
  spec: ProxySpec,
  timeoutMs: number,
): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ProxyUnreachableError(`proxy host ${spec.host} could not be resolved within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([resolver(spec.host), timeout]);
  } catch (err) {
    if (err instanceof ProxyUnreachableError) throw err;
    throw new ProxyUnreachableError(`proxy host ${spec.host} could not be resolved${errorCode(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the proxy host (literals are not resolved), refuses it with a BadRequestError if ANY
 * address fails the policy, and pins the first address. A host that does not resolve is a
 * ProxyUnreachableError: the proxy cannot be reached, whoever is at fault.
 */
export async function checkProxy(spec: ProxySpec, options: CheckOptions = {}): Promise<PinnedProxy> {
  const policy = options.policy ?? publicUnicastOnly;
  if (spec.hostKind !== 'name') {
    checkLiteral(spec, policy);
    return { spec, address: spec.host, family: spec.hostKind === 'ipv6' ? 6 : 4 };
  }
  const resolver = options.resolver ?? systemResolver;
  const answers = await resolveWithin(resolver, spec, options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS);
  if (answers.length === 0) throw new ProxyUnreachableError(`proxy host ${spec.host} has no addresses`);
  for (const { address } of answers) {
    const verdict = policy(address);
    if (!verdict.allowed) throw refused(spec, verdict.reason);
  }
  const first = answers[0] as ResolvedAddress;
  // The family comes from the address itself, not from what the resolver claimed.
  const family = isIP(first.address);
  if (family === 0) throw refused(spec, 'not an IP address');
  return { spec, address: first.address, family: family === 6 ? 6 : 4 };
}
