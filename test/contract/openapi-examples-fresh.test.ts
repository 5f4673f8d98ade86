// src/http/openapi/examples.generated.ts must be what the service answers today: a route, model or
// fake-portal change without `npm run gen:examples` would leave /docs showing answers the service no
// longer gives. The generator runs at a fixed clock and seed, so a fresh run is byte-identical.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { EXAMPLES_PATH, generateExamplesModule } from '../../scripts/gen-examples.ts';

it('src/http/openapi/examples.generated.ts matches the service’s answers (else run `npm run gen:examples`)', async () => {
  const committed = readFileSync(EXAMPLES_PATH, 'utf8');
  const fresh = await generateExamplesModule();
  assert.ok(
    committed === fresh,
    'src/http/openapi/examples.generated.ts is out of date: run `npm run gen:examples` and commit it',
  );
});
