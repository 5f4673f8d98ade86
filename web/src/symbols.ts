// What a symbol looks like (the service's own rule, SymbolParam), so a malformed one is said once,
// in words, instead of being asked for.
import { h } from './dom.ts';

const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$/;

export const isSymbol = (text: string): boolean => SYMBOL.test(text);

/** The view for an address whose symbol cannot be one. */
export function notASymbol(main: HTMLElement, text: string): void {
  document.title = 'Not a valid symbol · PSX market';
  main.append(
    h(
      'nav',
      { 'aria-label': 'Breadcrumb', class: 'crumbs' },
      h('a', { href: '#/' }, 'Market'),
      ' › ',
      'Not a valid symbol',
    ),
    h('h1', { tabindex: '-1' }, 'Not a valid symbol'),
    h(
      'div',
      { class: 'panel notice', role: 'status', id: 'invalid-symbol' },
      h(
        'p',
        {},
        `“${text.slice(0, 40)}” is not a valid symbol: a symbol is letters and digits, sometimes with a dot, dash or ampersand, like ENGRO, HBL or UBLP-ETF.`,
      ),
      h('p', {}, 'Search by company name or symbol above, or go back to the market.'),
    ),
  );
}
