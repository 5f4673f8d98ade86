import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BadRequestError, ProxyUnreachableError } from '../../src/errors.ts';
import { loopbackAllowedForTests, publicUnicastOnly } from '../../src/proxy/address-policy.ts';
import { parseProxyHeader } from '../../src/proxy/header.ts';
import { checkLiteral, checkProxy, type ResolvedAddress, type Resolver } from '../../src/proxy/resolve.ts';

const SECRET = 'k9-secret-pw';

function fixedResolver(answers: ResolvedAddress[]): { resolver: Resolver; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolver: async (host) => {
      calls.push(host);
      return answers;
    },
  };
}

describe('checkLiteral (cache-first path)', () => {
  it('refuses a literal non-public address in any spelling, without I/O', () => {
    for (const value of [
      'http://127.0.0.1:8080',
      'http://2130706433:8080',
      'socks5://0x7f.1:1080',
      'http://[::1]:8080',
    ]) {
      assert.throws(() => checkLiteral(parseProxyHeader(value)), /loopback address; only public unicast/);
    }
    assert.throws(() => checkLiteral(parseProxyHeader('http://[fd00::1]:8080')), /unique local/);
    assert.throws(() => checkLiteral(parseProxyHeader('http://169.254.169.254:8080')), BadRequestError);
  });

  it('lets public literals and every host name through', () => {
    checkLiteral(parseProxyHeader('http://8.8.8.8:8080'));
    checkLiteral(parseProxyHeader('socks5h://[2606:4700:4700::1111]:1080'));
    checkLiteral(parseProxyHeader('http://localhost:8080')); // checked later, when resolved
  });

  it('never names the credentials', () => {
    assert.throws(
      () => checkLiteral(parseProxyHeader(`http://alice:${SECRET}@10.1.2.3:8080`)),
      (err: Error) =>
        err instanceof BadRequestError && !err.message.includes(SECRET) && /10\.1\.2\.3/.test(err.message),
    );
  });
});

describe('checkProxy', () => {
  it('does not resolve literals and pins them', async () => {
    const { resolver, calls } = fixedResolver([]);
    const v4 = await checkProxy(parseProxyHeader('http://8.8.8.8:8080'), { resolver });
    const v6 = await checkProxy(parseProxyHeader('http://[2606:4700:4700::1111]:8080'), { resolver });
    assert.deepEqual(
      [v4.address, v4.family, v6.address, v6.family],
      ['8.8.8.8', 4, '2606:4700:4700::1111', 6],
    );
    assert.equal(calls.length, 0);
  });

  it('pins the first address when every answer is public', async () => {
    const { resolver, calls } = fixedResolver([
      { address: '2606:4700:4700::1111', family: 6 },
      { address: '1.1.1.1', family: 4 },
    ]);
    const pinned = await checkProxy(parseProxyHeader('socks5h://proxy.example.com:1080'), { resolver });
    assert.equal(pinned.address, '2606:4700:4700::1111');
    assert.equal(pinned.family, 6);
    assert.equal(pinned.spec.host, 'proxy.example.com');
    assert.deepEqual(calls, ['proxy.example.com']);
  });

  it('refuses the name if ANY answer is not public, saying which class', async () => {
    const cases: Array<[ResolvedAddress[], RegExp]> = [
      [
        [
          { address: '1.1.1.1', family: 4 },
          { address: '10.0.0.1', family: 4 },
        ],
        /private address \(RFC 1918\)/,
      ],
      [[{ address: '169.254.169.254', family: 4 }], /link-local/],
      [
        [
          { address: '2606:4700:4700::1111', family: 6 },
          { address: '::ffff:127.0.0.1', family: 6 },
        ],
        /loopback .*IPv4-mapped/,
      ],
      [
        [
          { address: '1.1.1.1', family: 4 },
          { address: 'fd00::5', family: 6 },
        ],
        /unique local/,
      ],
    ];
    for (const [answers, pattern] of cases) {
      const { resolver } = fixedResolver(answers);
      await assert.rejects(
        checkProxy(parseProxyHeader(`http://alice:${SECRET}@proxy.example.com:8080`), { resolver }),
        (err: Error) => {
          assert.ok(err instanceof BadRequestError, String(err));
          assert.match(err.message, /host proxy\.example\.com resolves to a /);
          assert.match(err.message, pattern);
          assert.ok(!err.message.includes(SECRET), 'credentials in message');
          assert.ok(!err.message.includes(answers.at(-1)?.address ?? '?'), 'internal address disclosed');
          return true;
        },
      );
    }
  });

  it('uses the injected policy', async () => {
    const { resolver } = fixedResolver([{ address: '127.0.0.1', family: 4 }]);
    const spec = parseProxyHeader('http://proxy.test:8080');
    await assert.rejects(checkProxy(spec, { resolver }), BadRequestError);
    const pinned = await checkProxy(spec, { resolver, policy: loopbackAllowedForTests(publicUnicastOnly) });
    assert.equal(pinned.address, '127.0.0.1');
  });

  it('with the production defaults, refuses a name that resolves to loopback', async () => {
    await assert.rejects(
      checkProxy(parseProxyHeader('http://localhost:8080')),
      /localhost resolves to a loopback address/,
    );
  });

  it('maps resolution failures to ProxyUnreachableError', async () => {
    const notFound: Resolver = async () => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${SECRET}`), { code: 'ENOTFOUND' });
    };
    await assert.rejects(
      checkProxy(parseProxyHeader('http://nowhere.example:8080'), { resolver: notFound }),
      (err: Error) =>
        err instanceof ProxyUnreachableError &&
        err.message === 'proxy host nowhere.example could not be resolved (ENOTFOUND)',
    );
    const { resolver } = fixedResolver([]);
    await assert.rejects(
      checkProxy(parseProxyHeader('http://empty.example:8080'), { resolver }),
      /has no addresses/,
    );
  });

  it('gives up on a resolver that hangs', async () => {
    const hang: Resolver = () => new Promise(() => undefined);
    const started = Date.now();
    await assert.rejects(
      checkProxy(parseProxyHeader('http://slow.example:8080'), { resolver: hang, resolveTimeoutMs: 50 }),
      (err: Error) => err instanceof ProxyUnreachableError && /within 50 ms/.test(err.message),
    );
    assert.ok(Date.now() - started < 1000, 'timeout not honoured');
  });
});
