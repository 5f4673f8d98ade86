// `npm run check` enforces the folder structure: ESLint refuses a wrong-way import between layers
// (eslint.config.js), dependency-cruiser refuses an import cycle (.dependency-cruiser.cjs). Both
// are run here on code that breaks them, so a rule that silently stopped matching would show.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';
import { ESLint } from 'eslint';

const cruiseConfig = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

async function cruiseViolations(paths: string[]): Promise<ICruiseResult['summary']['violations']> {
  const { output } = await cruise(paths, {
    ...cruiseConfig.options,
    // Without it the API reports what is circular but judges nothing.
    validate: true,
    ruleSet: { forbidden: cruiseConfig.forbidden },
  });
  return (output as ICruiseResult).summary.violations;
}

// The typed rules on src/ need the file in the TypeScript project, which a probe's made-up path is
// not: they are off here, so the probe parses and only the import rules speak.
const untyped = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { project: null } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/require-await': 'off' },
  },
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await untyped.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import rules', () => {
  it('dependency-cruiser reports a cycle, type-only imports included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-cycle-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b?: B }\n");
      writeFileSync(
        join(dir, 'b.ts'),
        "import { c } from './c.ts';\nexport interface B { n: number }\nexport const b = c;\n",
      );
      writeFileSync(
        join(dir, 'c.ts'),
        "import type { A } from './a.ts';\nexport const c: A | null = null;\n",
      );
      const violations = await cruiseViolations([dir]);
      assert.ok(violations.length > 0, 'the cycle a → b → c → a is reported');
      assert.ok(violations.every((v) => v.rule.name === 'no-circular'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('src/ has no cycle', async () => {
    assert.deepEqual(await cruiseViolations(['src']), []);
  });

  it('ESLint refuses imports against the layer direction', async () => {
    assert.equal((await restrictedImports('src/market/x.ts', "import '../http/app.ts';\n")).length, 1);
    assert.equal(
      (await restrictedImports('src/exchange/client-x.ts', "import '../cache/dataset-cache.ts';\n")).length,
      1,
    );
    // The HTML tokenizer and table collector sit below the page parsers.
    assert.equal(
      (await restrictedImports('src/exchange/html/x.ts', "import '../parsers/history.ts';\n")).length,
      1,
    );
    assert.equal(
      (await restrictedImports('src/exchange/html/x.ts', "import '../../http/app.ts';\n")).length,
      1,
    );
    // Nor the exchange client, its token store or page types.
    assert.equal(
      (await restrictedImports('src/exchange/html/x.ts', "import type { PageKind } from '../types.ts';\n"))
        .length,
      1,
    );
  });

  it('ESLint allows imports along the direction', async () => {
    assert.deepEqual(await restrictedImports('src/http/x.ts', "import '../market/quotes/quotes.ts';\n"), []);
    assert.deepEqual(
      await restrictedImports('src/exchange/parsers/x.ts', "import '../html/table.ts';\n"),
      [],
    );
  });

  it('ESLint refuses imports against the domain folders’ direction, and keeps the layer rule there', async () => {
    // A domain imports only the domains its entry in DOMAINS lists.
    assert.equal(
      (await restrictedImports('src/market/history/x.ts', "import '../overview/stock-overview.ts';\n"))
        .length,
      1,
    );
    assert.equal(
      (await restrictedImports('src/market/quotes/x.ts', "import '../analytics/performance.ts';\n")).length,
      1,
    );
    // The files shared by market's domains import none of them.
    assert.equal((await restrictedImports('src/market/x.ts', "import './quotes/quotes.ts';\n")).length, 1);
    // The request pipeline sits below the routes and the OpenAPI document.
    assert.equal(
      (await restrictedImports('src/http/pipeline/x.ts', "import '../routes/stocks.ts';\n")).length,
      1,
    );
    // A domain's rule replaces its layer's for those files: the layer's patterns must still be there.
    assert.equal(
      (await restrictedImports('src/market/history/x.ts', "import '../../http/app.ts';\n")).length,
      1,
    );
  });

  it('ESLint allows imports along the domain folders’ direction', async () => {
    assert.deepEqual(
      await restrictedImports(
        'src/market/overview/x.ts',
        "import '../quotes/quotes.ts';\nimport '../answer.ts';\n",
      ),
      [],
    );
    assert.deepEqual(
      await restrictedImports('src/market/history/x.ts', "import '../listings/indices.ts';\n"),
      [],
    );
    assert.deepEqual(
      await restrictedImports('src/http/routes/x.ts', "import '../pipeline/respond.ts';\n"),
      [],
    );
    assert.deepEqual(await restrictedImports('src/http/app.ts', "import './routes/stocks.ts';\n"), []);
  });
});
