// Redis as the tier every replica shares: what one replica fetched, the others read. Entries expire
// in Redis once they could no longer be served even as stale (CACHE_STALE_MAX); history never does.
//
// It also coordinates fetches across replicas: the first replica to want a cold key takes a lease
// (SET NX PX); the others poll until the lease is gone and read the holder's result. The holder's
// write is fenced: it lands only while the lease is still its own, so a holder that stalled past its
// lease cannot overwrite a newer result. A holder that dies simply lets its lease expire.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SharedTier } from './dataset-cache.ts';
import { KEY_PREFIX } from './redis-keys.ts';
import type { RedisLink } from './redis-link.ts';
import type { CacheEntry } from './types.ts';

export interface RedisTierOptions {
  /** How long past its freshness an entry is kept for stale serving. */
  staleMaxMs: number;
  /** A fetch holds its lease this long at most (the portal request timeout and then some). */
  leaseMs: number;
  pollMs?: number;
  /** The service's clock (epoch ms). */
  now: () => number;
  onWait?: () => void;
}

interface Stored {
  v: unknown;
  f: number;
  u: number;
}

const dataKey = (key: string) => `${KEY_PREFIX}data:${key}`;
const leaseKey = (key: string) => `${KEY_PREFIX}lease:${key}`;

// KEYS[1] lease, KEYS[2] data; ARGV token, value, ttl ms (0 = no expiry). Writes only under our lease.
const FENCED_WRITE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[2])
end
return 1`;

// Deletes the lease only if it is still ours.
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisTier implements SharedTier {
  private readonly now: () => number;

  constructor(
    private readonly link: RedisLink,
    private readonly opts: RedisTierOptions,
  ) {
    this.now = opts.now;
  }

  async read(key: string): Promise<CacheEntry<unknown> | undefined> {
    const raw = await this.link.call((r) => r.get(dataKey(key)));
    if (!raw) return undefined;
    try {
      const stored = JSON.parse(raw) as Stored;
      return { value: stored.v, fetchedAt: stored.f, freshUntil: stored.u };
    } catch {
      return undefined;
    }
  }

  async write(key: string, entry: CacheEntry<unknown>): Promise<void> {
    const ttl = this.ttlFor(key, entry);
    await this.link.call((r) =>
      ttl > 0
        ? r.set(dataKey(key), this.serialise(entry), 'PX', ttl)
        : r.set(dataKey(key), this.serialise(entry)),
    );
  }

  async exclusive<T>(
    key: string,
    newerThan: number,
    produce: () => Promise<CacheEntry<T>>,
  ): Promise<CacheEntry<T>> {
    const token = randomUUID();
    for (let round = 0; round < 3; round++) {
      const taken = await this.link.call((r) => r.set(leaseKey(key), token, 'PX', this.opts.leaseMs, 'NX'));
      if (taken === undefined) return produce(); // Redis is away: this replica fetches alone.
      if (taken === 'OK') return this.produceUnderLease(key, token, newerThan, produce);
      this.opts.onWait?.();
      const result = await this.awaitHolder<T>(key, newerThan);
      if (result) return result;
    }
    return produce();
  }

  private async produceUnderLease<T>(
    key: string,
    token: string,
    newerThan: number,
    produce: () => Promise<CacheEntry<T>>,
  ): Promise<CacheEntry<T>> {
    try {
      // Another replica may have finished between our read and our lease.
      const current = (await this.read(key)) as CacheEntry<T> | undefined;
      if (current && current.fetchedAt > newerThan && this.now() < current.freshUntil) return current;
      const entry = await produce();
      const stored = entry as CacheEntry<unknown>;
      const ttl = this.ttlFor(key, stored);
      await this.link.call((r) =>
        r.eval(FENCED_WRITE, 2, leaseKey(key), dataKey(key), token, this.serialise(stored), String(ttl)),
      );
      return entry;
    } finally {
      await this.link.call((r) => r.eval(RELEASE, 1, leaseKey(key), token));
    }
  }

  /** Waits for the lease holder; its result, or undefined if it failed or Redis went away. */
  private async awaitHolder<T>(key: string, newerThan: number): Promise<CacheEntry<T> | undefined> {
    const deadline = this.now() + this.opts.leaseMs + 1_000;
    const poll = this.opts.pollMs ?? 25;
    while (this.now() < deadline) {
      await sleep(poll);
      const leased = await this.link.call((r) => r.exists(leaseKey(key)));
      if (leased === undefined) return undefined;
      if (leased === 0) break;
    }
    const entry = (await this.read(key)) as CacheEntry<T> | undefined;
    return entry && entry.fetchedAt > newerThan ? entry : undefined;
  }

  private serialise(entry: CacheEntry<unknown>): string {
    const stored: Stored = { v: entry.value, f: entry.fetchedAt, u: entry.freshUntil };
    return JSON.stringify(stored);
  }

  /** History never expires in Redis (past rows never change); everything else after stale-max. */
  private ttlFor(key: string, entry: CacheEntry<unknown>): number {
    if (key.startsWith('history:')) return 0;
    return Math.max(1_000, entry.freshUntil + this.opts.staleMaxMs - this.now());
  }
}
