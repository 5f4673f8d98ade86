// Which addresses a caller-supplied proxy may resolve to. The service dials the proxy from inside
// its own network, so anything but a public unicast address would let a request reach internal
// services (SSRF). Classification is delegated to ipaddr.js's maintained range tables; this file
// only adds what those tables leave as "unicast" although it is not public, and unwraps the IPv6
// forms that embed an IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressVerdict = { allowed: boolean; reason?: string };
export type AddressPolicy = (address: string) => AddressVerdict;

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const allow: AddressVerdict = { allowed: true };
const refuse = (reason: string): AddressVerdict => ({ allowed: false, reason });

// Human wording for ipaddr.js range names; a name missing here is still refused, under its raw name.
const RANGE_LABELS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address (100.64.0.0/10)',
  private: 'private address (RFC 1918)',
  reserved: 'reserved address',
  as112: 'AS112 anycast address',
  as112v6: 'AS112 anycast address',
  amt: 'AMT anycast address',
  uniqueLocal: 'unique local address (fc00::/7)',
  deprecatedSiteLocal: 'site-local address (fec0::/10)',
  discard: 'discard-only address (100::/64)',
  benchmarking: 'benchmarking address',
  deprecatedOrchid: 'ORCHID address',
  orchid2: 'ORCHIDv2 address',
  droneRemoteIdProtocolEntityTags: 'DRIP entity tag address',
  segmentRouting: 'segment routing address (5f00::/16)',
  rfc6145: 'IPv4-translated address (RFC 6145)',
};

// ipaddr.js lumps these into "reserved"; naming them precisely makes the 400 message useful.
const RESERVED_DETAIL = (
  [
    ['192.0.2.0/24', 'documentation address (TEST-NET-1)'],
    ['198.51.100.0/24', 'documentation address (TEST-NET-2)'],
    ['203.0.113.0/24', 'documentation address (TEST-NET-3)'],
    ['198.18.0.0/15', 'benchmarking address (198.18.0.0/15)'],
    ['192.88.99.0/24', '6to4 relay anycast address'],
    ['192.0.0.0/24', 'IETF protocol assignment (192.0.0.0/24)'],
    ['240.0.0.0/4', 'reserved address (240.0.0.0/4)'],
    ['2001:db8::/32', 'documentation address (2001:db8::/32)'],
    ['3fff::/20', 'documentation address (3fff::/20)'],
    ['2001::/23', 'IETF protocol assignment (2001::/23)'],
  ] as const
).map(([cidr, text]) => ({ cidr: ipaddr.parseCIDR(cidr), text }));

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function label(ip: IPv4 | IPv6): string {
  const range = ip.range();
  if (range === 'reserved') {
    for (const { cidr, text } of RESERVED_DETAIL) {
      if (cidr[0].kind() === ip.kind() && ip.match(cidr)) return text;
    }
  }
  return RANGE_LABELS[range] ?? `${range} address`;
}

function classifyV4(ip: IPv4): AddressVerdict {
  // For IPv4, every special-purpose block in the IANA registry has its own ipaddr.js range, so
  // "unicast" there means public.
  return ip.range() === 'unicast' ? allow : refuse(label(ip));
}

function embeddedV4(ip: IPv6, firstByte: number): IPv4 {
  const bytes = ip.toByteArray().slice(firstByte, firstByte + 4);
  return new ipaddr.IPv4(bytes);
}

/** Refuses when any IPv4 address embedded in a transition form is not public. */
function checkEmbedded(form: string, embedded: IPv4[]): AddressVerdict {
  for (const v4 of embedded) {
    const verdict = classifyV4(v4);
    if (!verdict.allowed) return refuse(`${verdict.reason ?? 'non-public address'} embedded in ${form}`);
  }
  return allow;
}

function classifyV6(ip: IPv6): AddressVerdict {
  if (ip.isIPv4MappedAddress()) return checkEmbedded('an IPv4-mapped IPv6 address', [ip.toIPv4Address()]);
  const range = ip.range();
  switch (range) {
    case 'rfc6052':
      // Only the well-known /96 has a fixed layout; the local-use 64:ff9b:1::/48 prefix is a
      // site's private translator and never public.
      if (!ip.match(NAT64_WELL_KNOWN)) return refuse('NAT64 local-use address (64:ff9b:1::/48)');
      return checkEmbedded('a NAT64 address (64:ff9b::/96)', [embeddedV4(ip, 12)]);
    case '6to4':
      return checkEmbedded('a 6to4 address (2002::/16)', [embeddedV4(ip, 2)]);
    case 'teredo': {
      // Teredo carries the server's IPv4 in bits 32-63 and the client's, bit-inverted, in 96-127.
      const client = embeddedV4(ip, 12).octets.map((octet) => octet ^ 0xff);
      return checkEmbedded('a Teredo address (2001::/32)', [embeddedV4(ip, 4), new ipaddr.IPv4(client)]);
    }
    case 'rfc6145': {
      const verdict = checkEmbedded('an IPv4-translated IPv6 address', [embeddedV4(ip, 12)]);
      return verdict.allowed ? refuse(label(ip)) : verdict;
    }
    case 'unicast':
      break;
    default:
      return refuse(label(ip));
  }
  // ipaddr.js calls ::a.b.c.d "unicast"; the form is deprecated and never routable, and it must
  // not smuggle a loopback or private IPv4 past the check.
  if (ip.match(IPV4_COMPATIBLE)) {
    const verdict = checkEmbedded('an IPv4-compatible IPv6 address', [embeddedV4(ip, 12)]);
    return verdict.allowed ? refuse('IPv4-compatible IPv6 address (deprecated, ::/96)') : verdict;
  }
  // Everything outside 2000::/3 that ipaddr.js has no name for is unallocated, not public.
  if (!ip.match(GLOBAL_UNICAST_V6)) return refuse('address outside global unicast space (2000::/3)');
  return allow;
}

/**
 * Turns an address string into the canonical form of the address a socket would dial. Both
 * families go through the WHATWG URL host parser, the one the header parser uses:
 * - non-canonical IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1, 127.1) become dotted decimal;
 * - IPv6 is serialised in compressed form. This matters: ipaddr.js reads "::a.b.c.d" as the
 *   IPv4-mapped ::ffff:a.b.c.d, while sockets (and WHATWG) read it as IPv4-compatible ::a.b.c.d.
 */
function canonical(address: string): string | undefined {
  try {
    if (isIPv6(address)) return new URL(`http://[${address}]/`).hostname.slice(1, -1);
    if (isIPv4(address)) return address;
    if (!/^[0-9a-fA-FxX.]+$/.test(address)) return undefined;
    const host = new URL(`http://${address}/`).hostname;
    return isIPv4(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** Production policy: only public unicast addresses, in either family. */
export const publicUnicastOnly: AddressPolicy = (address) => {
  // A zone index only has meaning for link-local addresses on this host.
  if (address.includes('%')) return refuse('IPv6 address with a zone index');
  const text = canonical(address);
  if (text === undefined) return refuse('not an IP address');
  const ip = ipaddr.parse(text);
  return ip instanceof ipaddr.IPv4 ? classifyV4(ip) : classifyV6(ip);
};

/**
 * FOR TESTS ONLY: wraps a policy so that loopback (127.0.0.0/8 and ::1) is also allowed, letting
 * end-to-end tests reach in-process proxies. A test passes the wrapped policy in explicitly; no
 * configuration or environment variable can produce it, so production can never be relaxed.
 */
export function loopbackAllowedForTests(policy: AddressPolicy): AddressPolicy {
  return (address) => {
    const text = canonical(address);
    if (text !== undefined && ipaddr.process(text).range() === 'loopback') return allow;
    return policy(address);
  };
}
