// Configuration from the environment: defaults, and a clear start-up error naming the variable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('has the README defaults', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8000);
    assert.equal(c.rateLimitPerMinute, 60);
    assert.equal(c.trustProxy, false);
    assert.equal(c.exchangeBaseUrl, 'https://dps.psx.com.pk');
    assert.equal(c.cache.intradayTtlSec, 900);
    assert.equal(c.budget.fetchesPerIpPerMinute, 20);
    assert.equal(c.redisUrl, undefined);
  });

  it('reads integers, booleans and URLs', () => {
    const c = loadConfig({
      PORT: '9000',
      TRUST_PROXY: 'yes',
      HIT_REPLAY: 'off',
      EXCHANGE_BASE_URL: 'http://127.0.0.1:4000/ignored/path',
      RATE_LIMIT_PER_MINUTE: ' ',
    });
    assert.equal(c.port, 9000);
    assert.equal(c.trustProxy, true);
    assert.equal(c.hitReplay, false);
    assert.equal(c.exchangeBaseUrl, 'http://127.0.0.1:4000');
    assert.equal(c.rateLimitPerMinute, 60, 'blank is the default');
  });

  it("reads /mcp's allowed hosts and origins as comma-separated lists (none by default)", () => {
    assert.deepEqual(loadConfig({}).mcp, { allowedHosts: [], allowedOrigins: [], tools: 'all' });
    const c = loadConfig({ MCP_ALLOWED_HOSTS: ' api.example.com, ,mcp.example ', MCP_ALLOWED_ORIGINS: '*' });
    assert.deepEqual(c.mcp, {
      allowedHosts: ['api.example.com', 'mcp.example'],
      allowedOrigins: ['*'],
      tools: 'all',
    });
  });

  it('reads MCP_TOOLS: all (default) or core, and refuses anything else', () => {
    assert.equal(loadConfig({ MCP_TOOLS: 'Core' }).mcp.tools, 'core');
    assert.equal(loadConfig({ MCP_TOOLS: 'all' }).mcp.tools, 'all');
    assert.throws(() => loadConfig({ MCP_TOOLS: 'few' }), /MCP_TOOLS must be all or core, got "few"/);
  });

  it('fails fast with a message naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT must be an integer ≥ 0, got "eighty"/],
      [{ CACHE_MEMORY_MB: '0' }, /CACHE_MEMORY_MB must be an integer ≥ 1/],
      [{ RATE_LIMIT_PER_MINUTE: '1.5' }, /RATE_LIMIT_PER_MINUTE/],
      [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true or false, got "maybe"/],
      [{ EXCHANGE_BASE_URL: 'ftp://x' }, /EXCHANGE_BASE_URL must be an http\(s\) URL/],
      [{ EXCHANGE_BASE_URL: 'not a url' }, /EXCHANGE_BASE_URL must be an absolute http\(s\) URL/],
    ];
    for (const [env, message] of cases) {
      assert.throws(
        () => loadConfig(env),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
      );
    }
  });
});
