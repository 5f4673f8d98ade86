// The dashboard's entry: routes, the header's status line and its search.
import './styles.css';
import { h } from './dom.ts';
import { startRouter } from './router.ts';
import { startSearch } from './search.ts';
import { startStatus } from './status.ts';
import { debtView } from './views/debt.ts';
import { marketView } from './views/market.ts';
import { marketRoute } from './views/market-day.ts';
import { sectorView } from './views/sector.ts';
import { symbolView } from './views/symbol.ts';
import { weekView } from './views/week.ts';

const main = document.getElementById('main') as HTMLElement;
startStatus();

startRouter(
  main,
  [
    { pattern: /^\/$/, view: marketView, title: () => 'PSX market' },
    // A past day's market (#/market?date=2015-03-02), or the live one without a date.
    {
      pattern: /^\/market\??(.*)$/,
      view: marketRoute,
      title: (query) => {
        const date = new URLSearchParams(query).get('date');
        return date ? `Market on ${date} · PSX market` : 'PSX market';
      },
    },
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
startSearch();
