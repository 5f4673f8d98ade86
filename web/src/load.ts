// Loading and error states: every panel shows one while its call is in flight or after it failed,
// with the service's own message and a way to try again.
import { describeError } from './api.ts';
import { h, replace } from './dom.ts';

/**
 * Fills `target` with `render(value)` once `fetch` succeeds, a status line while it runs, and an
 * alert with a Retry button when it fails. Resolves to the value, or undefined after a failure.
 */
export async function load<T>(
  target: HTMLElement,
  what: string,
  fetch: () => Promise<T>,
  render: (value: T) => Node,
): Promise<T | undefined> {
  target.setAttribute('aria-busy', 'true');
  replace(target, h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`));
  try {
    const value = await fetch();
    replace(target, render(value));
    return value;
  } catch (err) {
    const { message, detail } = describeError(err);
    const retry = h(
      'button',
      { type: 'button', onclick: () => void load(target, what, fetch, render) },
      'Retry',
    );
    replace(
      target,
      h(
        'div',
        { class: 'error', role: 'alert' },
        h('p', { class: 'error-title' }, `Could not load ${what}`),
        h('p', { class: 'error-message' }, message),
        h('p', { class: 'error-detail' }, detail),
        retry,
      ),
    );
    return undefined;
  } finally {
    target.removeAttribute('aria-busy');
  }
}
