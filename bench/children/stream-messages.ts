// The IPC protocol of the stream benchmark's children (bench/stream.ts).

export type ToStreamChild =
  | { type: 'memory' }
  | { type: 'stop' }
  /** The service: poll now. The bare server: write these frames (symbol → frame text) now. */
  | { type: 'poll' }
  | { type: 'fire'; frames: Record<string, string> }
  /** The bare server: the snapshot frame of each symbol. */
  | { type: 'snapshot'; frames: Record<string, string> };

export type FromStreamChild =
  | { type: 'ready'; url: string }
  | { type: 'memory'; rss: number }
  /** `answerAt`: wall-clock ms when the poll's answer was in (service) or the write began (bare). */
  | { type: 'polled'; outcome: string; answerAt: number };
