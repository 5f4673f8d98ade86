// GET /stream/quotes over real HTTP against the fake portal's moving market: snapshot, change
// events, heartbeat, resume with Last-Event-ID, the per-address limit, SIGTERM, and one poll
// across two replicas sharing a real Redis. Polls are triggered by the test (the poller's own
// timer is set to an hour), so nothing waits for a 20 s interval.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { portalHarness } from '../helpers/harness.ts';
import { spawnService } from '../helpers/process.ts';
import { redisUnavailableReason, startRedis, type TestRedis } from '../helpers/redis.ts';
import { withoutCompanyExtras } from '../helpers/shape.ts';
import { http, startService, type RunningService } from '../helpers/service.ts';
import { isQuote, openStream, quoteOf, type SseStream } from '../helpers/sse.ts';
import { LocalBus } from '../../src/stream/bus.ts';
import { QuotePoller } from '../../src/stream/poller.ts';

const harness = portalHarness();
const MANUAL = { STREAM_POLL_SECONDS: '3600' };
const streams: SseStream[] = [];

async function stream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const s = await openStream(url, headers);
  streams.push(s);
  return s;
}

afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});

describe('quote stream', () => {
  it('opens with one quote event per symbol, the same quote as /stocks/{symbol}/quote', async () => {
    const svc = await harness.fresh(MANUAL);
    const s = await stream(`${svc.url}/stream/quotes?symbols=hbl,ENGRO,NOSUCH,HBL`);
    assert.equal(s.status, 200);
    assert.match(s.headers['content-type']!, /^text\/event-stream/);
    const [hbl, engro] = await s.waitFor(isQuote(), 2);
    assert.deepEqual(
      withoutCompanyExtras(quoteOf(hbl!)),
      withoutCompanyExtras((await http(svc.url, '/stocks/HBL/quote')).json.data),
    );
    assert.deepEqual(
      withoutCompanyExtras(quoteOf(engro!)),
      withoutCompanyExtras((await http(svc.url, '/stocks/ENGRO/quote')).json.data),
    );
    assert.ok(hbl!.id !== undefined && engro!.id !== undefined, 'every event has an id');
    assert.ok(s.frames.some((f) => f.comments.includes('not_found NOSUCH')));
  });

  it('sends an event for each symbol that moved, and none for the others', async () => {
    const svc = await harness.fresh(MANUAL);
    const s = await stream(`${svc.url}/stream/quotes?symbols=HBL,ENGRO`);
    const snapshot = await s.waitFor(isQuote(), 2);
    const before = quoteOf(snapshot[0]!);
    harness.portal.motion.tick(['HBL']);
    assert.equal(await svc.service.live.poller.pollNow(), 'changed');
    const [, moved] = await s.waitFor(isQuote('HBL'), 2);
    const after = quoteOf(moved!);
    const board = harness.portal.motion.view().marketWatch.find((r) => r.symbol === 'HBL')!;
    assert.equal(after.price, board.current);
    assert.equal(after.volume, board.volume);
    assert.ok(after.volume > before.volume);
    assert.ok(Number(moved!.id) > Number(snapshot[0]!.id));
    // The poll refreshed the cached page every endpoint reads.
    assert.equal((await http(svc.url, '/stocks/HBL/quote')).json.data.price, board.current);
    // Nothing moved since: a second poll sends nothing.
    assert.equal(await svc.service.live.poller.pollNow(), 'unchanged');
    assert.equal(s.frames.filter(isQuote('ENGRO')).length, 1);
    const metrics = (await http(svc.url, '/metrics')).text;
    assert.match(metrics, /psxmd_streams_open 1/);
    assert.match(metrics, /psxmd_stream_polls_total\{outcome="changed"\} 1/);
    assert.match(metrics, /psxmd_stream_events_total 3/);
  });

  it('polls while the market is open and not at all when it is closed (market clock followed)', async () => {
    const svc = await harness.fresh(MANUAL);
    const { datasets, live } = svc.service;
    const s = await stream(`${svc.url}/stream/quotes?symbols=HBL`);
    await s.waitFor(isQuote());
    let now = Date.parse('2026-11-21T11:00:00+05:00'); // a Saturday
    const poller = new QuotePoller({
      datasets,
      hub: live.hub,
      bus: new LocalBus(live.hub),
      intervalMs: 3_600_000,
      followMarketClock: true,
      now: () => now,
    });
    harness.portal.resetCounts();
    assert.equal(await poller.tick(), 'closed');
    now = Date.parse('2026-11-20T12:30:00+05:00'); // Friday's break
    assert.equal(await poller.tick(), 'closed');
    assert.equal(harness.portal.counts().requests['GET /market-watch'], undefined, 'no fetch while closed');
    now = Date.parse('2026-11-20T14:45:00+05:00'); // Friday afternoon session
    harness.portal.motion.tick(['HBL']);
    assert.equal(await poller.tick(), 'changed');
    assert.equal(harness.portal.counts().requests['GET /market-watch'], 1);
    await s.waitFor(isQuote('HBL'), 2);
  });

  it('sends a heartbeat comment on the configured interval', async () => {
    const svc = await harness.fresh({ ...MANUAL, STREAM_HEARTBEAT_SECONDS: '1' });
    const s = await stream(`${svc.url}/stream/quotes?symbols=HBL`);
    await s.waitFor((f) => f.comments.includes('heartbeat'), 2);
  });

  it('replays the events missed since Last-Event-ID, and sends a snapshot when it cannot', async () => {
    const svc = await harness.fresh(MANUAL);
    const first = await stream(`${svc.url}/stream/quotes?symbols=HBL,LUCK`);
    await first.waitFor(isQuote(), 2);
    harness.portal.motion.tick(['HBL']);
    await svc.service.live.poller.pollNow();
    const [, seen] = await first.waitFor(isQuote('HBL'), 2);
    first.close();
    // Away: HBL moves twice, LUCK once, ENGRO (not subscribed) once.
    harness.portal.motion.tick(['HBL', 'ENGRO']);
    await svc.service.live.poller.pollNow();
    harness.portal.motion.tick(['HBL', 'LUCK']);
    await svc.service.live.poller.pollNow();
    const resumed = await stream(`${svc.url}/stream/quotes?symbols=HBL,LUCK`, { 'last-event-id': seen!.id! });
    const missed = await resumed.waitFor(isQuote(), 3);
    assert.deepEqual(missed.map((f) => quoteOf(f).symbol).sort(), ['HBL', 'HBL', 'LUCK']);
    const ids = missed.map((f) => Number(f.id));
    assert.ok(ids[0]! > Number(seen!.id) && ids[0]! < ids[1]! && ids[1]! < ids[2]!, 'missed events in order');
    const board = harness.portal.motion.view().marketWatch.find((r) => r.symbol === 'HBL')!;
    const lastHbl = missed.filter((f) => quoteOf(f).symbol === 'HBL')[1]!;
    assert.equal(quoteOf(lastHbl).price, board.current);
    // An id this replica never issued (another deployment, a restart): a fresh snapshot.
    const unknown = await stream(`${svc.url}/stream/quotes?symbols=HBL,LUCK`, { 'last-event-id': '999999' });
    const snap = await unknown.waitFor(isQuote(), 2);
    assert.equal(quoteOf(snap[0]!).price, board.current);
  });

  it('refuses a client address its sixth concurrent stream with a 429 envelope', async () => {
    const svc = await harness.fresh({ ...MANUAL, STREAM_MAX_PER_IP: '2' });
    const a = await stream(`${svc.url}/stream/quotes?symbols=HBL`);
    await stream(`${svc.url}/stream/quotes?symbols=HBL`);
    await a.waitFor(isQuote());
    const third = await stream(`${svc.url}/stream/quotes?symbols=HBL`);
    await third.ended;
    assert.equal(third.status, 429);
    const body = JSON.parse(third.text);
    assert.equal(body.error.code, 'rate_limited');
    assert.match(body.error.message, /at most 2 concurrent streams/);
    a.close();
    // The slot comes back once the server sees the stream closed.
    let again: SseStream | undefined;
    for (let i = 0; i < 100; i++) {
      again = await stream(`${svc.url}/stream/quotes?symbols=HBL`);
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(again!.status, 200);
  });

  it('rejects bad symbol lists and lists that name nothing listed', async () => {
    const svc = await harness.fresh(MANUAL);
    const many = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
    assert.equal((await http(svc.url, `/stream/quotes?symbols=${many}`)).status, 422);
    const none = await http(svc.url, '/stream/quotes?symbols=NOSUCH,ZZZZ');
    assert.equal(none.status, 404);
    assert.match(none.json.error.message, /none of NOSUCH, ZZZZ is listed/);
    const head = await http(svc.url, '/stream/quotes?symbols=HBL', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.match(head.headers['content-type']!, /^text\/event-stream/);
    assert.equal(svc.service.live.hub.size, 0, 'HEAD holds no stream open');
  });

  it('ends every stream with a final comment on SIGTERM, and the process exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psxmd-stream-'));
    try {
      const proc = await spawnService({
        EXCHANGE_BASE_URL: harness.portal.url,
        CACHE_DIR: dir,
        CACHE_FOLLOW_MARKET_CLOCK: 'false',
        RATE_LIMIT_PER_MINUTE: '0',
        PARSER_WARM_UP: 'false',
      });
      const s = await stream(`${proc.url}/stream/quotes?symbols=HBL,ENGRO`);
      await s.waitFor(isQuote(), 2);
      proc.child.kill('SIGTERM');
      await s.ended;
      const last = s.frames[s.frames.length - 1]!;
      assert.deepEqual(last.comments, ['server shutting down']);
      assert.equal((await proc.exited).code, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const skip = redisUnavailableReason();

describe('quote stream across two replicas sharing one Redis', { skip }, () => {
  let redis: TestRedis;
  const replicas: RunningService[] = [];
  before(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    while (replicas.length) await replicas.pop()!.close();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    await client.flushall().finally(() => client.disconnect());
  });
  after(async () => {
    await redis.stop();
  });

  // A loaded machine can take longer than the default 50 ms for a call, which would open the
  // link's circuit mid-test and leave a fetch lease to expire instead of being released.
  async function replica(): Promise<RunningService> {
    const svc = await startService(harness.portal.url, {
      ...MANUAL,
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '2000',
    });
    replicas.push(svc);
    return svc;
  }

  it('polls once for both: one replica holds the lease, both replicas’ streams get the same event', async () => {
    const [a, b] = [await replica(), await replica()];
    const sa = await stream(`${a!.url}/stream/quotes?symbols=HBL`);
    const sb = await stream(`${b!.url}/stream/quotes?symbols=HBL`);
    await Promise.all([sa.waitFor(isQuote()), sb.waitFor(isQuote())]);
    harness.portal.motion.tick(['HBL']);
    harness.portal.resetCounts();
    const outcomes = await Promise.all([a!.service.live.poller.pollNow(), b!.service.live.poller.pollNow()]);
    assert.deepEqual([...outcomes].sort(), ['changed', 'follower']);
    assert.equal(harness.portal.counts().requests['GET /market-watch'], 1, 'one market-watch fetch');
    const [ea, eb] = [(await sa.waitFor(isQuote(), 2))[1]!, (await sb.waitFor(isQuote(), 2))[1]!];
    assert.equal(ea.id, eb.id, 'the same event id on both replicas');
    assert.deepEqual(withoutCompanyExtras(quoteOf(ea)), withoutCompanyExtras(quoteOf(eb)));
    const price = harness.portal.motion.view().marketWatch.find((r) => r.symbol === 'HBL')!.current;
    assert.equal(quoteOf(eb).price, price);
    // The follower's cached page was refreshed through the shared tier, not by a fetch of its own.
    const follower = outcomes[0] === 'follower' ? a! : b!;
    assert.equal((await http(follower.url, '/stocks/HBL/quote')).json.data.price, price);
    assert.equal(harness.portal.counts().requests['GET /market-watch'], 1);
  });

  it('hands the lease over when the polling replica has no stream left', async () => {
    const [a, b] = [await replica(), await replica()];
    const sa = await stream(`${a!.url}/stream/quotes?symbols=HBL`);
    const sb = await stream(`${b!.url}/stream/quotes?symbols=HBL`);
    await Promise.all([sa.waitFor(isQuote()), sb.waitFor(isQuote())]);
    assert.equal(await a!.service.live.poller.pollNow(), 'unchanged');
    assert.equal(await b!.service.live.poller.pollNow(), 'follower');
    sa.close();
    for (let i = 0; i < 200 && a!.service.live.hub.size > 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(await a!.service.live.poller.tick(), 'idle');
    harness.portal.motion.tick(['HBL']);
    assert.equal(await b!.service.live.poller.pollNow(), 'changed');
    await sb.waitFor(isQuote('HBL'), 2);
  });
});
