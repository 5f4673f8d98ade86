// What `npm start` loads before it listens: the modules src/main.ts reaches by static imports.
// Code most deployments never ask for is reached only through an `import()` at its first use
// (issue #38); a static import added anywhere on the way would bring its load back to every
// start, which no behaviour test would notice.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';

const cruiseConfig = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

/** Every module src/main.ts reaches through static, value (not type-only) imports. */
async function loadedAtStart(): Promise<Set<string>> {
  const { output } = await cruise(['src/main.ts'], { ...cruiseConfig.options, validate: false });
  const modules = new Map((output as ICruiseResult).modules.map((m) => [m.source, m]));
  const reached = new Set<string>();
  const walk = (source: string) => {
    if (reached.has(source)) return;
    reached.add(source);
    for (const d of modules.get(source)?.dependencies ?? []) {
      // `import type` and `typeof import(...)` are erased; `import()` runs at its first use.
      const erased = d.dependencyTypes.includes('type-only') || d.dependencyTypes.includes('type-import');
      if (d.dynamic || erased || d.coreModule) continue;
      walk(d.resolved);
    }
  };
  walk('src/main.ts');
  return reached;
}

describe('modules loaded at start', () => {
  it('the analytics computation is not among them: only its constants and its loader', async () => {
    const ours = [...(await loadedAtStart())].filter((m) => m.startsWith('src/'));
    assert.ok(ours.includes('src/http/routes/stocks/analytics.ts'), 'the walk reaches the routes');
    assert.deepEqual(ours.filter((m) => /^src\/(market\/)?analytics\/.*\.ts$/.test(m)).sort(), [
      'src/analytics/params.ts',
      'src/market/analytics/lazy.ts',
    ]);
  });

  it('neither is the MCP SDK nor the archiver: they too load at their first use', async () => {
    const reached = [...(await loadedAtStart())];
    assert.deepEqual(
      reached.filter(
        (m) => m.includes('@modelcontextprotocol/') || /^src\/(archiver\/archiver|mcp\/server)\.ts$/.test(m),
      ),
      [],
    );
  });
});
