// What a symbol looks like (the service's own rule, SymbolParam), so a malformed one is said once,
// in words, instead of being asked for.
import { h } from './dom.ts';

const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$/;

export const isSymbol = (text: string): boolean => SYMBOL.test(text);

/** The view for an address whose symbol cannot be one. */
export function notASymbol(main: HTMLElement, text: string): void {
  // Said once, in the sentence below; the heading and the breadcrumb name what was asked for.
  const shown = text.slice(0, 40);
  document.title = `${shown} · PSX market`;
  main.append(
    h('nav', { 'aria-label': 'Breadcrumb', class: 'crumbs' }, h('a', { href: '#/' }, 'Market'), ' › ', shown),
    h('h1', { tabindex: '-1' }, shown),
    h(
      'div',
      { class: 'panel notice', role: 'status', id: 'invalid-symbol' },
      h(
        'p',
        {},
        `“${shown}” is not a valid symbol: a symbol is letters and digits, sometimes with a dot, dash or ampersand, like ENGRO, HBL or UBLP-ETF.`,
      ),
      h('p', {}, 'Search by company name or symbol above, or go back to the market.'),
    ),
  );
}
