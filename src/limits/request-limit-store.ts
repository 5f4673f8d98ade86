// Adapts a WindowCounter (local or Redis-backed) to @fastify/rate-limit's store interface, so the
// request limit and the portal budget count the same way and degrade the same way.
import type { WindowCounter } from './portal-budget.ts';

interface IncrResult {
  current: number;
  ttl: number;
}
type Callback = (err: Error | null, result?: IncrResult) => void;

export function rateLimitStore(counter: WindowCounter) {
  return class CounterStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      counter.hit(`rl:${key}`, timeWindow).then(
        ({ count, resetMs }) => cb(null, { current: count, ttl: resetMs }),
        (err: Error) => cb(err),
      );
    }

    child(): CounterStore {
      return new CounterStore();
    }
  };
}
