// One archiver across replicas: the same Redis lease as the stream poller's (src/stream/bus.ts),
// under a key of its own. Without Redis there is one replica and it leads. With Redis configured
// but unreachable no replica archives: the portal budget is shared, and a backfill can wait.
import { randomUUID } from 'node:crypto';
import { KEY_PREFIX } from '../cache/redis-keys.ts';
import type { RedisLink } from '../cache/redis-link.ts';
import { LEAD_SCRIPT, RESIGN_SCRIPT } from '../stream/bus.ts';

export interface Lease {
  lead(): Promise<boolean>;
  resign(): Promise<void>;
}

const LEASE_KEY = `${KEY_PREFIX}archive:lease`;

export const soleLease: Lease = { lead: () => Promise.resolve(true), resign: () => Promise.resolve() };

export class RedisLease implements Lease {
  private readonly me = randomUUID();

  constructor(
    private readonly link: RedisLink,
    private readonly leaseMs: number,
  ) {}

  async lead(): Promise<boolean> {
    const held = await this.link.call(
      (r) => r.eval(LEAD_SCRIPT, 1, LEASE_KEY, this.me, String(this.leaseMs)) as Promise<number>,
    );
    return held === 1;
  }

  async resign(): Promise<void> {
    await this.link.call((r) => r.eval(RESIGN_SCRIPT, 1, LEASE_KEY, this.me) as Promise<number>);
  }
}
