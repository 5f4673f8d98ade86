// The market on a past day (#/market?date=2015-03-02[&market=futures]), from the archive's copy of
// the exchange's closing files: every symbol that traded that day, delisted ones included, with
// its open, high, low, close, volume, the change against the previous close the file printed, and
// the ex-marker in words. Two requests for shares (the day's bars, and its universe for names and
// whether each is still listed), one for the other markets; the picker's bounds are a third. A
// day without a session says so, naming the trading days around it.
import { ServiceError, type Fetched } from '../api.ts';
import { showPastDay } from '../asof.ts';
import {
  marketDay,
  marketUniverse,
  type DailyMarket,
  type DailyRow,
  type ExMarker,
  type UniverseRow,
} from '../data.ts';
import { dayHash, dayPicker } from '../day-picker.ts';
import { h, replace } from '../dom.ts';
import {
  arrow,
  direction,
  fmtDay,
  fmtPct,
  fmtPrice,
  fmtSigned,
  fmtWhole,
  SPOKEN_DIRECTION,
} from '../format.ts';
import { load } from '../load.ts';
import { marketView, openSymbol } from './market.ts';

const MARKETS: { value: DailyMarket; label: string }[] = [
  { value: 'equities', label: 'Shares' },
  { value: 'futures', label: 'Stock futures' },
  { value: 'index_futures', label: 'Index futures' },
  { value: 'debt', label: 'Government debt' },
];

/** The exchange's ex-markers, as a reader says them. */
export const MARKER_WORDS: Record<Exclude<ExMarker, null>, string> = {
  XD: 'Ex-dividend',
  XB: 'Ex-bonus',
  XR: 'Ex-rights',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

type DayAnswer = { bars: Fetched<DailyRow[]>; names: UniverseRow[] } | { closed: string };

/** `#/market` and `#/market?…`: a past day when the address names one, else the live market. */
export function marketRoute(main: HTMLElement, query = ''): (() => void) | void {
  const params = new URLSearchParams(query);
  const date = params.get('date');
  if (date === null || date === '') return marketView(main);
  const market = (MARKETS.find((m) => m.value === params.get('market'))?.value ?? 'equities') as DailyMarket;
  return marketDayView(main, date, market);
}

function marketDayView(main: HTMLElement, date: string, market: DailyMarket): () => void {
  const valid = DAY.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`));
  const panel = h('div', { class: 'panel', id: 'day-panel' });
  const marketPicker = h(
    'select',
    {
      id: 'day-market',
      onchange: (e: Event) =>
        (location.hash = dayHash(date, (e.target as HTMLSelectElement).value as DailyMarket)),
    },
    MARKETS.map((m) => h('option', { value: m.value, selected: m.value === market }, m.label)),
  );
  main.append(
    h('h1', { tabindex: '-1' }, valid ? `Market on ${fmtDay(date)}` : 'Market on a past day'),
    dayPicker({ date: valid ? date : undefined, market, open: true }),
    h('div', { class: 'day-market' }, h('label', { for: 'day-market' }, 'Market'), marketPicker),
    panel,
  );
  if (!valid) {
    replace(panel, h('p', { class: 'empty', role: 'alert' }, `“${date}” is not a date; pick a day above.`));
    return () => {};
  }
  // The header says this day's close, not the live time, until the view is left.
  showPastDay(`${date}T15:30:00+05:00`);
  let left = false;
  void load(
    panel,
    `the market on ${fmtDay(date)}`,
    async (): Promise<DayAnswer> => {
      try {
        const [bars, names] = await Promise.all([
          marketDay(date, market),
          market === 'equities' ? marketUniverse(date).catch(() => null) : Promise.resolve(null),
        ]);
        return { bars, names: names?.data ?? [] };
      } catch (err) {
        // A day without a session (or outside the archive) is an answer, not a failure.
        if (err instanceof ServiceError && (err.status === 404 || /in the future/.test(err.message)))
          return { closed: err.message };
        throw err;
      }
    },
    (answer) => {
      if ('closed' in answer) return noSessionNote(date, answer.closed);
      if (!left && answer.bars.asOf) showPastDay(answer.bars.asOf);
      return dayTable(date, market, answer.bars.data, answer.names);
    },
    { missing: () => archiveMissing() },
  );
  return () => {
    left = true;
    showPastDay(null);
  };
}

function archiveMissing(): HTMLElement {
  return h(
    'p',
    { class: 'empty' },
    'Past days need the service’s archive, which this service does not keep; only today’s market is shown.',
  );
}

/** The service's 404 (`no session on D in the archive: the previous trading day is P, the next N`) in words. */
function noSessionNote(date: string, message: string): HTMLElement {
  const prev = /previous trading day is (\d{4}-\d{2}-\d{2})/.exec(message)?.[1];
  const next = /the next (\d{4}-\d{2}-\d{2})/.exec(message)?.[1];
  const first = /before the archive's first trading day, (\d{4}-\d{2}-\d{2})/.exec(message)?.[1];
  const link = (d: string): HTMLElement => h('a', { href: dayHash(d) }, fmtDay(d));
  const box = h('div', { class: 'day-closed', role: 'status' });
  if (first) {
    box.append(
      h('p', {}, `The archive starts on ${fmtDay(first)}; it holds nothing for ${fmtDay(date)}.`),
      h('p', {}, 'See ', link(first), '.'),
    );
  } else if (prev) {
    box.append(
      h(
        'p',
        { class: 'day-closed-title' },
        `The exchange did not trade on ${fmtDay(date)}: a weekend, a holiday or a day without a session.`,
      ),
      h(
        'p',
        {},
        'The trading day before was ',
        link(prev),
        next ? ['; the next was ', link(next), '.'] : '; the archive holds no later day yet.',
      ),
    );
  } else if (/in the future/.test(message)) {
    box.append(h('p', {}, `${fmtDay(date)} has not come yet; pick a day up to today.`));
  } else if (/holds no trading day yet/.test(message)) {
    box.append(h('p', {}, `The archive holds no past day yet, so nothing for ${fmtDay(date)}.`));
  } else {
    box.append(h('p', {}, `The archive holds no market for ${fmtDay(date)}.`), h('p', {}, message));
  }
  return box;
}

function dayTable(date: string, market: DailyMarket, rows: DailyRow[], universe: UniverseRow[]): Node {
  const named = new Map(universe.map((u) => [u.symbol, u]));
  const label = MARKETS.find((m) => m.value === market)?.label ?? market;
  if (rows.length === 0)
    return h('p', { class: 'empty' }, `No ${label.toLowerCase()} traded on ${fmtDay(date)}.`);
  const filter = h('input', {
    type: 'search',
    id: 'day-filter',
    placeholder: 'Symbol or name',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const count = h('p', { class: 'quiet day-count', 'aria-live': 'polite' });
  const tbody = h(
    'tbody',
    {},
    rows.map((r) => {
      const u = named.get(r.symbol);
      const name = r.name ?? u?.name ?? '';
      const change = r.close !== null && r.ldcp != null ? noNoise(r.close - r.ldcp) : null;
      const pct = change !== null && r.ldcp ? noNoise((change / r.ldcp) * 100) : null;
      const dir = direction(change);
      const notes = [
        r.marker ? MARKER_WORDS[r.marker] : null,
        u && !u.listed_today ? 'No longer listed' : null,
      ].filter((n): n is string => n !== null);
      const listed = market === 'equities' && u?.listed_today !== false;
      return h(
        'tr',
        { 'data-symbol': r.symbol, 'data-search': `${r.symbol} ${name}`.toLowerCase() },
        h(
          'th',
          { scope: 'row' },
          listed
            ? h(
                'a',
                {
                  href: `#/symbol/${encodeURIComponent(r.symbol)}`,
                  onclick: (e: Event) => {
                    e.preventDefault();
                    openSymbol(r.symbol);
                  },
                },
                r.symbol,
              )
            : r.symbol,
        ),
        h('td', { class: 'name' }, name),
        h('td', { class: 'num' }, fmtPrice(r.open)),
        h('td', { class: 'num' }, fmtPrice(r.high)),
        h('td', { class: 'num' }, fmtPrice(r.low)),
        h('td', { class: 'num close' }, fmtPrice(r.close)),
        h(
          'td',
          { class: `num change ${dir}` },
          change === null
            ? '—'
            : [
                h('span', { 'aria-hidden': 'true' }, `${arrow(change)} `),
                h('span', { class: 'sr-only' }, `${SPOKEN_DIRECTION[dir]} `),
                `${fmtSigned(change)} (${fmtPct(pct)})`,
              ],
        ),
        h('td', { class: 'num' }, fmtWhole(r.volume)),
        h('td', { class: 'day-notes' }, notes.join(' · ')),
      );
    }),
  );
  const all = [...tbody.rows];
  const apply = (): void => {
    const q = filter.value.trim().toLowerCase();
    let shown = 0;
    for (const tr of all) {
      const hit = q === '' || (tr.dataset.search ?? '').includes(q);
      tr.hidden = !hit;
      if (hit) shown++;
    }
    count.textContent =
      shown === all.length ? `${all.length} symbols traded.` : `${shown} of ${all.length} symbols shown.`;
  };
  filter.addEventListener('input', apply);
  apply();
  const delisted = universe.filter((u) => !u.listed_today).length;
  return h(
    'div',
    {},
    h('div', { class: 'day-tools' }, h('label', { for: 'day-filter' }, 'Filter'), filter, count),
    h(
      'p',
      { class: 'quiet' },
      `Closing prices in PKR from the exchange’s closing file; change against the previous close it printed.${
        delisted > 0 ? ` ${delisted} of these symbols are no longer listed.` : ''
      }`,
    ),
    h('p', { class: 'scroll-hint' }, 'Swipe the table sideways for more columns →'),
    h(
      'div',
      {
        class: 'table-scroll day-scroll',
        tabindex: '0',
        'aria-label': `${label} on ${fmtDay(date)}, scrolls sideways`,
      },
      h(
        'table',
        { class: 'data compact', id: 'day-table' },
        h('caption', { class: 'sr-only' }, `${label} on ${fmtDay(date)}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Symbol'),
            h('th', { scope: 'col' }, 'Name'),
            h('th', { scope: 'col', class: 'num' }, 'Open'),
            h('th', { scope: 'col', class: 'num' }, 'High'),
            h('th', { scope: 'col', class: 'num' }, 'Low'),
            h('th', { scope: 'col', class: 'num' }, 'Close'),
            h('th', { scope: 'col', class: 'num' }, 'Change'),
            h('th', { scope: 'col', class: 'num' }, 'Volume'),
            h('th', { scope: 'col' }, 'Note'),
          ),
        ),
        tbody,
      ),
    ),
  );
}

/** A difference of prices without float noise (0.1 + 0.2): prices have at most four decimals. */
const noNoise = (x: number): number => Math.round(x * 1e4) / 1e4;
