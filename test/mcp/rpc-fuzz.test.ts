// POST /mcp with whatever arrives: bodies that are not JSON, not JSON-RPC, the wrong version, huge
// batches, unknown methods, wrong media types, oversized bodies, other methods, foreign hosts. Each
// gets a JSON-RPC answer (an error with id null for a request that cannot be read) and a status
// below 500, promptly: never a 500, never a hang.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { MCP_MAX_BATCH, MCP_MAX_BODY_BYTES } from '../../src/mcp/route.ts';
import { startService, type RunningService } from '../helpers/service.ts';

let portal: FakePortal;
let svc: RunningService;

before(async () => {
  portal = await startFakePortal();
  svc = await startService(portal.url);
});
after(async () => {
  await svc.close();
  await portal.close();
});

const ACCEPT = 'application/json, text/event-stream';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are inspected freely
  json: any;
}

async function post(
  body: string,
  headers: Record<string, string> = {},
  method: 'POST' | 'GET' | 'DELETE' | 'PUT' = 'POST',
): Promise<Answer> {
  const res = await request(`${svc.url}/mcp`, {
    method,
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: method === 'POST' || method === 'PUT' ? body : undefined,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    assert.fail(`status ${res.statusCode}: not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.statusCode, headers: res.headers, json };
}

function assertRpcError(a: Answer, status: number, code: number): void {
  assert.equal(a.status, status, JSON.stringify(a.json));
  assert.equal(a.json.jsonrpc, '2.0');
  assert.equal(a.json.id, null);
  assert.equal(a.json.error.code, code, JSON.stringify(a.json));
  assert.equal(typeof a.json.error.message, 'string');
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('POST /mcp with malformed JSON-RPC', () => {
  it('answers a body that is not JSON with a parse error', async () => {
    for (const body of ['hello', '{', '', '{"jsonrpc":"2.0",', '\u0000']) {
      assertRpcError(await post(body), 400, -32700);
    }
  });

  it('answers a message of the wrong JSON-RPC version or shape with a JSON-RPC error', async () => {
    for (const message of [
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 42 },
      42,
      'ping',
      null,
    ]) {
      const a = await post(JSON.stringify(message));
      assert.equal(a.status, 400, JSON.stringify(message));
      assert.equal(a.json.jsonrpc, '2.0');
      assert.ok(a.json.error.code <= -32000, JSON.stringify(a.json));
    }
  });

  it('answers an unknown method with method not found', async () => {
    const a = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }));
    assert.equal(a.status, 200);
    assert.equal(a.json.id, 7);
    assert.equal(a.json.error.code, -32601);
  });

  it('answers a batch up to the bound, and refuses a larger one', async () => {
    const batch = Array.from({ length: MCP_MAX_BATCH }, (_, i) => ping(i + 1));
    const ok = await post(JSON.stringify(batch));
    assert.equal(ok.status, 200);
    assert.equal(ok.json.length, MCP_MAX_BATCH);
    assertRpcError(await post(JSON.stringify([...batch, ping(0)])), 400, -32600);
    assertRpcError(await post('[]'), 400, -32600);
    const huge = Array.from({ length: 5_000 }, (_, i) => ping(i));
    assertRpcError(await post(JSON.stringify(huge)), 400, -32600);
  });

  it('refuses an oversized body (413) and a body that is not JSON by media type (415)', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(MCP_MAX_BODY_BYTES) },
    });
    const tooLarge = await post(big);
    assertRpcError(tooLarge, 413, -32000);
    assert.equal(tooLarge.json.error.data.code, 'payload_too_large');
    const wrongType = await post(JSON.stringify(ping(1)), { 'content-type': 'text/plain' });
    assertRpcError(wrongType, 415, -32000);
    assert.equal(wrongType.json.error.data.code, 'unsupported_media_type');
  });

  it('answers GET, DELETE and PUT with 405 and Allow: POST (stateless)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT'] as const) {
      const a = await post('', {}, method);
      assertRpcError(a, 405, -32000);
      assert.equal(a.headers.allow, 'POST');
    }
  });

  it('refuses a foreign Host or Origin (DNS-rebinding protection)', async () => {
    const host = await post(JSON.stringify(ping(1)), { host: 'evil.example' });
    assertRpcError(host, 400, -32000);
    assert.match(host.json.error.message, /MCP_ALLOWED_HOSTS/);
    const origin = await post(JSON.stringify(ping(1)), { origin: 'https://evil.example' });
    assertRpcError(origin, 400, -32000);
    const local = await post(JSON.stringify(ping(1)), { origin: 'http://localhost:3000' });
    assert.equal(local.status, 200);
  });

  it('never answers 500 or hangs, whatever JSON or text arrives', async () => {
    const anyMessage = fc.oneof(
      fc.json(),
      fc.string({ maxLength: 200 }),
      fc
        .record({
          jsonrpc: fc.constantFrom('2.0', '1.0', 2),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)),
          method: fc.constantFrom(
            'tools/call',
            'tools/list',
            'initialize',
            'resources/read',
            'prompts/get',
            'x',
          ),
          params: fc.oneof(
            fc.constant(undefined),
            fc.jsonValue(),
            fc.record({
              name: fc.constantFrom('get_quote', 'get_history', 'screen_stocks', 'nope'),
              arguments: fc.dictionary(fc.constantFrom('symbol', 'limit', 'start', 'index'), fc.jsonValue()),
            }),
          ),
        })
        .map((m) => JSON.stringify(m)),
    );
    await fc.assert(
      fc.asyncProperty(anyMessage, async (body) => {
        const a = await post(body);
        assert.ok(
          a.status < 500,
          `${a.status} for ${body.slice(0, 200)}: ${JSON.stringify(a.json).slice(0, 200)}`,
        );
        const answers = Array.isArray(a.json) ? a.json : [a.json];
        for (const answer of answers)
          assert.equal(answer?.jsonrpc, '2.0', JSON.stringify(a.json).slice(0, 200));
      }),
      { numRuns: 300 },
    );
  });
});
