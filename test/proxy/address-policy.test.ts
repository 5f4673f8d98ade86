import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { loopbackAllowedForTests, publicUnicastOnly } from '../../src/proxy/address-policy.ts';

// [address, allowed, reason must match] — every refused range, both families, the IPv6 forms
// that embed an IPv4 address, and odd IPv4 spellings.
const TABLE: ReadonlyArray<[string, boolean, RegExp?]> = [
  // Public unicast that must pass.
  ['8.8.8.8', true],
  ['1.1.1.1', true],
  ['9.9.9.9', true],
  ['93.184.216.34', true],
  ['100.63.255.255', true], // just below CGNAT
  ['100.128.0.0', true], // just above CGNAT
  ['172.15.255.255', true], // just below 172.16/12
  ['172.32.0.0', true], // just above 172.16/12
  ['198.17.255.255', true], // just below benchmarking
  ['198.20.0.0', true], // just above benchmarking
  ['223.255.255.255', true], // last before multicast
  ['2606:4700:4700::1111', true],
  ['2001:4860:4860::8888', true],
  ['2a00:1450:4001:81b::200e', true],
  ['::ffff:8.8.8.8', true], // IPv4-mapped public
  ['64:ff9b::808:808', true], // NAT64 of 8.8.8.8
  ['2002:808:808::1', true], // 6to4 of 8.8.8.8
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true], // Teredo: server 65.54.227.120, client 8.8.8.8
  // IPv4 loopback, in every spelling.
  ['127.0.0.1', false, /loopback/],
  ['127.255.255.254', false, /loopback/],
  ['2130706433', false, /loopback/], // decimal
  ['0x7f000001', false, /loopback/], // hex
  ['0x7f.1', false, /loopback/], // hex, short dotted
  ['0177.0.0.1', false, /loopback/], // octal
  ['0177.1', false, /loopback/], // octal, short dotted
  ['127.1', false, /loopback/], // short dotted
  ['127.0.1', false, /loopback/],
  ['0x7F.0.0.0x1', false, /loopback/], // mixed case hex per octet
  // Private (RFC 1918).
  ['10.0.0.1', false, /private/],
  ['10.255.255.255', false, /private/],
  ['172.16.0.1', false, /private/],
  ['172.31.255.255', false, /private/],
  ['192.168.1.1', false, /private/],
  ['167772161', false, /private/], // 10.0.0.1 in decimal
  ['0xc0.0xa8.0x1.0x1', false, /private/], // 192.168.1.1 in hex
  ['012.0.0.1', false, /private/], // 10.0.0.1 in octal
  ['192.11010049', false, /private/], // 192.168.1.1 short dotted
  // Link-local, including the cloud metadata address.
  ['169.254.169.254', false, /link-local/],
  ['169.254.0.1', false, /link-local/],
  ['0xa9fea9fe', false, /link-local/], // 169.254.169.254 in hex
  ['2852039166', false, /link-local/], // 169.254.169.254 in decimal
  // CGNAT, multicast, broadcast, unspecified, reserved.
  ['100.64.0.1', false, /carrier-grade NAT/],
  ['100.127.255.255', false, /carrier-grade NAT/],
  ['224.0.0.1', false, /multicast/],
  ['239.255.255.250', false, /multicast/],
  ['255.255.255.255', false, /broadcast/],
  ['4294967295', false, /broadcast/],
  ['0.0.0.0', false, /unspecified/],
  ['0.1.2.3', false, /unspecified/],
  ['0', false, /unspecified/],
  ['240.0.0.1', false, /reserved/],
  ['192.0.0.8', false, /IETF protocol assignment/],
  ['192.88.99.1', false, /6to4 relay/],
  // Documentation and benchmarking.
  ['192.0.2.1', false, /documentation/],
  ['198.51.100.7', false, /documentation/],
  ['203.0.113.9', false, /documentation/],
  ['198.18.0.1', false, /benchmarking/],
  ['198.19.255.255', false, /benchmarking/],
  ['2001:db8::1', false, /documentation/],
  ['3fff::1', false, /documentation/],
  ['2001:2::1', false, /benchmarking/],
  // IPv6 special ranges.
  ['::1', false, /loopback/],
  ['::', false, /unspecified/],
  ['fe80::1', false, /link-local/],
  ['febf:ffff::1', false, /link-local/],
  ['fc00::1', false, /unique local/],
  ['fd12:3456:789a::1', false, /unique local/],
  ['fec0::1', false, /site-local/],
  ['ff02::1', false, /multicast/],
  ['ff05::1:3', false, /multicast/],
  ['100::1', false, /discard/],
  ['4000::1', false, /outside global unicast/], // unallocated
  ['fe80::1%eth0', false, /zone index/],
  // IPv4-mapped forms.
  ['::ffff:127.0.0.1', false, /loopback .*IPv4-mapped/],
  ['::ffff:7f00:1', false, /loopback .*IPv4-mapped/],
  ['::ffff:10.0.0.1', false, /private .*IPv4-mapped/],
  ['::ffff:169.254.169.254', false, /link-local .*IPv4-mapped/],
  ['0:0:0:0:0:ffff:c0a8:0101', false, /private .*IPv4-mapped/],
  // IPv4-compatible forms (deprecated): always refused, naming the embedded class if any.
  ['::127.0.0.1', false, /loopback .*IPv4-compatible/],
  ['::a00:1', false, /private .*IPv4-compatible/],
  ['::8.8.8.8', false, /IPv4-compatible/],
  // NAT64.
  ['64:ff9b::127.0.0.1', false, /loopback .*NAT64/],
  ['64:ff9b::a9fe:a9fe', false, /link-local .*NAT64/],
  ['64:ff9b:1::a00:1', false, /NAT64 local-use/],
  // 6to4.
  ['2002:7f00:1::1', false, /loopback .*6to4/],
  ['2002:c0a8:101::1', false, /private .*6to4/],
  ['2002:a9fe:a9fe::', false, /link-local .*6to4/],
  // Teredo: server IPv4 in bits 32-63, client IPv4 inverted in bits 96-127.
  ['2001:0:7f00:1::1', false, /loopback .*Teredo/],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', false, /private .*Teredo/], // client 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false, /documentation .*Teredo/], // RFC 4380's example
  // IPv4-translated (RFC 6145).
  ['::ffff:0:7f00:1', false, /loopback .*IPv4-translated/],
  ['::ffff:0:808:808', false, /IPv4-translated/],
  // Not an address at all.
  ['example.com', false, /not an IP address/],
  ['', false, /not an IP address/],
  ['1.2.3.4.5', false, /not an IP address/],
  ['256.1.1.1', false, /not an IP address/],
];

describe('publicUnicastOnly: table', () => {
  it('has at least 60 cases', () => assert.ok(TABLE.length >= 60));
  for (const [address, allowed, reason] of TABLE) {
    it(`${JSON.stringify(address)} → ${allowed ? 'allowed' : 'refused'}`, () => {
      const verdict = publicUnicastOnly(address);
      assert.equal(verdict.allowed, allowed, verdict.reason);
      if (reason) assert.match(verdict.reason ?? '', reason);
      if (allowed) assert.equal(verdict.reason, undefined);
    });
  }
});

function v4ToHex(v4: string): string {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

describe('publicUnicastOnly: properties', () => {
  it('an IPv4 address is allowed exactly when ipaddr.js calls it unicast', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        assert.equal(publicUnicastOnly(v4).allowed, ipaddr.parse(v4).range() === 'unicast');
      }),
    );
  });

  it('IPv4-mapped, NAT64 and 6to4 forms get the same verdict as the embedded IPv4', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const expected = publicUnicastOnly(v4).allowed;
        for (const form of [`::ffff:${v4}`, `64:ff9b::${v4}`, `2002:${v4ToHex(v4)}::1`]) {
          assert.equal(publicUnicastOnly(form).allowed, expected, form);
        }
        assert.equal(publicUnicastOnly(`::${v4}`).allowed, false);
      }),
    );
  });

  it('odd IPv4 spellings get the verdict of the address the URL parser reads', () => {
    fc.assert(
      fc.property(fc.ipV4Extended(), (spelling) => {
        let canonical: string;
        try {
          canonical = new URL(`http://${spelling}/`).hostname;
        } catch {
          return; // not a valid spelling for WHATWG either
        }
        assert.deepEqual(publicUnicastOnly(spelling), publicUnicastOnly(canonical));
      }),
    );
  });

  it('an allowed IPv6 address is global unicast or a transition form of a public IPv4', () => {
    const global = ipaddr.parseCIDR('2000::/3');
    const nat64 = ipaddr.parseCIDR('64:ff9b::/96');
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        const verdict = publicUnicastOnly(v6);
        assert.equal(typeof verdict.allowed, 'boolean');
        if (!verdict.allowed) return;
        const ip = ipaddr.parse(v6) as ipaddr.IPv6;
        assert.ok(ip.isIPv4MappedAddress() || ip.match(global) || ip.match(nat64), v6);
        assert.ok(!['loopback', 'linkLocal', 'uniqueLocal', 'multicast', 'unspecified'].includes(ip.range()));
      }),
    );
  });
});

describe('loopbackAllowedForTests', () => {
  const relaxed = loopbackAllowedForTests(publicUnicastOnly);

  it('allows loopback in both families and still refuses everything else non-public', () => {
    assert.equal(relaxed('127.0.0.1').allowed, true);
    assert.equal(relaxed('::1').allowed, true);
    assert.equal(relaxed('10.0.0.1').allowed, false);
    assert.equal(relaxed('169.254.169.254').allowed, false);
    assert.equal(relaxed('8.8.8.8').allowed, true);
  });

  it('leaves the production policy untouched, whatever the environment says', () => {
    const saved = { ...process.env };
    Object.assign(process.env, { PROXY_ALLOW_LOOPBACK: '1', ALLOW_PRIVATE_PROXY: 'true', NODE_ENV: 'test' });
    try {
      assert.equal(publicUnicastOnly('127.0.0.1').allowed, false);
      assert.equal(publicUnicastOnly('::1').allowed, false);
      assert.equal(publicUnicastOnly('10.0.0.1').allowed, false);
    } finally {
      for (const key of ['PROXY_ALLOW_LOOPBACK', 'ALLOW_PRIVATE_PROXY', 'NODE_ENV']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it('no file in src/proxy reads the environment', () => {
    const dir = new URL('../../src/proxy/', import.meta.url);
    for (const name of readdirSync(dir)) {
      const source = readFileSync(new URL(name, dir), 'utf8');
      assert.ok(!/process\.env|process\[['"]env/.test(source), `${name} reads the environment`);
    }
  });
});
