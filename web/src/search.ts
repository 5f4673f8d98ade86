// The header's search: companies by name or symbol (GET /stocks?q=), suggested while typing, in
// the ARIA combobox pattern (arrow keys move through the list, Enter opens, Escape closes). One
// request per pause in typing, not per key.
import { searchStocks, type StockMatch } from './data.ts';
import { h } from './dom.ts';
import { navigate } from './router.ts';
import { isSymbol } from './symbols.ts';

/** Typing pauses this long before the service is asked. */
const PAUSE_MS = 250;
const SHOWN = 8;

export function startSearch(): void {
  const form = document.getElementById('symbol-search') as HTMLFormElement;
  const input = document.getElementById('symbol-input') as HTMLInputElement;
  const list = document.getElementById('symbol-options') as HTMLUListElement;
  const hint = document.getElementById('search-hint') as HTMLElement;
  let matches: StockMatch[] = [];
  let active = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = '';

  const close = (): void => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const open = (symbol: string): void => {
    close();
    input.value = '';
    navigate(`#/symbol/${encodeURIComponent(symbol)}`);
  };
  const highlight = (i: number): void => {
    active = i;
    for (const [j, li] of [...list.children].entries()) li.setAttribute('aria-selected', String(j === i));
    const el = list.children[i] as HTMLElement | undefined;
    if (el) {
      input.setAttribute('aria-activedescendant', el.id);
      el.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };
  const render = (): void => {
    list.replaceChildren(
      ...matches.map((m, i) =>
        h(
          'li',
          {
            id: `symbol-option-${i}`,
            role: 'option',
            'aria-selected': 'false',
            'data-symbol': m.symbol,
            // mousedown: before the input's blur closes the list.
            onmousedown: (e: Event) => {
              e.preventDefault();
              open(m.symbol);
            },
          },
          h('span', { class: 'option-symbol' }, m.symbol),
          h('span', { class: 'option-name' }, m.name),
        ),
      ),
    );
    const any = matches.length > 0;
    list.hidden = !any;
    input.setAttribute('aria-expanded', String(any));
    active = -1;
    hint.textContent = any
      ? `${matches.length} ${matches.length === 1 ? 'company' : 'companies'} found; use the arrow keys to choose.`
      : input.value.trim()
        ? 'No company found.'
        : '';
  };
  const ask = async (q: string): Promise<void> => {
    asked = q;
    try {
      const found = (await searchStocks(q)).data.slice(0, SHOWN);
      if (asked !== q || input.value.trim() !== q) return;
      matches = found;
      render();
    } catch {
      // No suggestions (the service is busy or away): typing a symbol and Enter still works.
    }
  };

  input.addEventListener('input', () => {
    input.setCustomValidity('');
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length === 0) {
      matches = [];
      render();
      return;
    }
    timer = setTimeout(() => void ask(q), PAUSE_MS);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (matches.length === 0) return;
      e.preventDefault();
      if (list.hidden) render();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      highlight((active + step + matches.length) % matches.length);
    } else if (e.key === 'Escape') {
      if (!list.hidden) {
        e.preventDefault();
        close();
      }
    }
  });
  input.addEventListener('blur', () => close());

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const chosen = matches[active];
    if (chosen && !list.hidden) return open(chosen.symbol);
    const typed = input.value.trim();
    if (!typed) return;
    void (async () => {
      // A symbol typed exactly opens it; a name opens its best match ("habib" → the first Habib).
      let found = asked === typed ? matches : [];
      if (asked !== typed) found = (await searchStocks(typed).catch(() => null))?.data ?? [];
      const exact = found.find((m) => m.symbol === typed.toUpperCase());
      if (exact) return open(exact.symbol);
      if (found[0]) return open(found[0].symbol);
      if (isSymbol(typed) && found.length === 0 && asked !== typed) return open(typed.toUpperCase());
      input.setCustomValidity('No company or symbol matches this; try part of a name, e.g. Habib');
      input.reportValidity();
    })();
  });
}
