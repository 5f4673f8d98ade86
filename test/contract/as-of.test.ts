// `as_of` is the time the data describes, over real HTTP with the service's injected clock: a live
// page fetched while the market is closed is as of the last session's close (at night, on the
// Friday break), one fetched during a session is as of its fetch, and pages that print their own
// time keep it. The quote, the batch quotes, the stream's snapshot, the movers and the breadth
// carry one as_of.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { portalHarness } from '../helpers/harness.ts';
import { http } from '../helpers/service.ts';
import { isQuote, openStream, quoteOf } from '../helpers/sse.ts';
import { startService, type RunningService } from '../helpers/service.ts';

const harness = portalHarness();

/** A Karachi wall-clock time as epoch ms. */
const pk = (iso: string): number => Date.parse(`${iso}+05:00`);

async function serviceAt(at: number, env: Record<string, string> = {}): Promise<RunningService> {
  const svc = await startService(
    harness.portal.url,
    { STREAM_POLL_SECONDS: '3600', ...env },
    {
      overrides: { now: () => at },
    },
  );
  return svc;
}

/** Every live-page answer's as_of, and the quote's own, for ENGRO. */
async function asOfs(url: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const quote = await http(url, '/stocks/ENGRO/quote');
  assert.equal(quote.status, 200);
  out['quote data.as_of'] = quote.json.data.as_of;
  out['quote meta.as_of'] = quote.json.meta.as_of;
  const batch = await http(url, '/quotes?symbols=ENGRO,HBL');
  out['quotes meta.as_of'] = batch.json.meta.as_of;
  for (const q of batch.json.data as Array<{ symbol: string; as_of: string }>) {
    out[`quotes ${q.symbol}.as_of`] = q.as_of;
  }
  for (const path of [
    '/market/movers?by=gainers',
    '/market/breadth',
    '/screener',
    '/sectors',
    '/indices/KSE100',
  ]) {
    const res = await http(url, path);
    assert.equal(res.status, 200, path);
    out[path] = res.json.meta.as_of;
  }
  const s = await openStream(`${url}/stream/quotes?symbols=ENGRO`);
  try {
    const [snap] = await s.waitFor(isQuote('ENGRO'), 1);
    out['stream snapshot'] = quoteOf(snap!).as_of as string;
  } finally {
    s.close();
  }
  return out;
}

function allEqual(values: Record<string, string>, expected: string): void {
  for (const [where, value] of Object.entries(values)) assert.equal(value, expected, where);
}

describe('as_of is the time the data describes', () => {
  const cases: ReadonlyArray<[name: string, now: string, asOf: string]> = [
    [
      'at night (Thursday 02:17): the previous session’s close',
      '2026-11-26T02:17:00',
      '2026-11-25T15:30:00+05:00',
    ],
    ['on the Friday break: the morning session’s close', '2026-11-27T13:05:00', '2026-11-27T12:00:00+05:00'],
    ['on a Sunday: Friday’s close', '2026-11-29T10:00:00', '2026-11-27T16:30:00+05:00'],
    ['during a session: the fetch', '2026-11-26T11:00:05', '2026-11-26T11:00:05+05:00'],
  ];
  for (const [name, now, asOf] of cases) {
    it(name, async () => {
      const svc = await serviceAt(pk(now));
      try {
        allEqual(await asOfs(svc.url), asOf);
      } finally {
        await svc.close();
      }
    });
  }

  it('follows the exchange timetable whether or not cache freshness follows the market clock', async () => {
    const svc = await serviceAt(pk('2026-11-26T02:17:00'), { CACHE_FOLLOW_MARKET_CLOCK: 'true' });
    try {
      allEqual(await asOfs(svc.url), '2026-11-25T15:30:00+05:00');
    } finally {
      await svc.close();
    }
  });

  it('keeps the times a page prints: the index page’s “As of …”, the ticks', async () => {
    const svc = await serviceAt(pk('2026-11-26T02:17:00'));
    try {
      for (const path of ['/indices', '/market/summary']) {
        const res = await http(svc.url, path);
        assert.equal(res.json.meta.as_of, harness.portal.dataset.asOfIso, path);
      }
      const intraday = await http(svc.url, '/stocks/ENGRO/intraday');
      assert.equal(intraday.status, 200);
      const ticks = intraday.json.data as Array<{ time: string }>;
      assert.ok(ticks.length > 0);
      // The ticks are the portal's own times, not the fetch's.
      assert.ok(
        ticks.every((t) => t.time.startsWith(harness.portal.dataset.asOfDate)),
        ticks[0]!.time,
      );
    } finally {
      await svc.close();
    }
  });

  it('leaves filings and the listing as of their fetch (they change at any hour)', async () => {
    const svc = await serviceAt(pk('2026-11-26T02:17:00'));
    try {
      for (const path of ['/stocks', '/stocks?q=eng']) {
        const res = await http(svc.url, path);
        assert.equal(res.status, 200, path);
        assert.equal(res.json.meta.as_of, '2026-11-26T02:17:00+05:00', path);
      }
    } finally {
      await svc.close();
    }
  });
});
