// The header's status line: the market state from the service's clock, the as-of time of the
// prices the page shows, and whether prices are arriving live. The state comes with every overview
// (a view's one request); /market/status is asked only when no overview has said it for a minute.
import { onAsOf } from './asof.ts';
import { marketStatus, type MarketState } from './data.ts';
import { fmtWhen } from './format.ts';

const STATE_TEXT: Record<MarketState['state'], string> = {
  pre_open: 'Pre-open',
  open: 'Market open',
  break: 'Friday break',
  closed: 'Market closed',
};
const POLL_MS = 60_000;

export type LiveState = 'live' | 'delayed';

let liveEl: HTMLElement;
let stateEl: HTMLElement | undefined;
let poll: ReturnType<typeof setTimeout> | undefined;

export function startStatus(): void {
  stateEl = document.getElementById('market-state') as HTMLElement;
  const asOfEl = document.getElementById('as-of') as HTMLElement;
  liveEl = document.getElementById('live') as HTMLElement;

  onAsOf((asOf, stale) => {
    asOfEl.textContent = asOf ? `Data as of ${fmtWhen(asOf)}${stale ? ' (saved copy)' : ''}` : 'Data as of —';
    asOfEl.dataset.asOf = asOf ?? '';
  });
  // Every view's first request (an overview) brings the state; the clock's own endpoint is asked
  // only when none has said it for a minute.
  schedule(POLL_MS);
  setLive('delayed');
}

function schedule(ms: number): void {
  clearTimeout(poll);
  poll = setTimeout(() => void refresh(), ms);
}

async function refresh(): Promise<void> {
  try {
    noteMarketState((await marketStatus()).data);
  } catch {
    if (stateEl) {
      stateEl.dataset.state = 'unknown';
      stateEl.textContent = 'Market state unknown';
    }
    schedule(POLL_MS);
  }
}

/** The market state an answer carried; the header shows it and needs no request of its own for a minute. */
export function noteMarketState(data: MarketState): void {
  schedule(POLL_MS);
  if (!stateEl) return;
  stateEl.dataset.state = data.state;
  stateEl.textContent = STATE_TEXT[data.state];
  const next =
    data.state === 'open' || data.state === 'pre_open'
      ? data.clock_followed
        ? `closes ${fmtWhen(data.session?.close ?? data.next_close)}`
        : 'clock off: always open'
      : `opens ${fmtWhen(data.next_open)}`;
  stateEl.title = `${STATE_TEXT[data.state]} · ${next}`;
  (document.getElementById('market-next') as HTMLElement).textContent = next;
}

export function setLive(state: LiveState): void {
  if (!liveEl || liveEl.dataset.state === state) return;
  liveEl.dataset.state = state;
  liveEl.textContent = state === 'live' ? 'Live' : 'Delayed';
  liveEl.title =
    state === 'live'
      ? 'Prices update as the service streams them'
      : 'Prices as of the time shown; they update when you reload or the page refreshes';
}
