// Parses the X-Exchange-Proxy request header. The grammar is deliberately narrower than a URL:
// anything a URL parser would silently repair (whitespace, backslashes, missing ports, paths) is
// refused, so the proxy that is checked is exactly the proxy the caller meant. Error messages say
// what is wrong without quoting the input, because the input may contain a password.
import { createHmac, randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { BadRequestError } from '../errors.ts';

export type ProxyScheme = 'http' | 'socks5' | 'socks5h';
export type HostKind = 'name' | 'ipv4' | 'ipv6';

export type ProxySpec = {
  scheme: ProxyScheme;
  /** Host name (lower case), or an IP literal in canonical form without brackets. */
  host: string;
  hostKind: HostKind;
  port: number;
  /** Percent-decoded. Non-enumerable, so logging or serialising the spec never shows it. */
  username?: string;
  /** Percent-decoded. Non-enumerable, so logging or serialising the spec never shows it. */
  password?: string;
  /** Redacted form for logs: scheme://host:port, with `***@` if credentials. */
  display: string;
  /** Stable cache key; credentials appear only as a keyed hash. */
  key: string;
};

export const MAX_HEADER_BYTES = 2048;
/** SOCKS5 user/password authentication (RFC 1929) carries each field in at most 255 bytes. */
const MAX_CREDENTIAL_BYTES = 255;
const SCHEMES: ReadonlySet<string> = new Set<ProxyScheme>(['http', 'socks5', 'socks5h']);
const HEADER = 'X-Exchange-Proxy';

// The key must not let someone holding a log line or a metrics label brute-force a password, so
// credentials are hashed with a secret that lives only in this process; keys only need to be
// stable for the lifetime of the in-memory dispatcher cache.
const KEY_SECRET = randomBytes(32);

function fail(problem: string): never {
  throw new BadRequestError(`${HEADER} ${problem}`);
}

// RFC 3986 userinfo characters: unreserved, sub-delims, ':' and percent-encodings.
const USERINFO_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:%]*$/;
// Characters a host may be written with before normalisation: names and every IPv4 spelling.
const HOST_CHARS = /^[A-Za-z0-9.\-_]+$/;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

function decodeCredential(raw: string, what: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    fail(`has an invalid percent-encoding in the ${what}`);
  }
  if (decoded.length === 0) fail('credentials need a non-empty user name and password (user:pass@)');
  if (Buffer.byteLength(decoded, 'utf8') > MAX_CREDENTIAL_BYTES) {
    fail(`${what} is longer than ${MAX_CREDENTIAL_BYTES} bytes`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(decoded)) fail(`${what} contains control characters`);
  return decoded;
}

function parseCredentials(userinfo: string): { username: string; password: string } {
  if (!USERINFO_CHARS.test(userinfo)) {
    fail('credentials contain a character that must be percent-encoded');
  }
  const colon = userinfo.indexOf(':');
  if (colon < 0) fail('credentials must be given as user:pass@');
  const username = decodeCredential(userinfo.slice(0, colon), 'user name');
  const password = decodeCredential(userinfo.slice(colon + 1), 'password');
  // HTTP Basic authentication splits user and password at the first ':' (RFC 7617).
  if (username.includes(':')) fail("user name must not contain ':'");
  return { username, password };
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') fail('must include an explicit port (e.g. :1080)');
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) fail('port must be a decimal number without leading zeros');
  const port = Number(raw);
  if (port !== 80 && port !== 443 && (port < 1024 || port > 65535)) {
    fail('port must be 80, 443 or between 1024 and 65535');
  }
  return port;
}

function parseIPv6(bracketed: string): string {
  const inner = bracketed.slice(1, -1);
  if (inner.includes('%')) fail('host must not carry an IPv6 zone identifier');
  if (!isIPv6(inner)) fail('host is not a valid IPv6 address');
  try {
    // WHATWG serialisation gives the canonical compressed, lower-case form.
    return new URL(`http://[${inner}]/`).hostname.slice(1, -1);
  } catch {
    fail('host is not a valid IPv6 address');
  }
}

function parseHostName(raw: string): { host: string; hostKind: 'name' | 'ipv4' } {
  if (raw.includes('%')) fail('host must not be percent-encoded');
  if (!HOST_CHARS.test(raw)) fail('host is not a valid host name or IPv4 address');
  let host: string;
  try {
    // The WHATWG host parser turns every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1)
    // into dotted decimal, so the address that is classified is the one that would be dialled.
    // socks5: URLs get an opaque host without this normalisation; parsing as http: avoids that.
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    fail('host is not a valid host name or IPv4 address');
  }
  if (isIPv4(host)) return { host, hostKind: 'ipv4' };
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length === 0 || name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) {
    fail('host is not a valid host name or IPv4 address');
  }
  return { host, hostKind: 'name' };
}

function splitHostPort(hostport: string): { host: string; hostKind: HostKind; port: number } {
  if (hostport.length === 0) fail('has no host');
  if (hostport.startsWith('[')) {
    const close = hostport.indexOf(']');
    if (close < 0) fail("has an IPv6 address without its closing ']'");
    const rest = hostport.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) fail("has unexpected characters after the IPv6 address's ']'");
    return {
      host: parseIPv6(hostport.slice(0, close + 1)),
      hostKind: 'ipv6',
      port: parsePort(rest.slice(1)),
    };
  }
  const colon = hostport.indexOf(':');
  if (colon !== hostport.lastIndexOf(':')) fail('IPv6 addresses must be enclosed in brackets');
  const rawHost = colon < 0 ? hostport : hostport.slice(0, colon);
  if (rawHost.length === 0) fail('has no host');
  const { host, hostKind } = parseHostName(rawHost);
  return { host, hostKind, port: parsePort(colon < 0 ? undefined : hostport.slice(colon + 1)) };
}

function parseScheme(value: string): { scheme: ProxyScheme; rest: string } {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(value);
  if (match === null) fail('must start with http://, socks5:// or socks5h://');
  const scheme = (match[1] ?? '').toLowerCase();
  if (!SCHEMES.has(scheme)) {
    // A scheme cannot hold credentials, but cap it so the message stays short.
    const shown = scheme.length <= 16 ? `"${scheme}" ` : '';
    fail(`scheme ${shown}is not supported; use http://, socks5:// or socks5h://`);
  }
  return { scheme: scheme as ProxyScheme, rest: match[2] ?? '' };
}

/** Splits off and checks what follows the authority; only a bare "/" may follow it. */
function splitAuthority(rest: string): string {
  const end = rest.search(/[/?#]/);
  if (end < 0) return rest;
  const tail = rest.slice(end);
  // The hints matter: a password with a raw '/', '?' or '#' lands here.
  if (tail.includes('#')) fail("must not contain a fragment ('#'); percent-encode '#' in credentials as %23");
  if (tail.includes('?')) fail("must not contain a query ('?'); percent-encode '?' in credentials as %3F");
  if (tail !== '/') fail("must not contain a path other than '/'; percent-encode '/' in credentials as %2F");
  return rest.slice(0, end);
}

function bracketed(host: string, hostKind: HostKind): string {
  return hostKind === 'ipv6' ? `[${host}]` : host;
}

function credentialDigest(username: string, password: string): string {
  return createHmac('sha256', KEY_SECRET)
    .update(`${username}\u0000${password}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Parses an X-Exchange-Proxy value; throws BadRequestError saying what is wrong. */
export function parseProxyHeader(value: string): ProxySpec {
  if (value.length === 0) fail('is empty');
  if (Buffer.byteLength(value, 'utf8') > MAX_HEADER_BYTES) fail(`is longer than ${MAX_HEADER_BYTES} bytes`);
  // Only visible ASCII: URL parsers strip or rewrite whitespace, controls and backslashes, which
  // would make the checked value differ from the written one.
  if (!/^[\x21-\x7e]+$/.test(value) || value.includes('\\')) {
    fail(
      'contains whitespace, control, non-ASCII or backslash characters; percent-encode them in credentials',
    );
  }
  const { scheme, rest } = parseScheme(value);
  const authority = splitAuthority(rest);
  const at = authority.indexOf('@');
  if (at !== authority.lastIndexOf('@'))
    fail("contains more than one '@'; percent-encode '@' in credentials as %40");
  const credentials = at < 0 ? undefined : parseCredentials(authority.slice(0, at));
  const { host, hostKind, port } = splitHostPort(authority.slice(at + 1));

  const hostPort = `${bracketed(host, hostKind)}:${port}`;
  const digest =
    credentials === undefined ? '' : `${credentialDigest(credentials.username, credentials.password)}@`;
  const spec: ProxySpec = {
    scheme,
    host,
    hostKind,
    port,
    display: `${scheme}://${credentials === undefined ? '' : '***@'}${hostPort}`,
    key: `${scheme}://${digest}${hostPort}`,
  };
  if (credentials !== undefined) {
    Object.defineProperty(spec, 'username', { value: credentials.username, enumerable: false });
    Object.defineProperty(spec, 'password', { value: credentials.password, enumerable: false });
  }
  return spec;
}
