// The daily closing file: fetched over real HTTP from the fake portal, decoded from both containers,
// and parsed into typed rows; a body in neither container is a parse failure, never an empty day.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { DELISTED, disagreementDay, FILE_QUIRKS, zipOne } from '../../dev/fake-portal/daily-files.ts';
import { ExchangeClient } from '../../src/exchange/client.ts';
import { ExchangeUnavailableError, UpstreamDataError } from '../../src/errors.ts';
import { collectFields } from '../../src/exchange/parsers/columns.ts';
import { parseDailyFile, parseDailyFileBody } from '../../src/exchange/parsers/daily-file.ts';

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let portal: FakePortal;
let client: ExchangeClient;

before(async () => {
  portal = await startFakePortal();
  client = new ExchangeClient({
    baseUrl: portal.url,
    connectTimeoutMs: 2000,
    requestTimeoutMs: 10_000,
    maxRetries: 0,
    retryBaseMs: 10,
    tokenMaxAgeMs: 60_000,
    cooldownAfter429Ms: 60_000,
    now: () => Date.now(),
  });
});
after(async () => {
  await client.close();
  await portal.close();
});

async function fetchRows(date: string) {
  const got = await client.fetchDailyFile(date);
  assert.ok(got.found, `a file for ${date}`);
  return { container: got.container, file: got.file };
}

describe('daily closing files over HTTP', () => {
  it('reads a 2015 file (gzip): equities with sector codes, a delisted symbol, LDCPs', async () => {
    const { container, file } = await fetchRows('2015-06-15');
    assert.equal(container, 'gzip');
    assert.equal(file.date, '2015-06-15');
    assert.deepEqual(file.skipped, []);
    const dltx = file.rows.find((r) => r.symbol === 'DLTX');
    assert.ok(dltx, 'the delisted DLTX traded in 2015');
    assert.equal(dltx.kind, 'equity');
    assert.equal(dltx.sectorCode, DELISTED[0]!.sector);
    // The planted tiny trade: the close (= LDCP) lies below the day's low, and is kept as printed.
    assert.equal(dltx.close, dltx.ldcp);
    assert.ok(dltx.close! < dltx.low!, 'close outside [low, high] kept as printed');
    assert.equal(dltx.volume, 300);
    const kse30 = file.rows.find((r) => r.kind === 'index_futures');
    assert.equal(kse30?.symbol, 'KSE30-JUN');
    assert.equal(kse30?.contractMonth, '2015-06');
  });

  it('reads a ZIP file: futures (deliverable, cash-settled, B series), debt, markers taken off names', async () => {
    const { container, file } = await fetchRows(portal.dataset.asOfDate);
    assert.equal(container, 'zip');
    const bySymbol = new Map(file.rows.map((r) => [r.symbol, r]));
    const hbl = bySymbol.get('HBL');
    assert.equal(hbl?.marker, 'XD');
    assert.ok(!hbl?.name.endsWith('XD'), `marker off the name: ${hbl?.name}`);
    assert.equal(bySymbol.get('UBL')?.marker, 'XB');
    assert.equal(bySymbol.get('MCB')?.marker, null);
    const fut = bySymbol.get('HBL-NOV');
    assert.deepEqual(
      [fut?.kind, fut?.sectorCode, fut?.underlying, fut?.contractMonth, fut?.cashSettled, fut?.series],
      ['futures', '0040', 'HBL', '2026-11', false, null],
    );
    const cash = bySymbol.get('HBL-CNOV');
    assert.deepEqual([cash?.underlying, cash?.cashSettled], ['HBL', true]);
    assert.equal(bySymbol.get('HBL-NOVB')?.series, 'B');
    const untraded = bySymbol.get(`${FILE_QUIRKS.untradedContract}NOV`);
    assert.deepEqual(
      [untraded?.open, untraded?.high, untraded?.low, untraded?.volume],
      [null, null, null, 0],
    );
    assert.ok(
      untraded?.close !== null && untraded?.ldcp !== null,
      'an untraded contract keeps its close and LDCP',
    );
    const debt = bySymbol.get(FILE_QUIRKS.debt);
    assert.deepEqual([debt?.kind, debt?.volume], ['debt', 4_000_005_000]);
    assert.ok(!bySymbol.has('DLTX'), 'a delisted symbol is not in a file after its last day');
  });

  it('the file disagrees with the history page on the planted bar', async () => {
    const d = disagreementDay(portal.dataset);
    const { file } = await fetchRows(d.date);
    const row = file.rows.find((r) => r.symbol === d.symbol)!;
    const page = portal.dataset.history(d.symbol).find((r) => r.date === d.date)!;
    assert.equal(Math.round((row.close! - page.close!) * 100) / 100, d.delta);
  });

  it('a weekend, a holiday and a day before 2013-11-04 are the 404 page: no session', async () => {
    for (const date of ['2026-11-21', '2016-03-23', '2013-11-01']) {
      assert.deepEqual(await client.fetchDailyFile(date), { found: false }, date);
    }
  });

  it('the portal refuses a download without its Referer (403) and the client sends it', async () => {
    const res = await request(`${portal.url}/download/mkt_summary/2020-01-06.Z`, {
      headers: { 'user-agent': UA },
    });
    await res.body.dump();
    assert.equal(res.statusCode, 403);
    assert.equal(portal.counts().rejected.referer, 1);
    const got = await client.fetchDailyFile('2020-01-06');
    assert.ok(got.found);
  });

  it('records the daily-file kind for the drift alarm: ok, changed with the field, failing on a 4xx', async () => {
    const health = () => client.health.get('daily-file');
    const got = await client.fetchDailyFile('2020-01-07');
    assert.ok(got.found);
    assert.deepEqual([got.fields.expected.length, got.fields.missing], [12, []]);
    assert.equal(health().state, 'ok');
    const lastOk = health().lastOk;

    // The no-session page (a weekend) and a portal answering 503 say nothing about the layout.
    assert.deepEqual(await client.fetchDailyFile('2020-01-11'), { found: false });
    portal.fail({ mode: 'status', status: 503, path: '/download/', times: 1 });
    await assert.rejects(client.fetchDailyFile('2020-01-08'), ExchangeUnavailableError);
    assert.equal(health().state, 'ok');

    // LDCP dropped from the end of every line: the trailing empty fields read as no LDCP anywhere.
    portal.drift({ path: '/download/mkt_summary/', dropColumn: 'LDCP' });
    await assert.rejects(client.fetchDailyFile('2020-01-08'), /"ldcp" empty on every line/);
    assert.equal(health().state, 'changed');
    assert.deepEqual(health().missingFields, ['ldcp']);
    assert.equal(health().lastOk, lastOk);
    portal.restore();

    // A 4xx where the file should be (not the no-session page) is failing.
    portal.fail({ mode: 'status', status: 410, path: '/download/', times: 1 });
    await assert.rejects(client.fetchDailyFile('2020-01-08'), UpstreamDataError);
    assert.equal(health().state, 'failing');
    assert.match(health().detail ?? '', /answered 410 for the daily file of 2020-01-08/);

    assert.ok((await client.fetchDailyFile('2020-01-08')).found);
    assert.equal(health().state, 'ok');
  });
});

describe('decodeDailyFile / parseDailyFile', () => {
  const text =
    '03MAR2014|ABCX|0813|Abc Textile Ltd|21.0|21.5|20.8|21.35|65265|21.1|||\r\n' +
    '03MAR2014|SOMI|813|Some Ins.XD|1,010.0|1,020|1,000|1,015.5|1,200|1,001|||\r\n' +
    '03MAR2014|OTHR|0813|Other Ins. LtdXR|10.0|10|10|10|0|10|||\r\n';

  it('reads both containers to the same rows; sector codes are 4-digit strings', () => {
    const a = parseDailyFileBody(gzipSync(Buffer.from(text)));
    const b = parseDailyFileBody(zipOne('closing11.lis', Buffer.from(text)));
    assert.deepEqual(a, b);
    assert.equal(a.date, '2014-03-03');
    const somi = a.rows[1]!;
    assert.deepEqual(
      [somi.sectorCode, somi.name, somi.marker, somi.open, somi.volume],
      ['0813', 'Some Ins.', 'XD', 1010, 1200],
    );
    assert.deepEqual([a.rows[2]!.name, a.rows[2]!.marker], ['Other Ins. Ltd', 'XR']);
  });

  it('reads the layout a public project documents (31DEC2021 OGDC line)', () => {
    // Seen in a public project's notes on the files (a line, not a whole file: no real file was found).
    const f = parseDailyFile(
      '31DEC2021|OGDC|0820|Oil & Gas Dev.|84.20|87.30|84.15|86.20|3368560|84.94|||\r\n',
    );
    assert.deepEqual(
      [f.date, f.rows[0]!.symbol, f.rows[0]!.name, f.rows[0]!.close, f.rows[0]!.ldcp],
      ['2021-12-31', 'OGDC', 'Oil & Gas Dev.', 86.2, 84.94],
    );
  });

  it('refuses Unix compress, HTML, garbage and an empty archive with a reason, never an empty day', () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [Buffer.from([0x1f, 0x9d, 0x90, 0x30]), /Unix-compress/],
      [Buffer.from('<!DOCTYPE html><html>Not Found</html>'), /neither ZIP nor gzip/],
      [Buffer.alloc(0), /neither ZIP nor gzip/],
      [Buffer.from([0x1f, 0x8b, 1, 2, 3]), /does not decompress/],
      [gzipSync(Buffer.from('')), /empty file/],
      [gzipSync(Buffer.from('garbage\r\nmore garbage\r\n')), /no line reads/],
      [zipOne('closing11.lis', Buffer.from(text)).subarray(0, 60), /ZIP/],
    ];
    for (const [body, reason] of cases) {
      assert.throws(
        () => parseDailyFileBody(body),
        (err: unknown) => {
          assert.ok(err instanceof UpstreamDataError);
          assert.match(err.message, reason);
          return true;
        },
      );
    }
  });

  it('names the fields a drifted file lacks: container, member, a moved column, an empty one, the date', () => {
    const lines = text.split('\r\n').filter(Boolean);
    const dropField = (i: number) => lines.map((l) => l.split('|').toSpliced(i, 1).join('|')).join('\r\n');
    const cases: Array<[Uint8Array, string[]]> = [
      [Buffer.from(text), ['zip or gzip']],
      [zipOne('other.txt', Buffer.from(text)).subarray(0, 60), ['closing11.lis']],
      [gzipSync(Buffer.from(dropField(2))), ['sector']],
      [gzipSync(Buffer.from(dropField(9))), ['ldcp']],
      // VOLUME dropped: the LDCP (21.1) sits where a whole number should, and no line has an LDCP.
      [gzipSync(Buffer.from(dropField(8))), ['volume', 'ldcp']],
      [gzipSync(Buffer.from(text.replaceAll('03MAR2014', '2014-03-03'))), ['date']],
    ];
    for (const [body, missing] of cases) {
      const r = collectFields(() => parseDailyFileBody(body));
      assert.equal(r.ok, false, missing.join());
      assert.deepEqual(r.fields.missing, missing);
      assert.equal(r.fields.expected.length, 12);
    }
    const wrongDay = collectFields(() => parseDailyFileBody(gzipSync(Buffer.from(text)), '2014-03-04'));
    assert.equal(wrongDay.ok, false);
    assert.deepEqual(wrongDay.fields.missing, ['date']);
    assert.match(String((wrongDay as { error: unknown }).error), /the file for 2014-03-04 holds 2014-03-03/);
    const good = collectFields(() => parseDailyFileBody(gzipSync(Buffer.from(text)), '2014-03-03'));
    assert.ok(good.ok);
    assert.deepEqual(good.fields.missing, []);
  });

  it('reports no drift on the exchange’s real file of 2026-09-15 (every field found)', () => {
    const real = readFileSync(
      new URL('../fixtures/real/closing-file/closing11-2026-09-15.lis', import.meta.url),
    );
    const r = collectFields(() => parseDailyFileBody(zipOne('closing11.lis', real), '2026-09-15'));
    assert.ok(r.ok);
    assert.equal(r.value.rows.length, 1068);
    assert.deepEqual(r.fields, {
      expected: [
        'zip or gzip',
        'closing11.lis',
        'date',
        'symbol',
        'sector',
        'name',
        'open',
        'high',
        'low',
        'close',
        'volume',
        'ldcp',
      ],
      missing: [],
    });
  });

  it('a file of two dates is refused; one unreadable line among many is skipped and named', () => {
    assert.throws(() => parseDailyFile(text + '04MAR2014|ABCX|0813|Abc|1|1|1|1|1|1|||\r\n'), /two dates/);
    const many = Array.from({ length: 150 }, (_, i) => `03MAR2014|S${i}|0813|N|1|1|1|1|1|1|||`).join('\r\n');
    const f = parseDailyFile(`${many}\r\n03MAR2014|BAD|0813|N|x|1|1|1|1|1|||\r\n`);
    assert.equal(f.rows.length, 150);
    assert.equal(f.skipped.length, 1);
    assert.match(f.skipped[0]!.reason, /BAD/);
    const r = collectFields(() => parseDailyFile(`${many}\r\n03MAR2014|BAD|0813|N|x|1|1|1|1|1|||\r\n`));
    assert.ok(r.ok, 'kept, its other rows read');
    assert.deepEqual(r.fields.missing, ['open'], 'the field where the skipped line stopped');
  });
});
