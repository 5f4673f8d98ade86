// Every list endpoint as RFC 4180 CSV, by query or by Accept; errors stay JSON.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError } from '../helpers/shape.ts';

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

/** A small RFC 4180 reader, enough to check what the service wrote. */
function parseCsv(text: string): string[][] {
  assert.ok(text.endsWith('\r\n'), 'CRLF line ends');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('CSV', () => {
  const lists: Array<[string, string]> = [
    ['/stocks', 'stocks.csv'],
    ['/stocks/ENGRO/historical', 'ENGRO-historical.csv'],
    ['/stocks/ENGRO/fundamentals', 'ENGRO-fundamentals.csv'],
    ['/indices', 'indices.csv'],
    ['/indices/KSE100', 'index-KSE100.csv'],
    ['/sectors', 'sectors.csv'],
    ['/sectors/0801/stocks', 'sector-0801.csv'],
    ['/screener', 'screener.csv'],
  ];
  for (const [path, filename] of lists) {
    it(`${path} as CSV: header row, one line per item, a file name`, async () => {
      const json = await http(svc.url, path);
      const res = await http(svc.url, `${path}?format=csv`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], `attachment; filename="${filename}"`);
      const rows = parseCsv(res.text);
      assert.equal(rows.length, json.json.data.length + 1);
      const header = rows[0]!;
      if (typeof json.json.data[0] === 'object') {
        for (const key of Object.keys(json.json.data[0])) assert.ok(header.includes(key), `column ${key}`);
      }
    });
  }

  it('writes values faithfully: numbers, nulls as empty, lists joined, quotes where needed', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical?format=csv');
    const rows = parseCsv(res.text);
    const header = rows[0]!;
    const json = (await http(svc.url, '/stocks/ENGRO/historical')).json.data as Array<
      Record<string, unknown>
    >;
    const bonus = json.findIndex((r) => r.date === portal.dataset.anomalies.bonusExDate);
    const line = rows[bonus + 1]!;
    assert.equal(line[header.indexOf('close')], String(json[bonus]!.close));
    assert.equal(line[header.indexOf('is_anomaly')], 'true');
    assert.equal(line[header.indexOf('anomaly_reasons')], 'beyond_price_limit');
    const sectors = parseCsv((await http(svc.url, '/sectors?format=csv')).text);
    const withAmpersand = sectors.find((r) => r[1]!.includes('&'));
    assert.ok(withAmpersand, 'a sector name with & survives');
  });

  it('answers CSV for Accept: text/csv, and JSON errors either way', async () => {
    const res = await http(svc.url, '/screener', { headers: { accept: 'text/csv' } });
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(res.headers.vary?.toLowerCase().includes('accept'), true);
    const missing = await http(svc.url, '/stocks/NOSUCH/historical?format=csv');
    assert.equal(missing.status, 404);
    assertError(missing.json, 404, 'not_found');
    const bad = await http(svc.url, '/screener?format=xml');
    assert.equal(bad.status, 422);
  });

  it('keeps the range and limit of historical', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical?format=csv&limit=5&order=desc');
    const rows = parseCsv(res.text);
    assert.equal(rows.length, 6);
    assert.equal(rows[1]![0], '2026-11-20');
  });

  it('compresses a large CSV as the client asks, with the same text', async () => {
    const plain = await http(svc.url, '/stocks/ENGRO/historical?format=csv');
    for (const [encoding, decode] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const res = await request(`${svc.url}/stocks/ENGRO/historical?format=csv`, {
        headers: { 'accept-encoding': encoding },
      });
      assert.equal(res.headers['content-encoding'], encoding);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(decode(Buffer.from(await res.body.arrayBuffer())).toString('utf8'), plain.text);
    }
    const refused = await request(`${svc.url}/stocks/ENGRO/historical?format=csv`, {
      headers: { 'accept-encoding': 'gzip;q=0, br;q=0' },
    });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(await refused.body.text(), plain.text);
  });
});
