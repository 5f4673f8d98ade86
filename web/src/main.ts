// The dashboard's entry: routes, and the header's symbol search.
import './styles.css';
import { symbols } from './data.ts';
import { h } from './dom.ts';
import { navigate, startRouter } from './router.ts';
import { startStatus } from './status.ts';
import { debtView } from './views/debt.ts';
import { marketView } from './views/market.ts';
import { sectorView } from './views/sector.ts';
import { symbolView } from './views/symbol.ts';
import { weekView } from './views/week.ts';

// The service's own rule for a symbol (SymbolParam), checked here to say something friendlier.
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.&-]{0,24}$/;

const main = document.getElementById('main') as HTMLElement;
startStatus();

startRouter(
  main,
  [
    { pattern: /^\/$/, view: marketView, title: () => 'PSX market' },
    { pattern: /^\/sector\/([^/]+)$/, view: sectorView, title: (code) => `Sector ${code} · PSX market` },
    { pattern: /^\/symbol\/([^/]+)$/, view: symbolView, title: (symbol) => `${symbol} · PSX market` },
    { pattern: /^\/week$/, view: weekView, title: () => 'This week · PSX market' },
    { pattern: /^\/debt$/, view: debtView, title: () => 'Debt market · PSX market' },
  ],
  (m) => {
    m.append(
      h('h1', { tabindex: '-1' }, 'Page not found'),
      h('p', {}, h('a', { href: '#/' }, 'Back to the market')),
    );
  },
);

const form = document.getElementById('symbol-search') as HTMLFormElement;
const input = document.getElementById('symbol-input') as HTMLInputElement;
const options = document.getElementById('symbol-options') as HTMLDataListElement;

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const symbol = input.value.trim().toUpperCase();
  if (!SYMBOL.test(symbol)) {
    input.setCustomValidity('A symbol is letters and digits, e.g. ENGRO');
    input.reportValidity();
    return;
  }
  input.value = '';
  navigate(`#/symbol/${encodeURIComponent(symbol)}`);
});
input.addEventListener('input', () => input.setCustomValidity(''));
// Suggestions are fetched when the search is first used, not on every page load.
input.addEventListener(
  'focus',
  () => {
    symbols().then(
      ({ data }) => options.replaceChildren(...data.map((s) => h('option', { value: s }))),
      () => undefined, // no suggestions; typing a symbol still works
    );
  },
  { once: true },
);
