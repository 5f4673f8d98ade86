// How one poll's changes reach every replica's streams. Alone, a replica numbers its events and
// hands them to its own hub. With Redis, a lease picks the one replica that polls, the event ids
// come from one shared counter (so Last-Event-ID means the same on every replica), and the events
// travel over pub/sub. Redis stays an accelerator: while it is away each replica polls alone.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { KEY_PREFIX } from '../cache/redis-keys.ts';
import type { RedisLink } from '../cache/redis-link.ts';
import type { QuoteEvent } from './events.ts';
import type { StreamHub } from './hub.ts';

export interface QuoteBus {
  /** Whether this replica is the one to poll now (takes or renews the lease). */
  lead(): Promise<boolean>;
  /** Gives up the lease (this replica has no stream left to feed). */
  resign(): Promise<void>;
  /** Numbers the events and delivers them to every replica's streams. */
  publish(events: ReadonlyArray<Omit<QuoteEvent, 'id'>>): Promise<void>;
  close(): Promise<void>;
}

export class LocalBus implements QuoteBus {
  private nextId = 1;

  constructor(private readonly hub: StreamHub) {}

  lead(): Promise<boolean> {
    return Promise.resolve(true);
  }

  resign(): Promise<void> {
    return Promise.resolve();
  }

  publish(events: ReadonlyArray<Omit<QuoteEvent, 'id'>>): Promise<void> {
    this.hub.deliver(events.map((e) => ({ ...e, id: this.nextId++ })));
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const LEASE_KEY = `${KEY_PREFIX}stream:poll-lease`;
const SEQ_KEY = `${KEY_PREFIX}stream:seq`;
const CHANNEL = `${KEY_PREFIX}stream:quotes`;

// KEYS[1] lease; ARGV me, ttl ms. Renews our lease or takes a free one; 1 when we hold it.
export const LEAD_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

export const RESIGN_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface Message {
  from: string;
  events: QuoteEvent[];
}

export interface RedisBusOptions {
  link: RedisLink;
  hub: StreamHub;
  /** The lease outlives a few missed polls, so a live leader keeps it and a dead one loses it soon. */
  leaseMs: number;
  /** Events another replica polled: the cached market watch it refreshed is in the shared tier. */
  onRemoteEvents?: () => void;
  logger?: Logger;
}

export class RedisBus implements QuoteBus {
  private readonly me = randomUUID();
  private readonly subscriber: Redis;
  private readonly local: LocalBus;

  constructor(private readonly opts: RedisBusOptions) {
    this.local = new LocalBus(opts.hub);
    // A subscribed connection can only listen, so pub/sub has one of its own.
    this.subscriber = opts.link.client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    this.subscriber.subscribe(CHANNEL).catch((err: unknown) => {
      opts.logger?.warn(
        { err },
        'quote stream: redis subscribe failed; streams see this replica’s polls only',
      );
    });
  }

  async lead(): Promise<boolean> {
    const held = await this.opts.link.call(
      (r) => r.eval(LEAD_SCRIPT, 1, LEASE_KEY, this.me, String(this.opts.leaseMs)) as Promise<number>,
    );
    // Without Redis every replica feeds its own streams.
    return held === undefined ? true : held === 1;
  }

  async resign(): Promise<void> {
    await this.opts.link.call((r) => r.eval(RESIGN_SCRIPT, 1, LEASE_KEY, this.me) as Promise<number>);
  }

  async publish(events: ReadonlyArray<Omit<QuoteEvent, 'id'>>): Promise<void> {
    if (events.length === 0) return;
    const last = await this.opts.link.call((r) => r.incrby(SEQ_KEY, events.length));
    if (last === undefined) return this.local.publish(events);
    const numbered = events.map((e, i) => ({ ...e, id: last - events.length + 1 + i }));
    this.opts.hub.deliver(numbered);
    const message: Message = { from: this.me, events: numbered };
    await this.opts.link.call((r) => r.publish(CHANNEL, JSON.stringify(message)));
  }

  async close(): Promise<void> {
    await this.resign();
    this.subscriber.disconnect();
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.from === this.me || !Array.isArray(message.events)) return;
    this.opts.onRemoteEvents?.();
    this.opts.hub.deliver(message.events);
  }
}
