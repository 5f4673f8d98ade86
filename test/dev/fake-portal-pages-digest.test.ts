// The fake portal's HTTP answers are a pure function of its options and of the requests: pages,
// gate refusals, injected failures and the control API give the same bytes whatever shape the
// server's code takes. The digest was taken from the server code before it was split into its
// pieces (routes, gate, failures, page cache, control API); a change that means to alter what the
// portal serves must say so by updating it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { request } from 'undici';
import { startFakePortal } from '../../dev/fake-portal/server.ts';

const EXPECTED = '73e09121603eb44135ed80809ad1de3aeec94382cf7f571d1f9447a2e5c53c88';

test('the fake portal answers a fixed sequence of requests byte-identically to its recorded digest', async () => {
  const portal = await startFakePortal({ extraSymbols: 5 });
  const hash = createHash('sha256');
  const record = async (
    path: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
  ): Promise<void> => {
    const res = await request(`${portal.url}${path}`, init);
    hash.update(`${init.method ?? 'GET'} ${path} ${res.statusCode} ${String(res.headers['content-type'])}\n`);
    hash.update(await res.body.text());
  };
  try {
    const headers = {
      'user-agent': 'Mozilla/5.0',
      'x-requested-with': 'XMLHttpRequest',
      'x-req-id': portal.token(),
    };
    // prettier-ignore
    const pages = ['/', '/symbols', '/screener', '/market-watch', '/indices', '/indices/KSE100', '/indices/NOPE',
      '/sector-summary/sectorwise', '/company/ENGRO', '/company/NOPE', '/company/reports/ENGRO',
      '/timeseries/int/HBL', '/timeseries/eod/KSE100', '/timeseries/eod/ENGRO', '/nosuch', '/announcements'];
    for (const path of pages) await record(path, { headers });
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
    for (const [path, body] of [
      ['/historical', 'symbol=ENGRO'],
      ['/company/payouts', 'symbol=ENGRO'],
      ['/historical', 'symbol=NOPE'],
    ] as const)
      await record(path, { method: 'POST', headers: form, body });
    // The gate, each refusal in turn.
    const refused: Record<string, string>[] = [
      {},
      { 'user-agent': 'Mozilla/5.0' },
      { ...headers, origin: 'https://elsewhere.example' },
      { ...headers, 'x-req-id': 'not-the-token' },
    ];
    for (const h of refused) await record('/screener', { headers: h });
    // Failure rules, each used once.
    portal.fail({ mode: 'status', status: 502, path: '/screener', times: 1 });
    portal.fail({ mode: 'garbage', path: '/indices', times: 1 });
    portal.fail({ mode: 'refuse-token', path: '/market-watch', times: 1 });
    for (const path of ['/screener', '/screener', '/indices', '/indices', '/market-watch', '/'])
      await record(path, { headers });
    // The control API.
    for (const [method, path, body] of [
      ['GET', '/__fake/counts', undefined],
      ['POST', '/__fake/fail', '{"mode":"slow","delayMs":1,"times":1}'],
      ['POST', '/__fake/fail', '{"mode":"nope"}'],
      ['POST', '/__fake/tick', '{"symbols":["HBL"]}'],
      ['GET', '/__fake/counts', undefined],
      ['POST', '/__fake/clear', undefined],
      ['GET', '/__fake/token', undefined],
      ['GET', '/__fake/nope', undefined],
    ] as const)
      await record(path, { method, body });
    await record('/market-watch', { headers });
  } finally {
    await portal.close();
  }
  assert.equal(hash.digest('hex'), EXPECTED);
});
