// A part of an overview the service could not include yet: said in plain words, with when the
// page will ask again (the part's retry_at), never a refusal.
import type { Part } from '../data.ts';
import { h } from '../dom.ts';
import { fmtClockSeconds } from '../format.ts';

/** The page asks again this long after a part's retry_at (the service's window has turned by then). */
const AFTER_RETRY_MS = 500;
/** A part that failed without a time is asked for again after this. */
const FAILED_AGAIN_MS = 60_000;

export function partNote(part: Part<unknown>, what: string, again?: () => void): HTMLElement {
  const e = part.error;
  const at = e?.retry_at ? Date.parse(e.retry_at) : NaN;
  const when = Number.isNaN(at) ? 'in a minute' : `at ${fmtClockSeconds(at)}`;
  // The service's own sentence says why (`… is a listed debt instrument …: no equity quote`).
  if (e?.status === 404) return h('p', { class: 'empty' }, `${cap(e.message)}.`);
  const why =
    e?.code === 'rate_limited'
      ? `${cap(what)} will follow: the service fetches it from the exchange ${when} (it spaces out such fetches), and this page will show it then.`
      : e?.code === 'exchange_unavailable'
        ? `The exchange’s data portal cannot be reached and the service has no copy of ${what} yet; this page will ask again ${when}.`
        : `${cap(what)} could not be read from the exchange just now; this page will ask again ${when}.`;
  return h(
    'p',
    { class: 'pending', role: 'status', 'data-part-pending': e?.code ?? '' },
    why,
    again ? [' ', h('button', { type: 'button', onclick: again }, 'Try again now')] : null,
  );
}

/** Milliseconds until the earliest failed part is worth asking for; null when none failed. */
export function retryDelayMs(parts: Part<unknown>[], now = Date.now()): number | null {
  let soonest: number | null = null;
  for (const p of parts) {
    if (!p.error || p.error.status === 404) continue;
    const at = p.error.retry_at ? Date.parse(p.error.retry_at) : now + FAILED_AGAIN_MS;
    const wait = Math.max(0, at - now) + AFTER_RETRY_MS;
    if (soonest === null || wait < soonest) soonest = wait;
  }
  return soonest;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
