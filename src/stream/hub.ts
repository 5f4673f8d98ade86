// Every open quote stream of this replica: who listens to which symbol, the per-address limit,
// fan-out of each batch of events (one write per stream), the heartbeat, slow-client drops, and
// the clean end of every stream at shutdown.
import type { ServerResponse } from 'node:http';
import { frame, ResumeBuffer, type QuoteEvent } from './events.ts';

export interface StreamHubOptions {
  /** Concurrent streams per client address (STREAM_MAX_PER_IP). */
  maxPerIp: number;
  heartbeatMs: number;
  /** A stream whose unsent bytes pass this is dropped: a client that cannot keep up costs no more. */
  maxBufferedBytes: number;
  resumeMaxEvents: number;
  resumeMaxAgeMs: number;
  /** The service's clock (epoch ms). */
  now: () => number;
  onEvents?: (count: number) => void;
  onDrop?: (reason: 'slow') => void;
  onOpenChange?: (open: number) => void;
}

interface Client {
  res: ServerResponse;
  ip: string;
  symbols: readonly string[];
}

export class StreamHub {
  private readonly subscribers = new Map<string, Set<Client>>();
  private readonly clients = new Set<Client>();
  private readonly perIp = new Map<string, number>();
  private readonly resumable: ResumeBuffer;
  private readonly heartbeat: NodeJS.Timeout;
  /**
   * One string per symbol shared by every stream: each stream's list comes from splitting its own
   * query, and 10,000 streams of ~50 symbols would otherwise hold half a million copies.
   */
  private readonly names = new Map<string, string>();
  private lastId = 0;
  private closed = false;

  constructor(private readonly opts: StreamHubOptions) {
    this.resumable = new ResumeBuffer(opts.resumeMaxEvents, opts.resumeMaxAgeMs, opts.now);
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  get lastEventId(): number {
    return this.lastId;
  }

  /** Takes one of the address's stream slots; false when it has none left (or the hub is closing). */
  reserve(ip: string): boolean {
    const held = this.perIp.get(ip) ?? 0;
    if (this.closed || held >= this.opts.maxPerIp) return false;
    this.perIp.set(ip, held + 1);
    return true;
  }

  /** Gives back a slot taken by `reserve` for a stream that never opened. */
  release(ip: string): void {
    const held = (this.perIp.get(ip) ?? 1) - 1;
    if (held <= 0) this.perIp.delete(ip);
    else this.perIp.set(ip, held);
  }

  /** Events after `lastId` for these symbols, or undefined when a snapshot must be sent instead. */
  missedSince(lastId: number, symbols: readonly string[]): QuoteEvent[] | undefined {
    return this.resumable.since(lastId, this.lastId, new Set(symbols));
  }

  /**
   * Starts streaming to `res` (already reserved for `ip`): `first` is the snapshot or the resumed
   * events, written before any later event.
   */
  open(res: ServerResponse, ip: string, symbols: readonly string[], first: string, events: number): void {
    const client: Client = { res, ip, symbols: symbols.map((s) => this.nameOf(s)) };
    this.clients.add(client);
    for (const s of client.symbols) {
      let set = this.subscribers.get(s);
      if (set === undefined) this.subscribers.set(s, (set = new Set()));
      set.add(client);
    }
    res.on('close', () => this.remove(client));
    this.opts.onOpenChange?.(this.clients.size);
    this.write(client, first);
    this.opts.onEvents?.(events);
  }

  /** A batch of events in id order (one poll's changes): kept for resuming, then one write per stream. */
  deliver(events: readonly QuoteEvent[]): void {
    if (events.length === 0) return;
    // Each frame is encoded once and the same bytes are handed to every stream (corked, so a
    // stream's frames leave in one writev): no per-stream copy or string building.
    const pending = new Map<Client, Buffer[]>();
    for (const e of events) {
      this.resumable.push(e);
      if (e.id > this.lastId) this.lastId = e.id;
      const text = Buffer.from(frame(e));
      const subs = this.subscribers.get(e.symbol);
      if (subs === undefined) continue;
      for (const c of subs) {
        const parts = pending.get(c);
        if (parts === undefined) pending.set(c, [text]);
        else parts.push(text);
      }
    }
    let sent = 0;
    for (const [c, parts] of pending) {
      sent += parts.length;
      if (c.res.destroyed) continue;
      if (parts.length === 1) {
        this.write(c, parts[0]!);
        continue;
      }
      c.res.cork();
      for (const part of parts) c.res.write(part);
      c.res.uncork();
      this.checkBuffer(c);
    }
    this.opts.onEvents?.(sent);
  }

  /** Ends every stream with a final comment; new streams are refused from now on. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const c of [...this.clients]) {
      c.res.end(': server shutting down\n\n');
      this.remove(c);
    }
  }

  private nameOf(symbol: string): string {
    const known = this.names.get(symbol);
    if (known !== undefined) return known;
    this.names.set(symbol, symbol);
    return symbol;
  }

  private beat(): void {
    for (const c of this.clients) this.write(c, ': heartbeat\n\n');
  }

  private write(c: Client, text: string | Buffer): void {
    if (c.res.destroyed) return;
    c.res.write(text);
    this.checkBuffer(c);
  }

  private checkBuffer(c: Client): void {
    if (c.res.writableLength > this.opts.maxBufferedBytes) {
      this.opts.onDrop?.('slow');
      c.res.destroy();
      this.remove(c);
    }
  }

  private remove(c: Client): void {
    if (!this.clients.delete(c)) return;
    for (const s of c.symbols) {
      const set = this.subscribers.get(s);
      set?.delete(c);
      if (set?.size === 0) this.subscribers.delete(s);
    }
    this.release(c.ip);
    this.opts.onOpenChange?.(this.clients.size);
  }
}
