// /docs and the examples in /openapi.json, over HTTP (no browser needed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { OPERATION_EXAMPLES } from '../../src/http/openapi/examples.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

interface MediaType {
  schema: object;
  examples?: Record<string, { summary: string; value: unknown }>;
}
interface Operation {
  parameters?: { name: string; in: string; example?: unknown }[];
  responses: Record<string, { content?: Record<string, MediaType> }>;
  description?: string;
}
interface Doc {
  components: object;
  paths: Record<string, { get?: Operation }>;
}

// ajv-formats is CommonJS with a default export; under NodeNext its type is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

describe('API reference', () => {
  let portal: FakePortal;
  let service: RunningService;
  let doc: Doc;

  before(async () => {
    portal = await startFakePortal();
    service = await startService(portal.url);
    doc = (await http(service.url, '/openapi.json')).json as Doc;
  });

  after(async () => {
    await service?.close();
    await portal?.close();
  });

  it('serves Swagger UI at /docs from the service itself', async () => {
    const page = await http(service.url, '/docs');
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(assets.length >= 4, page.text);
    for (const asset of assets) {
      assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} is not served by the service`);
      const res = await http(
        service.url,
        asset.startsWith('/') ? asset : `/docs/${asset.replace(/^\.\//, '')}`,
      );
      assert.equal(res.status, 200, asset);
    }
    const init = await http(service.url, '/docs/static/swagger-initializer.js');
    assert.match(init.text, /validatorUrl: null/);
  });

  it('is the project’s page: viewport tag, own title, favicon and colours, a way back', async () => {
    // As a browser asks for it: the page must be rewritten whatever the compression.
    const page = await http(service.url, '/docs', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(page.status, 200);
    assert.match(page.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    assert.match(page.text, /<title>PSX market data · API reference<\/title>/);
    assert.doesNotMatch(page.text, /favicon-32x32\.png/, 'Swagger’s favicon');
    assert.match(page.text, /<a href="\/">← Market dashboard<\/a>/);
    const css = page.text.match(/href="([^"]*theme\/psx\.css)"/)?.[1];
    assert.ok(css, page.text);
    const theme = await http(service.url, css.startsWith('.') ? `/docs/${css.slice(2)}` : css);
    assert.equal(theme.status, 200);
    assert.match(theme.text, /\.topbar \{ background: #0b2a22/);
    const init = await http(service.url, '/docs/static/swagger-initializer.js');
    assert.match(init.text, /data:image\/svg\+xml;base64,/, 'the project’s logo replaces Swagger’s');
  });

  it('documents the same document at /docs/json as at /openapi.json', async () => {
    assert.deepEqual((await http(service.url, '/docs/json')).json, doc);
  });

  it('has an example for every parameter, success and documented error of every endpoint', () => {
    const paths = Object.keys(doc.paths);
    assert.deepEqual(
      paths.filter((p) => !OPERATION_EXAMPLES[p]),
      [],
      'endpoints without examples in src/http/openapi/examples.ts',
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      const op = item.get;
      assert.ok(op, path);
      assert.match(op.description ?? '', /Example request[\s\S]*Typed client/, path);
      for (const param of op.parameters ?? [])
        assert.notEqual(param.example, undefined, `${path} ${param.name}`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (status === '304') continue; // Not Modified has no body
        const examples = (response.content?.['application/json'] ?? response.content?.['text/event-stream'])
          ?.examples;
        assert.ok(examples && Object.keys(examples).length > 0, `${path} ${status} has no example`);
        if (status !== '200') {
          for (const ex of Object.values(examples)) {
            assert.equal(
              (ex.value as { error: { status: number } }).error.status,
              Number(status),
              `${path} ${status}`,
            );
          }
        }
      }
    }
  });

  it('gives examples that match their response schemas', () => {
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    addFormats(ajv);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [status, response] of Object.entries(item.get?.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        // The components travel with the schema so its `#/components/schemas/…` references resolve.
        const validate = ajv.compile({ ...media.schema, components: doc.components });
        for (const [name, ex] of Object.entries(media.examples ?? {})) {
          assert.ok(validate(ex.value), `${path} ${status} ${name}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
  });

  it('shows requests that the service really answers', async () => {
    for (const [path, ex] of Object.entries(OPERATION_EXAMPLES)) {
      // A stream never ends; test/live/stream.test.ts speaks to it.
      if (ex.stream !== undefined) continue;
      // A day of the archive exists once the archiver has recorded it, which this test's service
      // never runs; test/archive/endpoints.test.ts asks it of an archive it filled.
      if (path === '/market/daily' || path === '/market/universe') continue;
      const res = await http(service.url, ex.request);
      assert.equal(res.status, 200, `${path}: GET ${ex.request}`);
    }
  });
});
