// A per-minute request limit, as a portal behind a rate-limiting front end has: more than `limit`
// data requests in any 60 s are answered 429. Off unless asked for (`requestsPerMinute`), so the
// archive's backfill benchmark can show that a service kept within its budget was never refused.

const WINDOW_MS = 60_000;

export class RateGate {
  private readonly arrivals: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts a request; false when it is over the limit (a refused request is not counted in the window). */
  admit(): boolean {
    const t = this.now();
    while (this.head < this.arrivals.length && this.arrivals[this.head]! <= t - WINDOW_MS) this.head += 1;
    if (this.head > 1024) {
      this.arrivals.splice(0, this.head);
      this.head = 0;
    }
    if (this.arrivals.length - this.head >= this.limit) return false;
    this.arrivals.push(t);
    return true;
  }
}
