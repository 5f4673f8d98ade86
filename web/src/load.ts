// Loading and error states: every panel shows one while its call is in flight or after it failed,
// in plain words with a way to try again. When the service asks a client to slow down, the panel
// says how long and tries again by itself.
import { describeError, NotAvailable, ServiceError } from './api.ts';
import { h, replace } from './dom.ts';

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
  target.setAttribute('aria-busy', 'true');
  if (!target.hasChildNodes() || target.querySelector('.error')) {
    replace(target, h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`));
  }
  try {
    const value = await fetch();
    replace(target, render(value));
    return value;
  } catch (err) {
    if (err instanceof NotAvailable) {
      replace(target, opts.missing?.() ?? notAvailable(what));
      return undefined;
    }
    const again = (): void => void load(target, what, fetch, render, opts);
    replace(target, failure(err, what, again));
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

function failure(err: unknown, what: string, again: () => void): HTMLElement {
  const { message, detail } = describeError(err, what);
  const box = h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', { class: 'error-title' }, `Could not load ${what}`),
    h('p', { class: 'error-message' }, message),
  );
  if (err instanceof ServiceError && err.code === 'rate_limited') {
    let left = err.retryAfterSec ?? DEFAULT_WAIT_SEC;
    const wait = h('p', { class: 'error-detail retry-wait' });
    const tick = (): void => {
      if (!box.isConnected && left < (err.retryAfterSec ?? DEFAULT_WAIT_SEC)) return; // view left
      if (left <= 0) return again();
      wait.textContent = `Trying again in ${left} s…`;
      left -= 1;
      setTimeout(tick, 1000);
    };
    tick();
    box.append(wait);
    return box;
  }
  box.append(
    h('p', { class: 'error-detail' }, detail),
    h('button', { type: 'button', onclick: again }, 'Retry'),
  );
  return box;
}
