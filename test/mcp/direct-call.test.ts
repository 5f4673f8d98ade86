// A plain tools/call is answered by the front door (src/mcp/direct-call.ts); anything else goes
// through Fastify and the SDK's protocol layer. Over real HTTP, the same call both ways must give
// the same bytes (result, structured content, text, headers), for a cached quote, a tool error and
// a refusal by the request limit; and a browser's preflight for /mcp may POST with MCP's headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { startService, type RunningService } from '../helpers/service.ts';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

async function post(base: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(`${base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { status: res.statusCode, headers: out, text: await res.body.text() };
}

function call(id: number | string, name: string, args: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

// A body over the door's reading size goes to Fastify unread; the same JSON, padded.
const padded = (message: object): string => `${JSON.stringify(message)}${' '.repeat(20 * 1024)}`;
// A message with `_meta` is read by the door and left to the route.
const withMeta = (message: Record<string, unknown>): string =>
  JSON.stringify({
    ...message,
    params: { ...(message.params as object), _meta: { progressToken: 'p' } },
  });

/** The headers both ways must agree on (the id and date differ per request). */
function comparable(a: Answer): Record<string, string> {
  const { 'x-request-id': _id, date: _date, ...rest } = a.headers;
  return rest;
}

describe('MCP tools/call answered by the front door', () => {
  let portal: FakePortal;
  let svc: RunningService;
  const logLines: string[] = [];
  const answeredByDoor = (id: string): boolean =>
    logLines.some((l) => l.includes(`"reqId":"${id}"`) && l.includes('answered before routing'));

  before(async () => {
    portal = await startFakePortal();
    svc = await startService(portal.url, { LOG_LEVEL: 'debug' }, { logLines });
  });
  after(async () => {
    await svc.close();
    await portal.close();
  });

  it('answers a cached quote with the same bytes as the route, and a tool error too', async () => {
    // The miss (through whichever path), then cached calls each way.
    await post(svc.url, JSON.stringify(call(0, 'get_quote', { symbol: 'ENGRO' })));
    for (const [name, args] of [
      ['get_quote', { symbol: 'ENGRO' }],
      ['get_quote', { symbol: 'engro' }],
      ['get_quote', { symbol: 'NOSUCH' }],
      ['get_quote', { symbol: 'ENGRO', extra: 1 }],
      ['get_history', { symbol: 'ENGRO', limit: 5 }],
    ] as const) {
      const message = call(7, name, args);
      const direct = await post(svc.url, JSON.stringify(message), { 'x-request-id': `direct-${name}` });
      const unread = await post(svc.url, padded(message), { 'x-request-id': `unread-${name}` });
      const left = await post(svc.url, withMeta(message), { 'x-request-id': `left-${name}` });
      assert.equal(direct.status, 200, direct.text);
      assert.ok(answeredByDoor(`direct-${name}`), `${name} ${JSON.stringify(args)}: answered by the door`);
      assert.ok(!answeredByDoor(`unread-${name}`) && !answeredByDoor(`left-${name}`));
      for (const slow of [unread, left]) {
        assert.equal(direct.text, slow.text, `${name} ${JSON.stringify(args)}`);
        assert.deepEqual(comparable(direct), comparable(slow));
      }
      assert.equal(direct.headers['x-request-id'], `direct-${name}`);
      assert.equal(direct.headers['access-control-allow-origin'], '*');
      assert.equal(direct.headers['cache-control'], 'no-store');
    }
    const quote = JSON.parse(
      (await post(svc.url, JSON.stringify(call('q', 'get_quote', { symbol: 'ENGRO' })))).text,
    );
    assert.equal(quote.id, 'q');
    assert.equal(quote.result.structuredContent.data.symbol, 'ENGRO');
    assert.match(quote.result.content[0].text, /ENGRO/);
    const error = JSON.parse(
      (await post(svc.url, JSON.stringify(call(1, 'get_quote', { symbol: 'NOSUCH' })))).text,
    );
    assert.equal(error.result.isError, true);
    assert.match(error.result.content[0].text, /not_found \(404\)/);
  });

  it('leaves to the route what only the route answers: an unknown tool, a batch, a bad Accept', async () => {
    const unknown = await post(svc.url, JSON.stringify(call(2, 'no_such_tool', {})), { 'x-request-id': 'u' });
    assert.equal(JSON.parse(unknown.text).error.code, -32602);
    const batch = await post(svc.url, JSON.stringify([call(3, 'get_quote', { symbol: 'ENGRO' })]), {
      'x-request-id': 'b',
    });
    assert.equal(JSON.parse(batch.text)[0].result.structuredContent.data.symbol, 'ENGRO');
    const accept = await post(svc.url, JSON.stringify(call(4, 'get_quote', { symbol: 'ENGRO' })), {
      accept: 'application/json',
      'x-request-id': 'a',
    });
    assert.equal(accept.status, 406);
    for (const id of ['u', 'b', 'a']) assert.ok(!answeredByDoor(id), id);
  });

  it('counts each call in the request limit and refuses past it with a tool error, both ways', async () => {
    const limited = await startService(portal.url, { RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const message = call(5, 'get_quote', { symbol: 'ENGRO' });
      const first = await post(limited.url, JSON.stringify(message));
      assert.equal(first.headers['ratelimit-remaining'], '1');
      const second = await post(limited.url, JSON.stringify(message));
      assert.equal(second.headers['ratelimit-remaining'], '0');
      assert.notEqual(JSON.parse(second.text).result.isError, true);
      const direct = await post(limited.url, JSON.stringify(message));
      const slow = await post(limited.url, padded(message));
      for (const refused of [direct, slow]) {
        assert.equal(refused.status, 200);
        assert.equal(refused.headers['ratelimit-remaining'], '0');
        const body = JSON.parse(refused.text);
        assert.equal(body.result.isError, true);
        assert.match(body.result.content[0].text, /^Error rate_limited \(429\)/);
      }
      assert.equal(direct.text, slow.text);
    } finally {
      await limited.close();
    }
  });

  it('lets a browser POST to /mcp with its headers after a preflight, and keeps the API to GET and HEAD', async () => {
    const preflight = await request(`${svc.url}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id',
      },
    });
    await preflight.body.text();
    assert.equal(preflight.statusCode, 204);
    const methods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/);
    for (const m of ['POST', 'GET', 'DELETE']) assert.ok(methods.includes(m), `${m} in ${methods.join(',')}`);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const h of ['content-type', 'mcp-protocol-version', 'mcp-session-id'])
      assert.ok(allowed.includes(h), h);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');

    const api = await request(`${svc.url}/stocks/ENGRO/quote`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    await api.body.text();
    assert.equal(api.statusCode, 204);
    assert.equal(api.headers['access-control-allow-methods'], 'GET, HEAD');
  });
});
