// The parts of an overview (a snapshot joining several datasets in one request): each part is
// settled on its own, so one that fails (a portal error, this client's spent fetch budget) is
// marked with its error and when to ask again, and the rest is served.
import { combine, type Provenance } from '../../cache/types.ts';
import { ServiceError } from '../../errors.ts';
import { type Answer } from '../answer.ts';
import { karachiTime } from '../../time/karachi.ts';
import type { OverviewPartErrorT } from '../models/overview.ts';

export interface Part<T> {
  data: T | null;
  as_of: string | null;
  error: OverviewPartErrorT | null;
}

/** A part as the overview's answer needs it: what it shows, and what it was built from. */
export interface Settled<T> {
  part: Part<T>;
  provenance?: Provenance;
  /** Epoch ms when a failed part is worth asking for again (from the failure's Retry-After). */
  retryAtMs?: number;
}

/** When no Retry-After was given: a failed part is tried again on the next request after this. */
const FAILED_PART_RETRY_MS = 30_000;

/**
 * Settles one part. A ServiceError (anything a client or the portal can cause) becomes the part's
 * error in the envelope's terms; anything else is a defect and fails the request.
 */
export async function settle<A, T>(
  run: () => Promise<Answer<A>>,
  now: () => number,
  shape: (data: A) => T = (data) => data as unknown as T,
): Promise<Settled<T>> {
  try {
    const answer = await run();
    return {
      part: { data: shape(answer.data), as_of: answer.asOf, error: null },
      provenance: answer.provenance,
    };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const retryAtMs = now() + (err.retryAfter !== undefined ? err.retryAfter * 1000 : FAILED_PART_RETRY_MS);
    return {
      part: {
        data: null,
        as_of: null,
        error: {
          status: err.statusCode,
          code: err.code,
          message: err.message,
          retry_at: err.retryAfter !== undefined ? karachiTime(retryAtMs) : null,
        },
      },
      retryAtMs,
    };
  }
}

/**
 * The overview's provenance: its parts' combined, fresh no longer than the earliest retry of a
 * failed part (so the next request after it tries that part again), and versioned by which parts
 * failed, so a failed part's answer is never served as the whole one.
 */
export function overviewProvenance(parts: Settled<unknown>[], now: number): Provenance {
  const held = parts.flatMap((p) => (p.provenance ? [p.provenance] : []));
  const base: Provenance =
    held.length > 0 ? combine(held) : { state: 'MISS', fetchedAt: now, freshUntil: now, version: 'none' };
  const failed = parts.flatMap((p, i) => (p.retryAtMs !== undefined ? [{ i, at: p.retryAtMs }] : []));
  if (failed.length === 0) return base;
  const retry = Math.min(...failed.map((f) => f.at));
  return {
    ...base,
    freshUntil: Math.max(now, Math.min(base.freshUntil, retry)),
    version: `${base.version}!${failed.map((f) => `${f.i}@${f.at}`).join(',')}`,
  };
}

/** The oldest `as_of` among the parts that were served (what the whole can claim to be as of). */
export function oldestAsOf(parts: Part<unknown>[], fallbackMs: number): string {
  let oldest: string | null = null;
  for (const p of parts) if (p.as_of !== null && (oldest === null || p.as_of < oldest)) oldest = p.as_of;
  return oldest ?? karachiTime(fallbackMs);
}
