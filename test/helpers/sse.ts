// A Server-Sent Events reader for tests: connects over real HTTP, collects frames and comments, and
// waits for what a test expects (with a generous deadline, never a fixed sleep).
import { request } from 'undici';

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  /** Comment lines (without the leading colon and space). */
  comments: string[];
}

export interface SseStream {
  status: number;
  headers: Record<string, string>;
  /** Every frame so far, in order. */
  frames: SseFrame[];
  /** The error body when the status is not 200. */
  text: string;
  ended: Promise<void>;
  /** Resolves once `n` frames match (counting from the start); rejects after `timeoutMs`. */
  waitFor(match: (f: SseFrame) => boolean, n?: number, timeoutMs?: number): Promise<SseFrame[]>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await request(url, { headers, signal: controller.signal });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  let text = '';
  let buffer = '';
  const ended = (async () => {
    try {
      for await (const chunk of res.body) {
        const piece = (chunk as Buffer).toString('utf8');
        text += res.statusCode === 200 ? '' : piece;
        buffer += piece;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: SseFrame = { comments: [] };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) frame.comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = line.slice(0, colon);
              const value = line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id' || field === 'event' || field === 'data') frame[field] = value;
            }
          }
          frames.push(frame);
        }
        for (const w of waiters) w();
      }
    } catch {
      // aborted by close()
    }
    for (const w of waiters) w();
  })();
  return {
    status: res.statusCode,
    headers: out,
    frames,
    get text() {
      return text;
    },
    ended,
    waitFor(match, n = 1, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.filter(match);
          if (found.length >= n) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`timed out waiting for ${n} frames; have ${JSON.stringify(frames).slice(0, 2000)}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      controller.abort();
    },
  } as SseStream;
}

/** The quote in a `quote` frame. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
export function quoteOf(frame: SseFrame): any {
  return JSON.parse(frame.data ?? 'null');
}

export const isQuote = (symbol?: string) => (f: SseFrame) =>
  f.event === 'quote' && (symbol === undefined || quoteOf(f).symbol === symbol);
