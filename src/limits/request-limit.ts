// The spec's request limit: N requests a minute per client address across every API endpoint, 429
// rate_limited beyond it, and RateLimit-* headers (IETF draft names) on every counted response.
// This object says what a count means (the key, the window, the store); the server's front door
// (src/http/pipeline/front-door.ts) is the one place that asks it, for every request to an API endpoint.
// What is not an API endpoint is not counted: /metrics, /openapi.json, /docs and the dashboard's
// files cost the portal nothing, and a page load is several of them (src/http/app.ts registers
// them before the API, and the door lets their GETs through uncounted).
import type { WindowCounter } from './window-counter.ts';

/** What one counted request learns: whether it may go on, and the headers it carries either way. */
export interface LimitDecision {
  allowed: boolean;
  /** `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset` (seconds), in that order. */
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export class RequestLimit {
  readonly windowMs = 60_000;

  /**
   * @param perMinute requests a minute per client; 0 = off.
   * @param counter where requests are counted: in-process, or shared through Redis by replicas.
   */
  constructor(
    readonly perMinute: number,
    private readonly counter: WindowCounter,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Counts one request of `client` (its address) in the current window. */
  async take(client: string): Promise<LimitDecision> {
    const { count, resetMs } = await this.counter.hit(`rl:${client}`, this.windowMs);
    return {
      allowed: count <= this.perMinute,
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - count),
      // At least 1: a Retry-After of 0 would invite an immediate retry inside the same window.
      resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
    };
  }
}
