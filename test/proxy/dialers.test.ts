// End to end: real in-process HTTP CONNECT and SOCKS5 proxies in front of real HTTP and HTTPS
// targets, all on loopback. Loopback is reachable only because each test passes a relaxed policy
// in explicitly; a guard fails the run if anything dials outside 127.0.0.0/8 or ::1.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request, type Dispatcher } from 'undici';
import { BadRequestError, ProxyUnreachableError } from '../../src/errors.ts';
import {
  loopbackAllowedForTests,
  publicUnicastOnly,
  type AddressPolicy,
} from '../../src/proxy/address-policy.ts';
import {
  createProxyDispatcherCache,
  proxyDispatcher,
  type ProxyDispatcherOptions,
} from '../../src/proxy/dialers.ts';
import { parseProxyHeader } from '../../src/proxy/header.ts';
import { checkProxy, type PinnedProxy, type Resolver } from '../../src/proxy/resolve.ts';
import { generateLocalhostCertificate, type TestCertificate } from './support/certs.ts';
import { startHttpConnectProxy, type HttpConnectProxy } from './support/http-connect-proxy.ts';
import { installLoopbackGuard, type LoopbackGuard } from './support/loopback-guard.ts';
import { startSilentServer, unusedPort, type SilentServer } from './support/silent-server.ts';
import { startSocks5Proxy, type Socks5Proxy } from './support/socks5-proxy.ts';
import { startHttpTarget, startHttpsTarget, type TargetServer } from './support/targets.ts';

const SECRET = 'S3cr3t-pa55';
const CREDENTIALS = { username: 'alice', password: SECRET };
const testPolicy = loopbackAllowedForTests(publicUnicastOnly);

let guard: LoopbackGuard;
let certificate: TestCertificate;
let httpTarget: TargetServer;
let httpsTarget: TargetServer;
let httpTargetV6: TargetServer;
let httpProxy: HttpConnectProxy;
let httpProxyAuth: HttpConnectProxy;
let httpProxyV6: HttpConnectProxy;
let socksProxy: Socks5Proxy;
let socksProxyAuth: Socks5Proxy;
let silent: SilentServer;
const dispatchers: Dispatcher[] = [];

before(async () => {
  guard = installLoopbackGuard();
  certificate = generateLocalhostCertificate();
  [httpTarget, httpsTarget, httpTargetV6] = await Promise.all([
    startHttpTarget(),
    startHttpsTarget(certificate),
    startHttpTarget('::1'),
  ]);
  [httpProxy, httpProxyAuth, httpProxyV6, socksProxy, socksProxyAuth, silent] = await Promise.all([
    startHttpConnectProxy(),
    startHttpConnectProxy({ credentials: CREDENTIALS }),
    startHttpConnectProxy({ host: '::1' }),
    startSocks5Proxy(),
    startSocks5Proxy({ credentials: CREDENTIALS }),
    startSilentServer(),
  ]);
});

after(async () => {
  await Promise.all(dispatchers.map((d) => d.destroy()));
  await Promise.all(
    [
      httpTarget,
      httpsTarget,
      httpTargetV6,
      httpProxy,
      httpProxyAuth,
      httpProxyV6,
      socksProxy,
      socksProxyAuth,
      silent,
    ].map((s) => s.close()),
  );
  guard.uninstall();
  assert.deepEqual(guard.violations, [], 'a test dialled outside loopback');
});

async function pin(
  header: string,
  policy: AddressPolicy = testPolicy,
  resolver?: Resolver,
): Promise<PinnedProxy> {
  return checkProxy(parseProxyHeader(header), { policy, resolver });
}

function dispatcherFor(pinned: PinnedProxy, options: ProxyDispatcherOptions = {}): Dispatcher {
  const dispatcher = proxyDispatcher(pinned, { tls: { ca: certificate.cert }, ...options });
  dispatchers.push(dispatcher);
  return dispatcher;
}

type Echo = { secure: boolean; path: string; host: string; proxyAuthorization: boolean };

async function fetchJson(dispatcher: Dispatcher, url: string): Promise<Echo> {
  const response = await request(url, { dispatcher });
  assert.equal(response.statusCode, 200);
  return (await response.body.json()) as Echo;
}

async function assertProxyError(promise: Promise<unknown>, pattern: RegExp): Promise<ProxyUnreachableError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail('expected the request to fail'),
    (err: unknown) => (caught = err),
  );
  assert.ok(caught instanceof ProxyUnreachableError, `expected ProxyUnreachableError, got ${String(caught)}`);
  assert.equal(caught.statusCode, 502);
  assert.equal(caught.code, 'proxy_unreachable');
  assert.match(caught.message, pattern);
  assert.ok(!caught.message.includes(SECRET), 'credentials leaked into the message');
  assert.ok(!JSON.stringify(caught).includes(SECRET), 'credentials leaked into the serialised error');
  assert.equal(caught.cause, undefined);
  return caught;
}

const httpUrl = (path = '/quote'): string => `http://localhost:${httpTarget.port}${path}`;
const httpsUrl = (path = '/quote', host = 'localhost'): string =>
  `https://${host}:${httpsTarget.port}${path}`;

describe('loopback guard', () => {
  it('blocks and records a dial outside loopback (self-test)', () => {
    const inner = installLoopbackGuard();
    try {
      assert.throws(() => net.connect({ host: '10.0.0.1', port: 9 }), /test guard/);
    } finally {
      inner.uninstall();
    }
    assert.deepEqual(inner.violations, ['10.0.0.1']);
  });
});

describe('HTTP CONNECT proxy', () => {
  it('reaches an HTTP target through the tunnel', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${httpProxy.port}`));
    const body = await fetchJson(dispatcher, httpUrl('/a'));
    assert.deepEqual(body, {
      secure: false,
      path: '/a',
      host: `localhost:${httpTarget.port}`,
      proxyAuthorization: false,
    });
    assert.ok(
      httpProxy.records.some((r) => r.target === `localhost:${httpTarget.port}`),
      'CONNECT target',
    );
  });

  it('reaches an HTTPS target, verifying its certificate for the target host name', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${httpProxy.port}`));
    const body = await fetchJson(dispatcher, httpsUrl('/b'));
    assert.equal(body.secure, true);
    assert.equal(body.path, '/b');
  });

  it('sends Basic credentials when the proxy requires them', async () => {
    const header = `http://${CREDENTIALS.username}:${SECRET}@127.0.0.1:${httpProxyAuth.port}`;
    const dispatcher = dispatcherFor(await pin(header));
    assert.equal((await fetchJson(dispatcher, httpsUrl())).secure, true);
    const expected = `Basic ${Buffer.from(`alice:${SECRET}`).toString('base64')}`;
    assert.equal(httpProxyAuth.records.at(-1)?.proxyAuthorization, expected);
  });

  it('sends the credentials to the proxy only, never to a plain-HTTP target', async () => {
    const dispatcher = dispatcherFor(await pin(`http://alice:${SECRET}@127.0.0.1:${httpProxyAuth.port}`));
    const body = await fetchJson(dispatcher, httpUrl('/plain'));
    assert.equal(body.path, '/plain');
    assert.equal(body.proxyAuthorization, false);
  });

  it('maps wrong credentials (407) to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(
      await pin(`http://alice:wrong-${SECRET}@127.0.0.1:${httpProxyAuth.port}`),
    );
    await assertProxyError(request(httpsUrl(), { dispatcher }), /rejected the credentials \(407/);
  });

  it('maps missing credentials (407) to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${httpProxyAuth.port}`));
    await assertProxyError(request(httpsUrl(), { dispatcher }), /requires credentials/);
  });

  it('maps a refused tunnel (CONNECT 502) to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${httpProxy.port}`));
    await assertProxyError(
      request(`https://unknown.test:${httpsTarget.port}/`, { dispatcher }),
      /refused to open a tunnel .*502/,
    );
  });

  it('works with a proxy on IPv6 loopback', async () => {
    const pinned = await pin(`http://[::1]:${httpProxyV6.port}`);
    assert.equal(pinned.family, 6);
    const body = await fetchJson(dispatcherFor(pinned), httpUrl('/v6'));
    assert.equal(body.path, '/v6');
    assert.equal(httpProxyV6.records.length, 1);
  });

  it('fails TLS verification when the target name is not in the certificate', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${httpProxy.port}`));
    await assert.rejects(request(httpsUrl('/', 'wrong.test'), { dispatcher }), (err: Error) => {
      assert.ok(
        !(err instanceof ProxyUnreachableError),
        'a target certificate problem is not a proxy failure',
      );
      assert.equal((err as { code?: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID');
      return true;
    });
  });

  it('keeps certificate verification on when no extra trust anchor is given', async () => {
    const dispatcher = proxyDispatcher(await pin(`http://127.0.0.1:${httpProxy.port}`));
    dispatchers.push(dispatcher);
    await assert.rejects(request(httpsUrl(), { dispatcher }), (err: Error) => {
      assert.match(String((err as { code?: string }).code), /SELF_SIGNED|UNABLE_TO_VERIFY/);
      return true;
    });
  });
});

describe('SOCKS5 proxy', () => {
  it('socks5:// resolves the target itself and sends an IPv4 address (ATYP 1)', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5://127.0.0.1:${socksProxy.port}`));
    const body = await fetchJson(dispatcher, httpUrl('/c'));
    assert.equal(body.path, '/c');
    assert.deepEqual(socksProxy.records.at(-1), {
      atyp: 1,
      host: '127.0.0.1',
      port: httpTarget.port,
      authenticated: false,
    });
  });

  it('socks5:// sends an IPv6 address as ATYP 4', async () => {
    const targetLookup = async (host: string): Promise<string> => (host === 'localhost' ? '::1' : '');
    const dispatcher = dispatcherFor(await pin(`socks5://127.0.0.1:${socksProxy.port}`), { targetLookup });
    const body = await fetchJson(dispatcher, `http://localhost:${httpTargetV6.port}/v6`);
    assert.equal(body.path, '/v6');
    assert.deepEqual(socksProxy.records.at(-1), {
      atyp: 4,
      host: '::1',
      port: httpTargetV6.port,
      authenticated: false,
    });
  });

  it('socks5h:// sends the target name (ATYP 3) and verifies TLS for it', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5h://127.0.0.1:${socksProxy.port}`));
    const body = await fetchJson(dispatcher, httpsUrl('/d'));
    assert.equal(body.secure, true);
    assert.deepEqual(socksProxy.records.at(-1), {
      atyp: 3,
      host: 'localhost',
      port: httpsTarget.port,
      authenticated: false,
    });
  });

  it('socks5:// over TLS still verifies the certificate against the host name, not the IP it sent', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5://127.0.0.1:${socksProxy.port}`));
    assert.equal((await fetchJson(dispatcher, httpsUrl('/e'))).secure, true);
    assert.equal(socksProxy.records.at(-1)?.atyp, 1);
  });

  it('authenticates with user/password (RFC 1929)', async () => {
    const header = `socks5h://alice:${SECRET}@127.0.0.1:${socksProxyAuth.port}`;
    const dispatcher = dispatcherFor(await pin(header));
    assert.equal((await fetchJson(dispatcher, httpsUrl())).secure, true);
    assert.equal(socksProxyAuth.records.at(-1)?.authenticated, true);
  });

  it('maps wrong credentials to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(
      await pin(`socks5h://alice:wrong-${SECRET}@127.0.0.1:${socksProxyAuth.port}`),
    );
    await assertProxyError(request(httpsUrl(), { dispatcher }), /rejected the credentials/);
  });

  it('maps missing credentials to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5h://127.0.0.1:${socksProxyAuth.port}`));
    await assertProxyError(request(httpsUrl(), { dispatcher }), /requires credentials/);
  });

  it('maps a failure reply (host unreachable) to ProxyUnreachableError', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5h://127.0.0.1:${socksProxy.port}`));
    await assertProxyError(
      request(`https://unknown.test:${httpsTarget.port}/`, { dispatcher }),
      /could not connect to the exchange \(SOCKS5 reply: HostUnreachable\)/,
    );
  });

  it('fails TLS verification when the target name is not in the certificate', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5h://127.0.0.1:${socksProxy.port}`));
    await assert.rejects(request(httpsUrl('/', 'wrong.test'), { dispatcher }), (err: Error) => {
      assert.ok(
        !(err instanceof ProxyUnreachableError),
        'a target certificate problem is not a proxy failure',
      );
      assert.equal((err as { code?: string }).code, 'ERR_TLS_CERT_ALTNAME_INVALID');
      return true;
    });
  });
});

describe('proxies that cannot be used', () => {
  for (const scheme of ['http', 'socks5', 'socks5h']) {
    it(`${scheme}: nothing listening → ProxyUnreachableError, quickly`, async () => {
      const dispatcher = dispatcherFor(
        await pin(`${scheme}://alice:${SECRET}@127.0.0.1:${await unusedPort()}`),
      );
      const started = Date.now();
      await assertProxyError(request(httpsUrl(), { dispatcher }), /refused the connection/);
      assert.ok(Date.now() - started < 2000, 'took too long');
    });

    it(`${scheme}: accepts TCP but never answers → ProxyUnreachableError within the timeout`, async () => {
      const dispatcher = dispatcherFor(await pin(`${scheme}://127.0.0.1:${silent.port}`), {
        connectTimeoutMs: 300,
      });
      const started = Date.now();
      await assertProxyError(
        request(httpsUrl(), { dispatcher }),
        /did not (answer|complete) .* within 300 ms/,
      );
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 250 && elapsed < 2000, `took ${elapsed} ms`);
    });
  }

  it('socks5 dispatcher against an HTTP server → not a SOCKS5 proxy', async () => {
    const dispatcher = dispatcherFor(await pin(`socks5://127.0.0.1:${httpTarget.port}`));
    await assertProxyError(request(httpsUrl(), { dispatcher }), /SOCKS5/);
  });

  it('http dispatcher against a SOCKS5 server → closed during the CONNECT handshake', async () => {
    const dispatcher = dispatcherFor(await pin(`http://127.0.0.1:${socksProxy.port}`));
    await assertProxyError(request(httpsUrl(), { dispatcher }), /closed the connection/);
  });
});

describe('DNS pinning', () => {
  // The resolver answers loopback at check time and a private address afterwards. The policy
  // allows exactly the first answer. 10.0.0.1 must never be dialled: the loopback guard would
  // record it, and the resolver-call count shows no second lookup happened at all.
  function rebindingResolver(): { resolver: Resolver; calls: string[] } {
    const calls: string[] = [];
    const resolver: Resolver = async (host) => {
      calls.push(host);
      return [{ address: calls.length === 1 ? '127.0.0.1' : '10.0.0.1', family: 4 }];
    };
    return { resolver, calls };
  }
  const onlyCheckedAddress: AddressPolicy = (address) =>
    address === '127.0.0.1' ? { allowed: true } : publicUnicastOnly(address);

  for (const [scheme, proxy] of [
    ['http', () => httpProxy],
    ['socks5h', () => socksProxy],
  ] as const) {
    it(`${scheme}: connects to the checked address and never resolves the proxy name again`, async () => {
      const { resolver, calls } = rebindingResolver();
      const spec = parseProxyHeader(`${scheme}://proxy.rebind.test:${proxy().port}`);
      const pinned = await checkProxy(spec, { resolver, policy: onlyCheckedAddress });
      assert.equal(pinned.address, '127.0.0.1');
      assert.equal(calls.length, 1);

      const cache = createProxyDispatcherCache({ dispatcher: { tls: { ca: certificate.cert } } });
      const before = proxy().records.length;
      for (const path of ['/1', '/2', '/3']) {
        assert.equal((await fetchJson(cache.get(pinned), httpsUrl(path))).path, path);
      }
      assert.equal(calls.length, 1, 'the dialer looked the proxy name up again');
      assert.ok(proxy().records.length > before, 'the pinned proxy did not receive the connection');
      assert.deepEqual(guard.violations, []);

      // Checking again would see the rebound answer, and the policy refuses it.
      await assert.rejects(checkProxy(spec, { resolver, policy: onlyCheckedAddress }), BadRequestError);
      assert.equal(calls.length, 2);
      cache.clear();
    });
  }
});

describe('dispatcher cache', () => {
  it('reuses one dispatcher per proxy, credentials and address, and closes evicted ones', async () => {
    const cache = createProxyDispatcherCache({ max: 2, dispatcher: { tls: { ca: certificate.cert } } });
    const a = await pin(`socks5h://alice:${SECRET}@127.0.0.1:${socksProxyAuth.port}`);
    const aAgain = await pin(`socks5h://alice:${SECRET}@127.0.0.1:${socksProxyAuth.port}/`);
    const otherCreds = await pin(`socks5h://alice:other@127.0.0.1:${socksProxyAuth.port}`);
    const first = cache.get(a);
    assert.equal(cache.get(aAgain), first);
    assert.notEqual(cache.get(otherCreds), first);
    assert.equal(cache.size, 2);
    assert.equal((await fetchJson(first, httpsUrl())).secure, true);

    cache.get(await pin(`http://127.0.0.1:${httpProxy.port}`)); // evicts the least recently used
    assert.equal(cache.size, 2);
    assert.notEqual(cache.get(a), first, 'the least recently used dispatcher was not evicted');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal((first as Dispatcher & { closed: boolean }).closed, true);
    cache.clear();
    assert.equal(cache.size, 0);
  });
});
