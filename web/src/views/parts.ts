// A part of an overview the service could not include yet: said in plain words, with when the
// page will ask again (the part's retry_at), never a refusal.
import { SERVICE_BUDGET } from '../api.ts';
import type { Part } from '../data.ts';
import { h } from '../dom.ts';
import { countdown, inWords } from '../load.ts';

/** The page asks again this long after a part's retry_at (the service's window has turned by then). */
const AFTER_RETRY_MS = 500;
/** A part that failed without a time is asked for again after this. */
const FAILED_AGAIN_MS = 60_000;

export function partNote(part: Part<unknown>, what: string, again?: () => void): HTMLElement {
  const e = part.error;
  // The service's own sentence says why (`… is a listed debt instrument …: no equity quote`).
  if (e?.status === 404) return h('p', { class: 'empty' }, `${cap(e.message)}.`);
  const at = e?.retry_at ? Date.parse(e.retry_at) : NaN;
  const seconds = Number.isNaN(at) ? null : Math.max(1, Math.ceil((at - Date.now()) / 1000));
  const when = (left: number): string => (left > 0 ? `in ${inWords(left)}` : 'now');
  // The service's own budget (per client, or its share of the exchange's minute) is not the
  // exchange failing: such a part follows when the minute turns.
  const spaced =
    e?.code === 'rate_limited' || (e?.code === 'exchange_unavailable' && SERVICE_BUDGET.test(e.message));
  const text = (left: number | null): string => {
    const said = left === null ? 'in about a minute' : when(left);
    if (spaced)
      return `${cap(what)} will follow ${said}: the service spaces out its fetches from the exchange, and this page will show it then.`;
    if (e?.code === 'exchange_unavailable')
      return `The exchange’s data portal cannot be reached and the service has no copy of ${what} yet; this page will ask again ${said}.`;
    return `${cap(what)} could not be read from the exchange just now; this page will ask again ${said}.`;
  };
  const line = h('span', {});
  const note = h(
    'p',
    {
      class: 'pending',
      role: 'status',
      'data-part-pending': e?.code ?? '',
      'data-retry-in': seconds === null ? null : String(seconds),
    },
    line,
    again ? [' ', h('button', { type: 'button', onclick: again }, 'Try again now')] : null,
  );
  if (seconds === null) line.textContent = text(null);
  else countdown(line, seconds, text, () => void (line.textContent = text(0)));
  return note;
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
