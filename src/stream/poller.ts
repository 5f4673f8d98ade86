// The one poller behind every stream: while the market is open (or the clock is not followed) and
// some stream is listening, it reloads the market watch every interval through the dataset cache —
// so the fetch also refreshes the quotes every endpoint serves, and counts against the portal
// budget like any fetch — and publishes a quote event for each symbol whose price, change or
// volume moved.
import type { Logger } from 'pino';
import { isMarketOpen } from '../time/market-clock.ts';
import type { RequestContext } from '../market/context.ts';
import type { Datasets } from '../market/datasets.ts';
import type { MarketWatchRow } from '../exchange/types.ts';
import { quote } from '../market/quotes/quotes.ts';
import type { QuoteBus } from './bus.ts';
import type { StreamHub } from './hub.ts';

export type PollOutcome = 'changed' | 'unchanged' | 'failed' | 'follower' | 'closed' | 'idle';

export interface QuotePollerOptions {
  datasets: Datasets;
  hub: StreamHub;
  bus: QuoteBus;
  intervalMs: number;
  followMarketClock: boolean;
  now?: () => number;
  logger?: Logger;
  onPoll?: (outcome: PollOutcome) => void;
  /** Each market watch the poller fetched, and when (the archive keeps them as snapshots). */
  onBoard?: (board: readonly MarketWatchRow[], at: number) => void;
}

// The poller's fetches are the service's own, not a client's: one budget address for all of them.
const POLLER: RequestContext = { clientIp: 'stream-poller' };

export class QuotePoller {
  /** `price|change|volume` per symbol at the last poll. */
  private readonly seen = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PollOutcome> | undefined;
  private leading = false;
  /** Wall-clock ms (sub-ms precision) at which the last poll's market-watch answer was in: the benchmark's fan-out start. */
  lastAnswerAt = Number.NaN;

  constructor(private readonly opts: QuotePollerOptions) {}

  start(): void {
    const loop = () => {
      this.timer = setTimeout(() => {
        void this.tick().finally(() => {
          if (this.timer !== undefined) loop();
        });
      }, this.opts.intervalMs);
      this.timer.unref();
    };
    loop();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.leading) await this.opts.bus.resign();
  }

  /** One scheduled round: nothing to do without listeners or outside the session. */
  async tick(): Promise<PollOutcome> {
    const { hub, bus, followMarketClock } = this.opts;
    const now = (this.opts.now ?? this.opts.datasets.now)();
    let outcome: PollOutcome;
    if (hub.size === 0) {
      if (this.leading) await bus.resign();
      this.leading = false;
      outcome = 'idle';
    } else if (followMarketClock && !isMarketOpen(now)) {
      outcome = 'closed';
    } else {
      outcome = await this.pollNow();
    }
    if (outcome !== 'changed' && outcome !== 'unchanged' && outcome !== 'failed') this.opts.onPoll?.(outcome);
    return outcome;
  }

  /** Polls now if this replica leads (the tests' and benchmark's trigger); one poll at a time. */
  pollNow(): Promise<PollOutcome> {
    this.running ??= this.poll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async poll(): Promise<PollOutcome> {
    const { datasets, bus, logger } = this.opts;
    this.leading = await bus.lead();
    if (!this.leading) return 'follower';
    try {
      // The first poll compares against the page the streams' snapshots were built from.
      if (this.seen.size === 0) await this.observe((await datasets.marketWatch(POLLER)).value, false);
      const board = await datasets.reloadMarketWatch(POLLER);
      this.lastAnswerAt = performance.timeOrigin + performance.now();
      this.opts.onBoard?.(board.value, board.fetchedAt);
      const changed = await this.observe(board.value, true);
      await bus.publish(changed);
      const outcome = changed.length > 0 ? 'changed' : 'unchanged';
      this.opts.onPoll?.(outcome);
      return outcome;
    } catch (err) {
      logger?.warn({ err }, 'quote stream poll failed');
      this.opts.onPoll?.('failed');
      return 'failed';
    }
  }

  /** Records each symbol's state; returns the quotes of those that moved since the last look. */
  private async observe(
    board: ReadonlyArray<{ symbol: string }>,
    report: boolean,
  ): Promise<Array<{ symbol: string; data: string }>> {
    const changed: Array<{ symbol: string; data: string }> = [];
    for (const { symbol } of board) {
      const q = (await quote(this.opts.datasets, symbol, POLLER)).data;
      const state = `${q.price}|${q.change}|${q.volume}`;
      const before = this.seen.get(symbol);
      this.seen.set(symbol, state);
      if (report && before !== undefined && before !== state)
        changed.push({ symbol, data: JSON.stringify(q) });
    }
    return changed;
  }
}
