// The cache every portal dataset goes through. Reads are judged against the entry's freshness
// deadline: fresh → HIT; a little past it → the copy at once plus one background refresh
// (stale-while-revalidate); otherwise one shared fetch (single-flight) whose failure falls back to
// any copy we still hold (stale-if-error). A failed fetch or parse never replaces a good copy.
import { LRUCache } from 'lru-cache';
import { ServiceError } from '../errors.ts';
import { deepFreeze, type DeepReadonly } from './immutable.ts';
import { SingleFlight } from './single-flight.ts';
import type { CacheEntry, Cached } from './types.ts';

export interface DatasetSpec<T> {
  key: string;
  /**
   * Fetches and parses from the portal. Runs at most once at a time per key. Gets the copy held
   * now, if any, so a dataset can refresh incrementally.
   */
  load: (previous: CacheEntry<T> | undefined) => Promise<T>;
  /** Freshness deadline for a value fetched at `fetchedAt` (epoch ms). */
  freshUntil: (value: DeepReadonly<T>, fetchedAt: number) => number;
  /** Approximate size in bytes, for the memory bound. */
  sizeOf?: (value: DeepReadonly<T>) => number;
}

/** A slower tier behind memory (the embedded store, or Redis). */
export interface PersistentTier {
  read(key: string): Promise<CacheEntry<unknown> | undefined>;
  write(key: string, entry: CacheEntry<unknown>): Promise<void>;
}

/** A tier shared by replicas (Redis), which also coordinates their fetches of one key. */
export interface SharedTier extends PersistentTier {
  /**
   * Runs `produce` if this replica wins the key's cluster-wide lease; otherwise waits for the
   * holder and returns its result (an entry fetched after `newerThan`).
   */
  exclusive<T>(key: string, newerThan: number, produce: () => Promise<CacheEntry<T>>): Promise<CacheEntry<T>>;
}

export type TierName = 'memory' | 'shared' | 'store' | 'exchange';

export interface DatasetCacheOptions {
  memoryBytes: number;
  staleWhileRevalidateMs: number;
  /** The service's clock (epoch ms). */
  now: () => number;
  /** This replica's persistent store (SQLite). */
  tier?: PersistentTier;
  /** The replicas' shared tier (Redis), consulted before the local store. */
  shared?: SharedTier;
  onBackgroundError?: (key: string, err: unknown) => void;
  onRead?: (key: string, state: 'HIT' | 'MISS' | 'STALE', tier: TierName) => void;
  onFlightWait?: () => void;
  /**
   * Deep-freezes every dataset as it is cached, so code that mutates one throws (immutable.ts).
   * On outside production (config.ts); off in production, where each fetch would pay for the walk.
   */
  freezeDatasets?: boolean;
}

/** Failures after which an old copy is better than an error: the error table says which. */
function servableStale(err: unknown): err is ServiceError {
  return err instanceof ServiceError && err.staleServable;
}

export class DatasetCache {
  private readonly memory: LRUCache<string, CacheEntry<unknown>>;
  private readonly flights: SingleFlight<CacheEntry<unknown>>;
  private readonly now: () => number;
  /**
   * One HIT answer per entry, made on its first fresh read: the hot path allocates nothing, and
   * answers derived from a dataset can be memoised on its identity while the entry stays fresh.
   */
  private readonly hits = new WeakMap<object, Promise<Cached<unknown>>>();
  private replacements = 0;

  constructor(private readonly opts: DatasetCacheOptions) {
    this.now = opts.now;
    this.flights = new SingleFlight(opts.onFlightWait);
    this.memory = new LRUCache<string, CacheEntry<unknown>>({
      maxSize: opts.memoryBytes,
      sizeCalculation: (entry) =>
        Math.max(1, (entry as CacheEntry<unknown> & { size?: number }).size ?? 1024),
    });
  }

  /**
   * The fast path of `get`: the answer when memory holds a fresh copy, else undefined (then call
   * `get`). Callers check it before building a `DatasetSpec`, whose closures cost more than the read.
   */
  fresh<T>(key: string): Promise<Cached<T>> | undefined {
    const entry = this.memory.get(key);
    if (entry === undefined || this.now() >= entry.freshUntil) return undefined;
    this.opts.onRead?.(key, 'HIT', 'memory');
    return this.hit(entry) as Promise<Cached<T>>;
  }

  /** Whether memory holds a fresh copy of `key` (nothing read, counted or fetched). */
  holdsFresh(key: string): boolean {
    const entry = this.memory.peek(key);
    return entry !== undefined && this.now() < entry.freshUntil;
  }

  async get<T>(spec: DatasetSpec<T>): Promise<Cached<T>> {
    const { entry, tier } = await this.lookup(spec);
    const now = this.now();
    if (entry && now < entry.freshUntil) {
      this.opts.onRead?.(spec.key, 'HIT', tier);
      return this.hit(entry) as Promise<Cached<T>>;
    }
    if (entry && now < entry.freshUntil + this.opts.staleWhileRevalidateMs) {
      if (!this.flights.has(spec.key)) {
        this.refresh(spec, entry).catch((err: unknown) => this.opts.onBackgroundError?.(spec.key, err));
      }
      this.opts.onRead?.(spec.key, 'STALE', tier);
      return this.answer(entry, 'STALE');
    }
    try {
      const fresh = await this.refresh(spec, entry);
      this.opts.onRead?.(spec.key, 'MISS', 'exchange');
      return this.answer(fresh, 'MISS');
    } catch (err) {
      if (entry && servableStale(err)) {
        this.opts.onRead?.(spec.key, 'STALE', tier);
        return this.answer(entry, 'STALE');
      }
      throw err;
    }
  }

  /**
   * Counts copies replaced or dropped before their freshness ended (reload, forget): an answer
   * built before such a change must not be repeated as fresh (the responder's replay), or one
   * endpoint would show the new market watch and another the old one at the same moment.
   */
  get revision(): number {
    return this.replacements;
  }

  /**
   * Fetches `spec` now even while the held copy is fresh (the live-quote poller's read), sharing a
   * fetch already in flight; the result replaces the copy as any refresh does.
   */
  async reload<T>(spec: DatasetSpec<T>): Promise<Cached<T>> {
    const { entry } = await this.lookup(spec);
    // Only a fetch made from now on will do, even if another replica's copy is newer than ours.
    this.replacements++;
    const fresh = await this.refresh(spec, entry, this.now());
    // Before and after: an answer remembered while the fetch was in flight was built from the old copy.
    this.replacements++;
    this.opts.onRead?.(spec.key, 'MISS', 'exchange');
    return this.answer(fresh, 'MISS');
  }

  /** Drops the memory copy of `key`, so the next read consults the shared tier (another replica refreshed it). */
  forget(key: string): void {
    this.replacements++;
    this.memory.delete(key);
  }

  /** A copy of whatever is held for `key`, however old (no fetch). */
  async peek<T>(spec: DatasetSpec<T>): Promise<CacheEntry<T> | undefined> {
    return (await this.lookup(spec)).entry;
  }

  private async lookup<T>(spec: DatasetSpec<T>): Promise<{ entry?: CacheEntry<T>; tier: TierName }> {
    const inMemory = this.memory.get(spec.key) as CacheEntry<T> | undefined;
    if (inMemory && this.now() < inMemory.freshUntil) return { entry: inMemory, tier: 'memory' };
    let best: { entry?: CacheEntry<T>; tier: TierName } = { entry: inMemory, tier: 'memory' };
    // Another replica may have fetched since this one did.
    const shared = (await this.opts.shared?.read(spec.key)) as CacheEntry<T> | undefined;
    if (shared && shared.fetchedAt > (best.entry?.fetchedAt ?? -1)) best = { entry: shared, tier: 'shared' };
    // The local store only ever holds what this process had in memory, so it matters only when
    // memory is empty (after a restart, or an eviction).
    if (!best.entry && this.opts.tier) {
      const stored = (await this.opts.tier.read(spec.key)) as CacheEntry<T> | undefined;
      if (stored) best = { entry: stored, tier: 'store' };
    }
    if (!best.entry || best.entry === inMemory) return best;
    // Freshness is judged from the stored fetch time under the current configuration, not the
    // deadline the writer computed (the operator may have changed the policy since).
    const entry = this.sized<T>(spec, best.entry.value, best.entry.fetchedAt);
    this.memory.set(spec.key, entry);
    return { entry, tier: best.tier };
  }

  private sized<T>(
    spec: DatasetSpec<T>,
    loaded: T | DeepReadonly<T>,
    fetchedAt: number,
  ): CacheEntry<T> & { size: number } {
    // Every value the cache holds passes here: fetched, or read from a slower tier.
    const value = (this.opts.freezeDatasets ? deepFreeze(loaded) : loaded) as DeepReadonly<T>;
    return {
      value,
      fetchedAt,
      freshUntil: spec.freshUntil(value, fetchedAt),
      size: spec.sizeOf?.(value) ?? 1024,
    };
  }

  private refresh<T>(
    spec: DatasetSpec<T>,
    previous: CacheEntry<T> | undefined,
    newerThan = previous?.fetchedAt ?? -1,
  ): Promise<CacheEntry<T>> {
    return this.flights.run(spec.key, async () => {
      const produce = async (): Promise<CacheEntry<T>> => {
        const value = await spec.load(previous);
        const entry = this.sized<T>(spec, value, this.now());
        // Written to disk before anyone is answered, so data a client has seen survives a crash.
        if (this.opts.tier) await this.opts.tier.write(spec.key, entry as CacheEntry<unknown>);
        return entry;
      };
      const { shared } = this.opts;
      const produced = shared ? await shared.exclusive<T>(spec.key, newerThan, produce) : await produce();
      // A result another replica fetched is judged under this replica's configuration.
      const entry = this.sized<T>(spec, produced.value, produced.fetchedAt);
      this.memory.set(spec.key, entry);
      return entry;
    }) as Promise<CacheEntry<T>>;
  }

  private hit<T>(entry: CacheEntry<T>): Promise<Cached<T>> {
    let answer = this.hits.get(entry) as Promise<Cached<T>> | undefined;
    if (answer === undefined) {
      answer = Promise.resolve(this.answer(entry, 'HIT'));
      this.hits.set(entry, answer as Promise<Cached<unknown>>);
    }
    return answer;
  }

  private answer<T>(entry: CacheEntry<T>, state: 'HIT' | 'MISS' | 'STALE'): Cached<T> {
    return {
      value: entry.value,
      state,
      fetchedAt: entry.fetchedAt,
      freshUntil: entry.freshUntil,
      version: entry.fetchedAt.toString(36),
    };
  }
}
