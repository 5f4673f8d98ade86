// The global portal budget's reserve over real HTTP (src/limits/portal-budget.ts): with the
// per-client limit off, one cold /sectors/performance — a daily history and an adjusted series
// per listed symbol — spends the bulk part of the budget and answers partially, saying which
// members it could not fetch and why, while quotes and company pages still answer from the
// reserve within the same minute (the service's clock stands still).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';

const NOW = Date.parse('2026-11-18T11:00:00+05:00');

describe('the global portal budget keeps a reserve for quotes and company pages', () => {
  let portal: FakePortal;
  let svc: RunningService;
  before(async () => {
    portal = await startFakePortal();
    svc = await startService(
      portal.url,
      // A quarter of 40 kept: bulk pages may use 30 fetches a minute.
      { EXCHANGE_FETCH_LIMIT_PER_IP: '0', EXCHANGE_FETCH_LIMIT_GLOBAL: '40' },
      { overrides: { now: () => NOW } },
    );
  });
  after(async () => {
    await svc?.close();
    await portal?.close();
  });

  it('a cold sector ranking answers partially and never starves the quotes', async () => {
    const ranking = await http(svc.url, '/sectors/performance?period=1M');
    assert.equal(ranking.status, 200, ranking.text);
    const { coverage } = ranking.json.meta;
    assert.ok(coverage.with_data > 0, 'some members fetched');
    assert.ok(coverage.missing.length > 0, 'the rest named');
    assert.equal(coverage.with_data + coverage.missing.length, coverage.members);
    for (const m of coverage.missing) assert.match(m.reason, /kept for quotes and company pages/, m.symbol);
    assert.match(
      ranking.headers['cache-control']!,
      /max-age=([0-9]|[1-5][0-9]|60)$/,
      'partial: asked again soon',
    );
    const fetchedForRanking = portal.counts().total;
    // 30 bulk pages, the sector page and the screener (interactive pages), the token page.
    assert.ok(fetchedForRanking <= 33, `${fetchedForRanking} portal fetches for the ranking`);

    // Within the same minute: the market watch and company pages come from the reserve.
    const quotes = await http(svc.url, '/quotes?symbols=ENGRO,HBL');
    assert.equal(quotes.status, 200, quotes.text);
    assert.deepEqual(
      quotes.json.data.map((q: { symbol: string }) => q.symbol),
      ['ENGRO', 'HBL'],
    );
    const quote = await http(svc.url, '/stocks/LUCK/quote');
    assert.equal(quote.status, 200, quote.text);
    const profile = await http(svc.url, '/stocks/OGDC/profile');
    assert.equal(profile.status, 200, profile.text);
    // A bulk page is still refused this minute: 503 with the reason, not a spent reserve.
    const history = await http(svc.url, `/stocks/${coverage.missing[0].symbol}/historical`);
    assert.equal(history.status, 503);
    assert.match(history.json.error.message, /kept for quotes and company pages/);
  });
});
