// packages/client/src/schema.ts must describe the routes as they are: a route or schema change without
// `npm run gen:client` would leave the typed client checking against an API that no longer exists.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { generateClientSchema, SCHEMA_PATH } from '../../scripts/gen-client.ts';

it('packages/client/src/schema.ts matches the current OpenAPI document (else run `npm run gen:client`)', async () => {
  const committed = readFileSync(SCHEMA_PATH, 'utf8');
  const fresh = await generateClientSchema();
  assert.ok(
    committed === fresh,
    'packages/client/src/schema.ts is out of date: run `npm run gen:client` and commit it',
  );
});
