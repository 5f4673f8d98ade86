// Fixed-window counters in Redis, so replicas share one budget: two replicas together allow exactly
// the configured number. INCR and PEXPIRE run in one script, so a window can never lose its expiry.
// While Redis is unavailable the replica counts locally (each replica then allows the full amount).
import type { WindowCounter } from './window-counter.ts';
import { MemoryWindowCounter } from './window-counter.ts';
import { KEY_PREFIX } from '../cache/redis-keys.ts';
import type { RedisLink } from '../cache/redis-link.ts';

const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;
const PEEK = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {n, ttl}`;

export class RedisWindowCounter implements WindowCounter {
  private readonly local: MemoryWindowCounter;

  constructor(
    private readonly link: RedisLink,
    now: () => number,
  ) {
    this.local = new MemoryWindowCounter(now);
  }

  async hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const shared = await this.link.call(
      (r) => r.eval(HIT, 1, `${KEY_PREFIX}win:${key}`, String(windowMs)) as Promise<[number, number]>,
    );
    if (shared) return { count: Number(shared[0]), resetMs: Number(shared[1]) };
    return this.local.hit(key, windowMs);
  }

  async peek(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const shared = await this.link.call(
      (r) => r.eval(PEEK, 1, `${KEY_PREFIX}win:${key}`) as Promise<[number, number]>,
    );
    if (!shared) return this.local.peek(key, windowMs);
    const ttl = Number(shared[1]);
    return ttl > 0 ? { count: Number(shared[0]), resetMs: ttl } : { count: 0, resetMs: windowMs };
  }
}
