// A quote event as streams send it, and the bounded history kept for resuming with Last-Event-ID.

export interface QuoteEvent {
  /** Increases by one per event across the service (replicas share the sequence through Redis). */
  id: number;
  symbol: string;
  /** The quote object, serialised once for every stream that gets it. */
  data: string;
}

/** The SSE frame of an event: `id`, `event: quote`, `data`, blank line. */
export function frame(e: QuoteEvent): string {
  return `id: ${e.id}\nevent: quote\ndata: ${e.data}\n\n`;
}

/**
 * The last events, bounded by count and by age: a client that reconnects within the window gets
 * what it missed, one that was away longer gets a fresh snapshot instead.
 */
export class ResumeBuffer {
  private events: Array<{ event: QuoteEvent; at: number }> = [];

  constructor(
    private readonly maxEvents: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number,
  ) {}

  push(event: QuoteEvent): void {
    this.events.push({ event, at: this.now() });
    this.prune();
  }

  /**
   * The events after `lastId` for `symbols`, or undefined when the buffer no longer holds every
   * event after it (or never saw it): the caller sends a snapshot instead.
   */
  since(lastId: number, lastKnownId: number, symbols: ReadonlySet<string>): QuoteEvent[] | undefined {
    this.prune();
    if (lastId > lastKnownId) return undefined;
    if (lastId === lastKnownId) return [];
    const oldest = this.events[0]?.event.id;
    if (oldest === undefined || oldest > lastId + 1) return undefined;
    return this.events.filter((e) => e.event.id > lastId && symbols.has(e.event.symbol)).map((e) => e.event);
  }

  private prune(): void {
    const cutoff = this.now() - this.maxAgeMs;
    let drop = Math.max(0, this.events.length - this.maxEvents);
    while (drop < this.events.length && this.events[drop]!.at < cutoff) drop++;
    if (drop > 0) this.events = this.events.slice(drop);
  }
}
