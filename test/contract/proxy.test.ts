// X-Exchange-Proxy end to end: the service, real local HTTP CONNECT and SOCKS5 proxies, and the
// fake portal behind them. The address policy that admits loopback is injected here, in code; the
// production policy cannot be relaxed by configuration.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { loopbackAllowedForTests, publicUnicastOnly } from '../../src/proxy/address-policy.ts';
import { startHttpConnectProxy, type HttpConnectProxy } from '../proxy/support/http-connect-proxy.ts';
import { installLoopbackGuard, type LoopbackGuard } from '../proxy/support/loopback-guard.ts';
import { unusedPort } from '../proxy/support/silent-server.ts';
import { startSocks5Proxy, type Socks5Proxy } from '../proxy/support/socks5-proxy.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

const creds = { username: 'alice', password: 's3cr3t-pa55' };
let portal: FakePortal;
let connectProxy: HttpConnectProxy;
let socksProxy: Socks5Proxy;
let guard: LoopbackGuard;
const services: RunningService[] = [];

before(async () => {
  guard = installLoopbackGuard();
  portal = await startFakePortal();
  connectProxy = await startHttpConnectProxy();
  socksProxy = await startSocks5Proxy({ credentials: creds });
});
afterEach(async () => {
  portal.clear();
  portal.resetCounts();
  while (services.length) await services.pop()!.close();
});
after(async () => {
  await connectProxy.close();
  await socksProxy.close();
  await portal.close();
  guard.uninstall();
  assert.deepEqual(guard.violations, [], 'no connection left loopback');
});

async function passthrough(env: Record<string, string> = {}, logLines?: string[]): Promise<RunningService> {
  const svc = await startService(
    portal.url,
    { PROXY_PASSTHROUGH: 'true', LOG_LEVEL: logLines ? 'debug' : 'silent', ...env },
    {
      logLines,
      overrides: {
        passthrough: {
          policy: loopbackAllowedForTests(publicUnicastOnly),
          resolver: async (host) => (host === 'proxy.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
        },
      },
    },
  );
  services.push(svc);
  return svc;
}

describe('X-Exchange-Proxy passthrough', () => {
  it('carries the token fetch and the page fetch through an HTTP CONNECT proxy', async () => {
    const svc = await passthrough();
    const before = connectProxy.records.length;
    const res = await http(svc.url, '/screener', {
      headers: { 'x-exchange-proxy': `http://127.0.0.1:${connectProxy.port}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.json.data.length, portal.dataset.screener.length);
    const tunnels = connectProxy.records.slice(before);
    assert.ok(tunnels.length >= 1, 'the proxy carried the traffic');
    assert.ok(tunnels.every((t) => t.target === new URL(portal.url).host));
    assert.equal(portal.counts().requests['GET /'], 1, 'the token came through the proxy route');
  });

  it('works through SOCKS5 with credentials, accepting the X-PSX-Proxy spelling and a host name', async () => {
    const svc = await passthrough();
    const before = socksProxy.records.length;
    const res = await http(svc.url, '/sectors', {
      headers: {
        'x-psx-proxy': `socks5h://${creds.username}:${creds.password}@proxy.test:${socksProxy.port}`,
      },
    });
    assert.equal(res.status, 200);
    assert.ok(socksProxy.records.length > before);
    assert.ok(socksProxy.records.slice(before).every((r) => r.authenticated));
  });

  it('is never contacted when the answer is cached, and the cached data serves everyone', async () => {
    const svc = await passthrough();
    assert.equal((await http(svc.url, '/indices')).status, 200);
    const dead = `http://127.0.0.1:${await unusedPort()}`;
    const res = await http(svc.url, '/indices', { headers: { 'x-exchange-proxy': dead } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-cache'], 'HIT');
  });

  it('refuses a literal non-public address before any connection, even for a cached answer', async () => {
    const svc = await passthrough();
    assert.equal((await http(svc.url, '/indices')).status, 200);
    for (const proxy of [
      'http://10.0.0.1:8080',
      'socks5://169.254.169.254:1080',
      'http://[fd00::1]:3128',
      'http://0x0a000001:8080',
    ]) {
      const res = await http(svc.url, '/indices', { headers: { 'x-exchange-proxy': proxy } });
      assert.equal(res.status, 400, proxy);
      assertError(res.json, 400, 'bad_request');
    }
  });

  it('rejects malformed headers with a message that never echoes credentials', async () => {
    const svc = await passthrough();
    for (const proxy of [
      'ftp://127.0.0.1:21',
      'http://127.0.0.1',
      'http://user:hunter2@127.0.0.1:8080/path',
      'http://127.0.0.1:22',
      `http://127.0.0.1:8080?x=${'a'.repeat(3000)}`,
    ]) {
      const res = await http(svc.url, '/screener', { headers: { 'x-exchange-proxy': proxy } });
      assert.equal(res.status, 400, proxy);
      assertError(res.json, 400, 'bad_request');
      assert.ok(!res.text.includes('hunter2'), 'no credentials in the answer');
    }
  });

  it('502 proxy_unreachable for a dead proxy or refused credentials, without leaking them', async () => {
    const lines: string[] = [];
    const svc = await passthrough({}, lines);
    const dead = await http(svc.url, '/screener', {
      headers: { 'x-exchange-proxy': `http://127.0.0.1:${await unusedPort()}` },
    });
    assert.equal(dead.status, 502);
    assertError(dead.json, 502, 'proxy_unreachable');
    const wrong = await http(svc.url, '/screener', {
      headers: { 'x-exchange-proxy': `socks5://${creds.username}:wrong-pass-9@127.0.0.1:${socksProxy.port}` },
    });
    assert.equal(wrong.status, 502);
    assertError(wrong.json, 502, 'proxy_unreachable');
    assert.ok(!wrong.text.includes('wrong-pass-9'));
    const logs = lines.join('\n');
    assert.ok(logs.length > 0, 'the service logged');
    assert.ok(!logs.includes('wrong-pass-9') && !logs.includes(creds.password), 'credentials never logged');
  });

  it('limits proxied portal fetches per client IP; cache hits do not count', async () => {
    const svc = await passthrough({ PROXY_FETCH_LIMIT_PER_IP: '2' });
    const via = { 'x-exchange-proxy': `http://127.0.0.1:${connectProxy.port}` };
    assert.equal((await http(svc.url, '/stocks/ENGRO/historical', { headers: via })).status, 200);
    assert.equal((await http(svc.url, '/stocks/HBL/historical', { headers: via })).status, 200);
    assert.equal((await http(svc.url, '/stocks/ENGRO/historical', { headers: via })).status, 200, 'cached');
    const over = await http(svc.url, '/stocks/LUCK/historical', { headers: via });
    assert.equal(over.status, 429);
    assertError(over.json, 429, 'rate_limited');
    assert.ok(Number(over.headers['retry-after']) > 0);
  });
});
