// The typed client installs lean: its only dependency is openapi-fetch; the MCP SDK, which only the
// stdio bridge (bin.ts) needs, is an optional peer dependency, so `npm install` of the tarball does
// not pull it (npm 7+ skips optional peers). Measured by `npm pack` + install: 3 packages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const pkg = JSON.parse(
  readFileSync(new URL('../../packages/client/package.json', import.meta.url), 'utf8'),
) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

describe('psx-market-data-client package', () => {
  it('depends on openapi-fetch only; the MCP SDK is an optional peer', () => {
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), ['openapi-fetch']);
    assert.ok(pkg.peerDependencies?.['@modelcontextprotocol/sdk']);
    assert.equal(pkg.peerDependenciesMeta?.['@modelcontextprotocol/sdk']?.optional, true);
  });

  it('loads the SDK in the bridge only when it runs, and says how to get it when missing', () => {
    const bin = readFileSync(new URL('../../packages/client/src/bin.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(bin, /^import (?!type)[^;]*@modelcontextprotocol/m);
    assert.match(bin, /npm install @modelcontextprotocol\/sdk/);
  });
});
