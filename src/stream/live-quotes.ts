// The live-quote feature as the service composes it: the hub of open streams, the bus between
// replicas and the poller, with one lifecycle.
import type { Logger } from 'pino';
import type { RedisLink } from '../cache/redis-link.ts';
import type { Datasets } from '../market/datasets.ts';
import { LocalBus, RedisBus, type QuoteBus } from './bus.ts';
import { StreamHub } from './hub.ts';
import { QuotePoller, type PollOutcome } from './poller.ts';
import type { MarketWatchRow } from '../exchange/types.ts';

export interface LiveQuotesOptions {
  datasets: Datasets;
  redis?: RedisLink;
  pollSeconds: number;
  heartbeatSeconds: number;
  maxPerIp: number;
  followMarketClock: boolean;
  logger?: Logger;
  /** Each market watch the poller fetched (the archive's snapshots). */
  onBoard?: (board: readonly MarketWatchRow[], at: number) => void;
  metrics?: {
    onOpenChange(open: number): void;
    onEvents(count: number): void;
    onDrop(reason: 'slow'): void;
    onPoll(outcome: PollOutcome): void;
  };
}

/** Unsent bytes past which a stream is dropped: a few polls' worth of events for 100 symbols. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** Resume window: events of the last five minutes (and at most this many) are kept for resuming. */
const RESUME_MAX_EVENTS = 50_000;
const RESUME_MAX_AGE_MS = 5 * 60_000;

export class LiveQuotes {
  readonly hub: StreamHub;
  readonly poller: QuotePoller;
  readonly maxPerIp: number;
  private readonly bus: QuoteBus;

  constructor(opts: LiveQuotesOptions) {
    this.maxPerIp = opts.maxPerIp;
    this.hub = new StreamHub({
      maxPerIp: opts.maxPerIp,
      heartbeatMs: opts.heartbeatSeconds * 1000,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      resumeMaxEvents: RESUME_MAX_EVENTS,
      resumeMaxAgeMs: RESUME_MAX_AGE_MS,
      now: opts.datasets.now,
      onOpenChange: opts.metrics?.onOpenChange,
      onEvents: opts.metrics?.onEvents,
      onDrop: opts.metrics?.onDrop,
    });
    this.bus = opts.redis
      ? new RedisBus({
          link: opts.redis,
          hub: this.hub,
          leaseMs: opts.pollSeconds * 3000,
          onRemoteEvents: () => opts.datasets.forgetMarketWatch(),
          logger: opts.logger,
        })
      : new LocalBus(this.hub);
    this.poller = new QuotePoller({
      datasets: opts.datasets,
      hub: this.hub,
      bus: this.bus,
      intervalMs: opts.pollSeconds * 1000,
      followMarketClock: opts.followMarketClock,
      logger: opts.logger,
      onPoll: opts.metrics?.onPoll,
      onBoard: opts.onBoard,
    });
    this.poller.start();
  }

  /** Ends every stream (a final comment, then close) and stops polling. */
  async close(): Promise<void> {
    this.hub.close();
    await this.poller.stop();
    await this.bus.close();
  }
}
