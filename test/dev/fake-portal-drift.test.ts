// The fake portal's drift control over real HTTP (POST /__fake/drift, /__fake/restore), as a test
// running the portal in another process would use it: the page loses a column or its tables, and
// gets them back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('fake portal drift control', () => {
  let portal: FakePortal;
  before(async () => {
    portal = await startFakePortal();
  });
  after(async () => {
    await portal.close();
  });

  async function control(path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const res = await request(portal.url + path, {
      method: 'POST',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, json: await res.body.json() };
  }

  async function page(path: string): Promise<string> {
    const res = await request(portal.url + path, {
      headers: {
        'user-agent': UA,
        'x-requested-with': 'XMLHttpRequest',
        'x-req-id': portal.token(),
        referer: 'https://dps.psx.com.pk/',
      },
    });
    assert.equal(res.statusCode, 200);
    return res.body.text();
  }

  const headers = (html: string): string[] =>
    [...html.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => (m[1] as string).trim());
  const firstRowCells = (html: string): number => {
    const body = html.slice(html.indexOf('<tbody'));
    const row = /<tr\b[^>]*>([\s\S]*?)<\/tr>/.exec(body)![1] as string;
    return (row.match(/<td\b/g) ?? []).length;
  };

  it('drops a column (its header and each row’s cell), then restores it', async () => {
    const before = await page('/market-watch');
    assert.ok(headers(before).includes('LDCP'));
    assert.equal(firstRowCells(before), headers(before).length);

    assert.equal((await control('/__fake/drift', { path: '/market-watch', dropColumn: 'ldcp' })).status, 200);
    const drifted = await page('/market-watch');
    assert.ok(!headers(drifted).includes('LDCP'));
    assert.equal(headers(drifted).length, headers(before).length - 1);
    assert.equal(firstRowCells(drifted), headers(drifted).length, 'the rows lost the same cell');
    assert.equal(await page('/screener'), await page('/screener'), 'other pages are untouched');
    assert.ok(headers(await page('/screener')).includes('SYMBOL'));

    assert.equal((await control('/__fake/restore', { path: '/market-watch' })).status, 200);
    assert.equal(await page('/market-watch'), before);
  });

  it('removes every table of a page, and restores all pages with an empty body', async () => {
    await control('/__fake/drift', { path: '/sector-summary/sectorwise', removeTables: true });
    await control('/__fake/drift', { path: '/indices/', dropColumn: 'IDX POINT' });
    assert.ok(!(await page('/sector-summary/sectorwise')).includes('<table'));
    assert.ok(
      !headers(await page('/indices/KSE100')).includes('IDX POINT'),
      'a path ending in / covers its pages',
    );
    assert.ok((await page('/indices')).includes('<table'), 'but not the path itself');
    assert.equal((await control('/__fake/restore')).status, 200);
    assert.ok((await page('/sector-summary/sectorwise')).includes('<table'));
    assert.ok(headers(await page('/indices/KSE100')).includes('IDX POINT'));
  });

  it('refuses a malformed rule with 400 and a reason', async () => {
    for (const [body, reason] of [
      [{ dropColumn: 'LDCP' }, /path must start with \//],
      [{ path: '/market-watch' }, /needs dropColumn, removeTables: true or unpacked: true/],
      [{ path: '/market-watch', removeTables: 'yes' }, /removeTables must be true or false/],
    ] as const) {
      const res = await control('/__fake/drift', body);
      assert.equal(res.status, 400);
      assert.match((res.json as { error: string }).error, reason);
    }
  });
});
