// A tiny element builder: enough to keep the views declarative without a framework.

type Attr = string | number | boolean | null | undefined;
export type Attrs = Record<string, Attr | EventListener>;
export type Child = Node | string | number | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, children.flat());
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything inside `parent`. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Runs `show` once, when `el` comes within `margin` of the viewport; returns the cancel. A part
 * below the fold costs its request only when someone scrolls to it.
 */
export function whenVisible(el: Element, show: () => void, margin = '200px'): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    show();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      show();
    },
    { rootMargin: margin },
  );
  observer.observe(el);
  return () => observer.disconnect();
}

/**
 * Resolves in a new task: a long render split at these points lets the browser paint and answer
 * input in between, instead of blocking a phone's main thread for the whole page at once.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
