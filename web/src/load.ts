// Loading and error states: every panel shows one while its call is in flight or after it failed,
// in plain words with a way to try again. What a panel already shows is never taken away by a
// failed refresh: it stays, marked with its age, with a line that says what happened and when the
// page will try again (after a rate limit, when the service said: Retry-After) by itself.
import { describeError, NotAvailable, SERVICE_BUDGET, ServiceError } from './api.ts';
import { h, replace } from './dom.ts';
import { fmtWhen } from './format.ts';

/** When the service asks us to wait but does not say how long. */
const DEFAULT_WAIT_SEC = 30;

export interface LoadOptions {
  /** What to show when the service has no such endpoint; default: a quiet "not available" note. */
  missing?: () => Node;
}

/**
 * Fills `target` with `render(value)` once `fetch` succeeds, a status line while it runs, and an
 * alert when it fails (a Retry button, or a countdown and automatic retry after a rate limit).
 * Resolves to the value, or undefined after a failure.
 */
export async function load<T>(
  target: HTMLElement,
  what: string,
  fetch: () => Promise<T>,
  render: (value: T) => Node,
  opts: LoadOptions = {},
): Promise<T | undefined> {
  const shown = target.dataset.loadedAt !== undefined;
  target.setAttribute('aria-busy', 'true');
  if (!shown) replace(target, h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`));
  try {
    const value = await fetch();
    replace(target, render(value));
    target.dataset.loadedAt = String(Date.now());
    return value;
  } catch (err) {
    if (err instanceof NotAvailable) {
      replace(target, opts.missing?.() ?? notAvailable(what));
      return undefined;
    }
    const again = (): void => void load(target, what, fetch, render, opts);
    if (shown) keep(target, err, what, again);
    else replace(target, failureBox(err, what, again));
    return undefined;
  } finally {
    target.removeAttribute('aria-busy');
  }
}

export function notAvailable(what: string): HTMLElement {
  return h(
    'p',
    { class: 'unavailable' },
    `${what.charAt(0).toUpperCase()}${what.slice(1)}: not available from this service.`,
  );
}

/** Seconds to wait after `err`, when it is the service asking to slow down. */
function waitOf(err: unknown): number | null {
  if (!(err instanceof ServiceError)) return null;
  if (err.code === 'rate_limited') return err.retryAfterSec ?? DEFAULT_WAIT_SEC;
  // The service's own budget for the minute: it said when, and the page asks again by itself then.
  if (err.code === 'exchange_unavailable' && err.retryAfterSec !== null && SERVICE_BUDGET.test(err.message))
    return err.retryAfterSec;
  return null;
}

/**
 * Counts `seconds` down in `line` (`text(left)`) and then calls `again`, unless `alive()` turns
 * false first (the reader left the view).
 */
export function countdown(
  line: HTMLElement,
  seconds: number,
  text: (left: number) => string,
  again: () => void,
  alive: () => boolean = () => line.isConnected,
): void {
  let left = Math.max(1, Math.ceil(seconds));
  // The first line is written now; `line` may not be on the page yet (its box is being made).
  line.textContent = text(left);
  const tick = (): void => {
    if (!alive()) return;
    left -= 1;
    if (left <= 0) return again();
    line.textContent = text(left);
    setTimeout(tick, 1000);
  };
  setTimeout(tick, 1000);
}

/** In plain words: `in 1 minute 5 seconds`. */
export function inWords(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const part = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (m === 0) return part(s, 'second');
  return s === 0 ? part(m, 'minute') : `${part(m, 'minute')} ${part(s, 'second')}`;
}

/** A refresh failed: what is shown stays, with its age and the wait above it. */
function keep(target: HTMLElement, err: unknown, what: string, again: () => void): void {
  target.querySelector(':scope > .refresh-note')?.remove();
  target.prepend(keptNote(err, what, Number(target.dataset.loadedAt), again));
}

/**
 * The line over data kept after a failed refresh: how old it is, what happened, and when the page
 * asks again (by itself after a rate limit, at its Retry-After; with a button otherwise).
 */
export function keptNote(err: unknown, what: string, shownAtMs: number, again: () => void): HTMLElement {
  const since = `Showing ${what} as of ${fmtWhen(new Date(shownAtMs).toISOString())}.`;
  const note = h('p', { class: 'refresh-note', role: 'status' });
  const wait = waitOf(err);
  if (wait !== null) {
    note.dataset.retryIn = String(wait);
    countdown(
      note,
      wait,
      (left) =>
        `${since} The service asked this page to wait before asking again; it will ask again by itself in ${inWords(left)}.`,
      again,
      () => note.isConnected,
    );
    return note;
  }
  const { message } = describeError(err, what);
  note.append(
    `${since} It could not be refreshed: ${message} `,
    h('button', { type: 'button', onclick: again }, 'Try again'),
  );
  return note;
}

/** A failed load in plain words: a Retry button, or after a rate limit a countdown and a retry by itself. */
export function failureBox(err: unknown, what: string, again: () => void): HTMLElement {
  const { message, detail } = describeError(err, what);
  const wait = waitOf(err);
  const box = h(
    'div',
    { class: wait === null ? 'error' : 'error waiting', role: wait === null ? 'alert' : 'status' },
    h('p', { class: 'error-title' }, wait === null ? `Could not load ${what}` : `Waiting to load ${what}`),
    h('p', { class: 'error-message' }, message),
  );
  if (wait !== null) {
    const line = h('p', { class: 'error-detail retry-wait' });
    box.append(line);
    countdown(line, wait, (left) => `It will ask again in ${inWords(left)}.`, again);
    return box;
  }
  box.append(
    h('p', { class: 'error-detail' }, detail),
    h('button', { type: 'button', onclick: again }, 'Retry'),
  );
  return box;
}
