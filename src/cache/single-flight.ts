/** Concurrent calls for one key share one in-flight promise: N cold requests cost one portal fetch. */
export class SingleFlight<T> {
  private readonly inflight = new Map<string, Promise<T>>();

  constructor(private readonly onWait: () => void = () => {}) {}

  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(key);
    if (existing) {
      this.onWait();
      return existing;
    }
    const promise = work().finally(() => this.inflight.delete(key));
    this.inflight.set(key, promise);
    return promise;
  }

  has(key: string): boolean {
    return this.inflight.has(key);
  }
}
