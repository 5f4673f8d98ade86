// Hash routes (#/, #/sector/0804, #/symbol/ENGRO): the service only has to serve one page, and
// every view has an address that can be bookmarked, shared and reached with Back.
/** Fills `main`; may return a cleanup run before the next view replaces it. */
export type View = (main: HTMLElement, ...params: string[]) => (() => void) | void;

export interface Route {
  pattern: RegExp;
  view: View;
  title: (...params: string[]) => string;
}

export function navigate(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}

export function startRouter(main: HTMLElement, routes: Route[], notFound: View): void {
  let cleanup: (() => void) | void;
  let first = true;
  const render = (): void => {
    cleanup?.();
    main.replaceChildren();
    const path = location.hash.replace(/^#/, '') || '/';
    const route = routes.find((r) => r.pattern.test(path));
    const params = route ? (route.pattern.exec(path)?.slice(1) ?? []).map(decodeURIComponent) : [];
    document.title = route ? route.title(...params) : 'Not found · PSX market';
    cleanup = route ? route.view(main, ...params) : notFound(main);
    // After a navigation, start screen readers and keyboards at the new page's heading; on the
    // first load the browser's own start (the skip link) is the better place.
    if (!first) main.querySelector<HTMLElement>('h1')?.focus();
    first = false;
  };
  window.addEventListener('hashchange', render);
  render();
}
