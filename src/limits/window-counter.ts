// Fixed-window counters, the one way this service counts anything per minute: the request limit
// (request-limit.ts) and the portal budget (portal-budget.ts) both count with one, in-process or
// shared through Redis (redis-window-counter.ts), so they count and degrade alike.
/** A fixed-window counter: in-process here, shared through Redis when replicas run together. */
export interface WindowCounter {
  /** Adds one to `key`'s current window and returns the new count and ms until the window resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
  /** `key`'s count in its current window (0 when none is open) and ms until it resets, adding nothing. */
  peek(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>;
}

export class MemoryWindowCounter implements WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  /** @param now the service's clock (epoch ms). */
  constructor(private readonly now: () => number) {}

  hit(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 10_000) this.sweep(now);
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return Promise.resolve({ count: w.count, resetMs: w.resetAt - now });
  }

  peek(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return Promise.resolve({ count: 0, resetMs: windowMs });
    return Promise.resolve({ count: w.count, resetMs: w.resetAt - now });
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
