import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BadRequestError } from '../../src/errors.ts';
import { parseProxyHeader, type ProxySpec } from '../../src/proxy/header.ts';

const SECRET = 'Zq7-secret';

type Expected = Partial<
  Pick<ProxySpec, 'scheme' | 'host' | 'hostKind' | 'port' | 'username' | 'password' | 'display'>
>;

const GOOD: ReadonlyArray<[string, Expected]> = [
  [
    'http://proxy.example.com:8080',
    { scheme: 'http', host: 'proxy.example.com', hostKind: 'name', port: 8080 },
  ],
  ['http://proxy.example.com:8080/', { host: 'proxy.example.com', display: 'http://proxy.example.com:8080' }],
  ['HTTP://Proxy.Example.COM:3128', { scheme: 'http', host: 'proxy.example.com' }],
  ['socks5://proxy.example.com:1080', { scheme: 'socks5', port: 1080 }],
  ['socks5h://proxy.example.com:1080', { scheme: 'socks5h' }],
  ['http://proxy.example.com.:8080', { host: 'proxy.example.com.', hostKind: 'name' }],
  ['http://xn--bcher-kva.example:8080', { host: 'xn--bcher-kva.example' }],
  ['http://8.8.8.8:80', { host: '8.8.8.8', hostKind: 'ipv4', port: 80 }],
  ['http://8.8.8.8:443', { port: 443 }],
  ['http://8.8.8.8:1024', { port: 1024 }],
  ['http://8.8.8.8:65535', { port: 65535 }],
  ['socks5h://[2606:4700:4700::1111]:1080', { host: '2606:4700:4700::1111', hostKind: 'ipv6' }],
  ['socks5://[2606:4700:4700:0:0:0:0:1111]:1080', { host: '2606:4700:4700::1111', hostKind: 'ipv6' }],
  ['http://[2606:4700:4700::1111]:8080', { display: 'http://[2606:4700:4700::1111]:8080' }],
  ['http://[::ffff:127.0.0.1]:8080', { host: '::ffff:7f00:1', hostKind: 'ipv6' }],
  // Numeric spellings are recognised as IPv4 and normalised, for every scheme.
  ['http://2130706433:8080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['http://0x7f.1:8080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['http://0177.0.0.1:8080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['http://127.1:8080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['socks5://0x7f.1:1080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['socks5h://2130706433:1080', { host: '127.0.0.1', hostKind: 'ipv4' }],
  ['http://0xA9FEA9FE:8080', { host: '169.254.169.254', hostKind: 'ipv4' }],
  // Credentials, percent-decoded.
  [
    `http://alice:${SECRET}@proxy.example.com:8080`,
    { username: 'alice', password: SECRET, display: 'http://***@proxy.example.com:8080' },
  ],
  ['socks5://us%40er:p%40ss%2Fw%3Ad@1.2.3.4:1080', { username: 'us@er', password: 'p@ss/w:d' }],
  ['socks5h://user:a:b:c@1.2.3.4:1080', { username: 'user', password: 'a:b:c' }],
  ['http://user:%E2%82%AC@1.2.3.4:8080', { password: '€' }],
  ["http://u-._~!$&'()*+,;=:p@1.2.3.4:8080", { username: "u-._~!$&'()*+,;=", password: 'p' }],
];

describe('parseProxyHeader: good forms', () => {
  for (const [value, expected] of GOOD) {
    it(value, () => {
      const spec = parseProxyHeader(value);
      for (const [field, want] of Object.entries(expected)) {
        assert.equal(spec[field as keyof ProxySpec], want, field);
      }
      assert.ok(!spec.display.includes(SECRET) && !spec.key.includes(SECRET), 'secret in display or key');
      if (spec.password !== undefined) {
        assert.ok(!spec.key.includes(`:${spec.password}@`), 'password in key');
        assert.match(spec.display, /:\/\/\*\*\*@/);
      }
    });
  }
});

// [value, message must match]. Each bad value that carries credentials uses SECRET.
const BAD: ReadonlyArray<[string, RegExp]> = [
  ['', /is empty/],
  [' http://1.2.3.4:8080', /whitespace/],
  ['http://1.2.3.4:8080\n', /whitespace/],
  ['http://1.2.3.4:8080\t', /whitespace/],
  [`http://alice:${SECRET}\u00e9@1.2.3.4:8080`, /non-ASCII/],
  ['http:\\\\1.2.3.4:8080', /backslash/],
  ['1.2.3.4:8080', /must start with http:\/\/, socks5:\/\/ or socks5h:\/\//],
  [`alice:${SECRET}@1.2.3.4:8080`, /must start with/],
  ['http:/1.2.3.4:8080', /must start with/],
  ['https://1.2.3.4:8443', /scheme "https" is not supported/],
  ['socks4://1.2.3.4:1080', /scheme "socks4" is not supported/],
  ['socks://1.2.3.4:1080', /scheme "socks" is not supported/],
  ['ftp://1.2.3.4:2121', /not supported/],
  ['http://1.2.3.4', /explicit port/],
  ['http://1.2.3.4:', /explicit port/],
  ['http://[2606:4700::1111]', /explicit port/],
  ['http://1.2.3.4:22', /port must be 80, 443 or between 1024 and 65535/],
  ['http://1.2.3.4:0', /port must be/],
  ['http://1.2.3.4:1023', /port must be/],
  ['http://1.2.3.4:65536', /port must be/],
  ['http://1.2.3.4:99999', /port must be/],
  ['http://1.2.3.4:08080', /decimal number/],
  ['http://1.2.3.4:80a', /decimal number/],
  ['http://1.2.3.4:-1', /decimal number/],
  ['http://1.2.3.4:8080/path', /path other than '\/'/],
  ['http://1.2.3.4:8080//', /path/],
  ['http://1.2.3.4:8080?q=1', /query/],
  ['http://1.2.3.4:8080/?', /query/],
  ['http://1.2.3.4:8080#frag', /fragment/],
  ['http://1.2.3.4:8080/#', /fragment/],
  [`http://alice:${SECRET}/x@1.2.3.4:8080`, /%2F/],
  [`http://alice:${SECRET}#x@1.2.3.4:8080`, /%23/],
  [`http://alice:${SECRET}?x@1.2.3.4:8080`, /%3F/],
  [`http://alice:${SECRET}@x@1.2.3.4:8080`, /more than one '@'.*%40/],
  [`http://${SECRET}@1.2.3.4:8080`, /user:pass@/],
  [`http://:${SECRET}@1.2.3.4:8080`, /non-empty/],
  ['http://alice:@1.2.3.4:8080', /non-empty/],
  ['http://@1.2.3.4:8080', /user:pass@/],
  [`http://alice:${SECRET}%zz@1.2.3.4:8080`, /invalid percent-encoding in the password/],
  [`http://alice:${SECRET}%E2%82@1.2.3.4:8080`, /invalid percent-encoding/],
  [`http://alice:${SECRET}%00@1.2.3.4:8080`, /control characters/],
  [`http://al%0Aice:${SECRET}@1.2.3.4:8080`, /user name contains control characters/],
  [`http://al%3Aice:${SECRET}@1.2.3.4:8080`, /user name must not contain ':'/],
  [`http://alice:${SECRET}"@1.2.3.4:8080`, /must be percent-encoded/],
  [`http://alice:${SECRET}[@1.2.3.4:8080`, /must be percent-encoded/],
  [`http://alice:${'x'.repeat(256)}@1.2.3.4:8080`, /password is longer than 255 bytes/],
  [`http://${'u'.repeat(256)}:${SECRET}@1.2.3.4:8080`, /user name is longer than 255 bytes/],
  [`http://alice:${SECRET}@:8080`, /has no host/],
  ['http://:8080', /has no host/],
  ['http://', /has no host/],
  ['http://::1:8080', /IPv6 addresses must be enclosed in brackets/],
  ['http://2606:4700::1111:8080', /brackets/],
  ['http://[::1:8080', /closing ']'/],
  ['http://[::1]x:8080', /after the IPv6 address/],
  ['http://[fe80::1%25eth0]:8080', /zone identifier/],
  ['http://[zz::1]:8080', /not a valid IPv6 address/],
  ['http://[1.2.3.4]:8080', /not a valid IPv6 address/],
  ['http://1.2.3.4.5:8080', /not a valid host name or IPv4 address/],
  ['http://999.1.1.1:8080', /not a valid host name or IPv4 address/],
  ['http://4294967296:8080', /not a valid host name or IPv4 address/],
  ['http://foo.0x10:8080', /not a valid host name or IPv4 address/],
  ['http://a..b:8080', /not a valid host name/],
  ['http://-bad-.example:8080', /not a valid host name/],
  [`http://${'a'.repeat(64)}.example:8080`, /not a valid host name/],
  ['http://exa*mple.com:8080', /not a valid host name/],
  ['http://%31%32%37.0.0.1:8080', /must not be percent-encoded/],
  [`http://alice:${SECRET}@proxy.example.com:${'9'.repeat(3000)}`, /longer than 2048 bytes/],
];

describe('parseProxyHeader: bad forms', () => {
  for (const [value, pattern] of BAD) {
    it(JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value), () => {
      assert.throws(
        () => parseProxyHeader(value),
        (err: unknown) => {
          assert.ok(err instanceof BadRequestError, String(err));
          assert.equal(err.statusCode, 400);
          assert.equal(err.code, 'bad_request');
          assert.match(err.message, /^X-Exchange-Proxy /);
          assert.match(err.message, pattern);
          assert.ok(!err.message.includes(SECRET), `message echoes the credentials: ${err.message}`);
          return true;
        },
      );
    });
  }
});

describe('parseProxyHeader: credentials stay private', () => {
  const spec = parseProxyHeader(`socks5h://alice:${SECRET}@proxy.example.com:1080`);

  it('are readable by the dialers', () => {
    assert.equal(spec.username, 'alice');
    assert.equal(spec.password, SECRET);
  });

  it('do not show when the spec is logged or serialised', () => {
    assert.ok(!JSON.stringify(spec).includes(SECRET), 'JSON');
    assert.ok(!inspect(spec, { depth: 5 }).includes(SECRET), 'inspect');
    assert.ok(!JSON.stringify({ ...spec }).includes(SECRET), 'spread');
  });

  it('give a stable key that differs by credentials and never contains them', () => {
    const again = parseProxyHeader(`socks5h://alice:${SECRET}@proxy.example.com:1080/`);
    const other = parseProxyHeader('socks5h://alice:other@proxy.example.com:1080');
    const none = parseProxyHeader('socks5h://proxy.example.com:1080');
    assert.equal(again.key, spec.key);
    assert.notEqual(other.key, spec.key);
    assert.notEqual(none.key, spec.key);
    assert.equal(none.key, 'socks5h://proxy.example.com:1080');
    assert.ok(!spec.key.includes(SECRET) && !spec.key.includes('alice'), 'credentials in key');
  });

  it('never appear in an error message, whatever follows them (property)', () => {
    const password = fc.stringMatching(/^[A-Za-z0-9]{8,16}$/);
    const tail = fc.string({ unit: fc.constantFrom(...'ab1.:/?#@[]%-_ \\'.split('')), maxLength: 20 });
    const scheme = fc.constantFrom('http', 'socks5', 'socks5h', 'https', 'HTTP');
    fc.assert(
      fc.property(scheme, password, tail, tail, (s, pw, before, after) => {
        const value = `${s}://${before}user:${pw}@${after}`;
        try {
          parseProxyHeader(value);
        } catch (err) {
          assert.ok(err instanceof BadRequestError, String(err));
          assert.ok(!err.message.includes(pw), `${value} → ${err.message}`);
        }
      }),
    );
  });

  it('total: any string either parses or throws BadRequestError (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (value) => {
        try {
          const spec = parseProxyHeader(value);
          assert.ok([80, 443].includes(spec.port) || (spec.port >= 1024 && spec.port <= 65535), value);
        } catch (err) {
          assert.ok(err instanceof BadRequestError, String(err));
        }
      }),
    );
  });
});
