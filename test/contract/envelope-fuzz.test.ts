// Every answer is in the envelope, whatever arrives: thousands of generated requests over raw TCP
// (so malformed request lines reach the server as sent) against the running service and the fake
// portal. For each: status < 500, exactly one of the two envelope shapes (or CSV when asked, or no
// body where HTTP has none), error.status equal to the HTTP status, and a documented code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { ERROR_CODES } from '../../src/errors.ts';
import { rawRequest, type RawResponse } from '../helpers/raw-http.ts';
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

const SYMBOLS = ['ENGRO', 'engro', 'HBL', '786', 'UBLP-ETF', 'BAFLTFC8', 'NOSUCH', 'A&B', '.X', ''];
const NAMES = ['KSE100', 'kse-100', 'KMIALLSHARE', 'NOPE', '0801', 'automobile-assembler', ''];

const segment = fc.oneof(
  fc.constantFrom(...SYMBOLS),
  fc.constantFrom(...NAMES),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  // Malformed percent-escapes: FST_ERR_BAD_URL.
  fc.constantFrom('%ZZ', '%', '%4', 'a%zz', '%E0%A4%A'),
  // Over the router's and the schemas' length limits.
  fc.integer({ min: 26, max: 1500 }).map((n) => 'A'.repeat(n)),
);

const path = fc.oneof(
  fc.constantFrom(
    '/health',
    '/stocks',
    '/screener',
    '/sectors',
    '/indices',
    '/market/summary',
    '/openapi.json',
    '/nowhere',
  ),
  segment.map((s) => `/stocks/${s}/quote`),
  segment.map((s) => `/stocks/${s}/historical`),
  segment.map((s) => `/stocks/${s}/fundamentals`),
  segment.map((s) => `/indices/${s}`),
  segment.map((s) => `/sectors/${s}/stocks`),
);

const queryPair = fc.oneof(
  fc.tuple(
    fc.constantFrom('start', 'end'),
    fc.constantFrom('2026-01-05', '2026-13-01', '2026-02-30', 'x', ''),
  ),
  fc.tuple(fc.constant('order'), fc.constantFrom('asc', 'desc', 'ASC', 'up', '')),
  fc.tuple(fc.constant('limit'), fc.constantFrom('1', '10', '0', '-1', 'x', '100001')),
  fc.tuple(fc.constant('format'), fc.constantFrom('json', 'csv', 'xml', '')),
  fc.tuple(fc.constant('index'), fc.constantFrom('KSE100', 'NOPE', '')),
  fc.tuple(fc.constant('ready'), fc.constantFrom('1', '0')),
  fc.tuple(
    fc.constantFrom('from', 'to', 'symbol', '__proto__', 'x'),
    fc.string({ maxLength: 8 }).map(encodeURIComponent),
  ),
);

const query = fc
  .array(queryPair, { maxLength: 3 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('GET') },
  { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') },
  // Node's parser refuses these: lower case, unknown tokens.
  { weight: 1, arbitrary: fc.constantFrom('get', 'Get', 'FOO', 'G ET') },
);

const headerSet = fc.record(
  {
    accept: fc.constantFrom(
      'application/json',
      'text/csv',
      'TEXT/CSV',
      'text/csv;q=0',
      'text/csv;q=0, application/json',
      '*/*',
      'text/html',
      'text/csv;q=0.5, application/json;q=0.9',
    ),
    'access-control-request-method': fc.constantFrom('GET', 'POST'),
    origin: fc.constantFrom('https://example.org', 'null'),
    'if-none-match': fc.constantFrom('*', '"nope"', 'W/"x"'),
    'if-modified-since': fc.constantFrom(
      'Thu, 01 Jan 2099 00:00:00 GMT',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      'garbage',
    ),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'x/y'),
  },
  { requiredKeys: [] },
);

/** Request-line and header damage Node's parser refuses. */
const damage = fc.oneof(
  { weight: 8, arbitrary: fc.constant('none' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'space-in-path',
      'non-ascii-path',
      'huge-header',
      'bad-header-name',
      'bare-lf',
    ),
  },
);

interface Generated {
  method: string;
  target: string;
  headers: Record<string, string>;
  damage: string;
  body: string;
}

const requestArb: fc.Arbitrary<Generated> = fc
  .record({ method, path, query, headers: headerSet, damage, withBody: fc.boolean() })
  .map(({ method, path, query, headers, damage, withBody }) => ({
    method,
    target: path + query,
    headers,
    damage,
    body: withBody && method !== 'GET' && method !== 'HEAD' ? '{"a":1}' : '',
  }));

function serialise(r: Generated): Buffer {
  let target = r.target;
  if (r.damage === 'space-in-path') target = target.replace('/', '/ a ');
  const head: string[] = [`${r.method} ${target} HTTP/1.1`, 'host: localhost', 'connection: close'];
  for (const [k, v] of Object.entries(r.headers)) head.push(`${k}: ${v}`);
  if (r.damage === 'huge-header') head.push(`x-filler: ${'a'.repeat(20_000)}`);
  if (r.damage === 'bad-header-name') head.push('bad header: x');
  if (r.body !== '') head.push(`content-length: ${Buffer.byteLength(r.body)}`);
  const eol = r.damage === 'bare-lf' ? '\n' : '\r\n';
  const bytes = Buffer.from(head.join(eol) + eol + eol + r.body, 'latin1');
  if (r.damage !== 'non-ascii-path') return bytes;
  // A raw UTF-8 é inside the request target.
  const at = bytes.indexOf(' ') + 2;
  return Buffer.concat([bytes.subarray(0, at), Buffer.from('é', 'utf8'), bytes.subarray(at)]);
}

function asksCsv(r: Generated): boolean {
  return /format=csv/.test(r.target) || /text\/csv(?!;q=0)/i.test(r.headers.accept ?? '');
}

function assertEnvelope(r: Generated, res: RawResponse): void {
  const label = `${r.method} ${r.target} [${r.damage}] → ${res.status} ${res.body.toString().slice(0, 200)}`;
  assert.ok(res.status < 500, label);
  // A request Node's parser refused gets the envelope whatever its method said.
  const parsed = r.damage === 'none' && r.method === r.method.toUpperCase() && !r.method.includes(' ');
  const noBody = (parsed && r.method === 'HEAD') || res.status === 304 || res.status === 204;
  if (noBody) {
    assert.equal(res.body.length, 0, label);
    return;
  }
  const type = res.headers['content-type'] ?? '';
  if (res.status < 300 && type.startsWith('text/csv')) {
    assert.ok(asksCsv(r), `CSV only when asked: ${label}`);
    assert.ok(res.body.toString().endsWith('\r\n'), label);
    return;
  }
  if (r.target.startsWith('/openapi.json') && res.status === 200) return;
  assert.match(type, /^application\/json/, label);
  const body = JSON.parse(res.body.toString()) as Record<string, unknown>;
  const keys = Object.keys(body).sort().join(',');
  if (res.status < 400) {
    assert.equal(keys, 'data,meta', label);
    return;
  }
  assert.equal(keys, 'error', label);
  const error = body.error as Record<string, unknown>;
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'status'], label);
  assert.equal(error.status, res.status, label);
  assert.ok(ERROR_CODES.includes(error.code as string), `undocumented code: ${label}`);
  assert.equal(typeof error.message, 'string', label);
  // A message repeats at most a short, escaped prefix of the request.
  assert.ok((error.message as string).length <= 300, `long message: ${label}`);
  assert.ok(![...(error.message as string)].some((ch) => ch.charCodeAt(0) < 0x20), label);
}

describe('every answer is in the envelope (property, raw sockets)', () => {
  it('holds for thousands of generated requests of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        assertEnvelope(r, await rawRequest(svc.url, serialise(r)));
      }),
      { numRuns: 2500, seed: 13 },
    );
  });

  it('answers each named edge as the issue describes', async () => {
    const badUrl = await rawRequest(
      svc.url,
      'GET /stocks/%ZZ/quote HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
    );
    assert.equal(badUrl.status, 400);
    assert.equal(JSON.parse(badUrl.body.toString()).error.code, 'bad_request');
    assert.ok(!badUrl.body.toString().includes('%ZZ'), 'the path is not echoed');

    const long = await rawRequest(
      svc.url,
      `GET /stocks/${'A'.repeat(150)}/quote HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
    );
    assert.equal(long.status, 422);
    assert.equal(JSON.parse(long.body.toString()).error.code, 'bad_request');
    assert.ok(!long.body.toString().includes('A'.repeat(40)), 'the parameter is not echoed');

    const lower = await rawRequest(svc.url, 'get /health HTTP/1.1\r\nhost: x\r\n\r\n');
    assert.equal(lower.status, 400);
    assert.equal(lower.headers.connection, 'close');
    assert.equal(JSON.parse(lower.body.toString()).error.code, 'bad_request');

    const huge = await rawRequest(
      svc.url,
      `GET /health HTTP/1.1\r\nhost: x\r\nx-a: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(huge.status, 431);
    assert.equal(JSON.parse(huge.body.toString()).error.code, 'headers_too_large');

    const options = await rawRequest(
      svc.url,
      'OPTIONS /stocks HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
    );
    assert.equal(options.status, 400);
    assert.match(options.headers['content-type']!, /^application\/json/);
    assert.equal(JSON.parse(options.body.toString()).error.code, 'bad_request');

    const preflight = await rawRequest(
      svc.url,
      'OPTIONS /stocks HTTP/1.1\r\nhost: x\r\norigin: https://example.org\r\naccess-control-request-method: GET\r\nconnection: close\r\n\r\n',
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
  });
});
