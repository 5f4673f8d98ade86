// Requests a person can correct: each wrong request is refused with a message that says what to
// send instead, and HTTP's own negotiation and conditional requests mean what RFC 9110 says.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { assertError, assertSingleEnvelope } from '../helpers/shape.ts';

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

describe('requests a person can correct', () => {
  it('refuses an unknown query parameter, naming it and the ones the endpoint takes', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical?from=2025-06-01');
    assert.equal(res.status, 400);
    assertError(res.json, 400, 'bad_request');
    assert.equal(
      res.json.error.message,
      'unknown query parameter "from"; this endpoint takes start, end, order, limit, adjusted, dividends, format',
    );
    const quote = await http(svc.url, '/stocks/ENGRO/quote?fields=price');
    assert.equal(quote.status, 400);
    assert.match(quote.json.error.message, /unknown query parameter "fields"; this endpoint takes format/);
  });

  it('names the accepted values of an enumeration and the date form', async () => {
    const order = await http(svc.url, '/stocks/ENGRO/historical?order=up');
    assert.equal(order.status, 422);
    assertError(order.json, 422, 'bad_request');
    assert.equal(order.json.error.message, 'order must be asc or desc (got "up")');

    const format = await http(svc.url, '/screener?format=xml');
    assert.equal(format.json.error.message, 'format must be json, csv or parquet (got "xml")');

    const date = await http(svc.url, '/stocks/ENGRO/historical?start=01-06-2025');
    assert.equal(date.status, 422);
    assert.match(date.json.error.message, /^start must be a calendar date as YYYY-MM-DD/);
  });

  it('refuses an empty index filter instead of looking up an index named ""', async () => {
    const res = await http(svc.url, '/stocks?index=');
    assert.equal(res.status, 400);
    assertError(res.json, 400, 'bad_request', 'index must not be empty');
  });

  it('gives a single object as a one-row CSV when asked', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/quote?format=csv');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type']!, /^text\/csv/);
    const [header, row, end] = res.text.split('\r\n');
    assert.ok(header!.startsWith('symbol,name,sector_code,listed_in,price'), header);
    assert.ok(row!.startsWith('ENGRO,'), row);
    assert.equal(end, '');
  });

  it('reads Accept as RFC 9110 does: q=0 refuses CSV, media types are case-insensitive', async () => {
    const refused = await http(svc.url, '/sectors', {
      headers: { accept: 'text/csv;q=0, application/json' },
    });
    assert.match(refused.headers['content-type']!, /^application\/json/);
    const onlyRefused = await http(svc.url, '/sectors', { headers: { accept: 'text/csv;q=0' } });
    assert.match(onlyRefused.headers['content-type']!, /^application\/json/);
    const upper = await http(svc.url, '/sectors', { headers: { accept: 'TEXT/CSV' } });
    assert.match(upper.headers['content-type']!, /^text\/csv/);
    const preferred = await http(svc.url, '/sectors', {
      headers: { accept: 'application/json;q=0.5, text/csv' },
    });
    assert.match(preferred.headers['content-type']!, /^text\/csv/);
  });

  it('keeps the header row of an empty list in CSV', async () => {
    const res = await http(svc.url, '/stocks/ENGRO/historical?start=2099-01-01&format=csv');
    assert.equal(res.status, 200);
    assert.equal(res.text, 'date,open,high,low,close,volume,is_anomaly,anomaly_reasons\r\n');
  });

  it('answers If-Modified-Since with 304 when nothing changed, and If-None-Match decides first', async () => {
    const first = await http(svc.url, '/screener');
    const lastModified = first.headers['last-modified']!;
    assert.ok(lastModified);
    const same = await http(svc.url, '/screener', { headers: { 'if-modified-since': lastModified } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const changed = await http(svc.url, '/screener', { headers: { 'if-modified-since': earlier } });
    assert.equal(changed.status, 200);
    const mismatch = await http(svc.url, '/screener', {
      headers: { 'if-modified-since': lastModified, 'if-none-match': '"other"' },
    });
    assert.equal(mismatch.status, 200, 'If-None-Match, when present, decides alone');
    assertSingleEnvelope((await http(svc.url, '/market/summary')).json);
  });
});
