// The connection to the shared Redis. Redis is an accelerator, never a dependency: every call has a
// 50 ms budget, a failed or slow call opens a short circuit during which the replica works from its
// local tiers and limits, and the outage is logged once (and once more when it ends).
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisLinkOptions {
  url: string;
  logger?: Logger;
  commandTimeoutMs?: number;
  /** How long to stay on local tiers after a failed call before trying Redis again. */
  circuitMs?: number;
  onError?: () => void;
  /** The service's clock (epoch ms): when an open circuit lets calls through again. */
  now: () => number;
}

export class RedisLink {
  readonly client: Redis;
  private openUntil = 0;
  private inOutage = false;
  /** Outages so far: a call's success ends the outage only if no outage began after it was sent. */
  private outages = 0;

  constructor(private readonly opts: RedisLinkOptions) {
    this.client = new Redis(opts.url, {
      commandTimeout: opts.commandTimeoutMs ?? 50,
      connectTimeout: 1_000,
      // Fail at once while disconnected instead of queueing: the caller has a local fallback.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * times, 2_000),
      lazyConnect: false,
    });
    this.client.on('error', (err: Error) => this.fail(err));
    this.client.on('ready', () => {
      this.openUntil = 0;
      this.recovered();
    });
  }

  /** True while calls may be attempted (connected and no open circuit). */
  get available(): boolean {
    return this.client.status === 'ready' && this.opts.now() >= this.openUntil;
  }

  /**
   * Resolves true once the connection is ready, false if that takes longer than `withinMs`. A
   * replica that starts serving before its link is up would fetch, count and limit alone.
   */
  ready(withinMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.client.off('ready', onReady);
        resolve(false);
      }, withinMs);
      this.client.once('ready', onReady);
    });
  }

  /** Runs one Redis call; undefined when Redis is unavailable, slow or failing. */
  async call<T>(fn: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    if (!this.available) return undefined;
    // A call answered after an outage began but sent before it says nothing about Redis now.
    const outage = this.outages;
    try {
      const result = await fn(this.client);
      if (outage === this.outages) this.recovered();
      return result;
    } catch (err) {
      this.fail(err);
      return undefined;
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private fail(err: unknown): void {
    this.opts.onError?.();
    this.openUntil = this.opts.now() + (this.opts.circuitMs ?? 1_000);
    if (!this.inOutage) {
      this.inOutage = true;
      this.outages++;
      this.opts.logger?.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'redis unavailable; serving from local tiers and limits until it returns',
      );
    }
  }

  private recovered(): void {
    if (this.inOutage) {
      this.inOutage = false;
      this.opts.logger?.info('redis is back; sharing cache and limits again');
    }
  }
}
