// The header's status line: the market state from the service's clock, the as-of time of the
// prices the page shows, and whether prices are arriving live. The state comes with every overview
// (a view's one request) and says when it changes next; the header turns then by asking
// /market/status once. A view without an overview (the week, the debt market) asks it once
// (askMarketState) when nothing has said the state yet; nothing polls it.
import { onAsOf } from './asof.ts';
import { marketStatus, type MarketState } from './data.ts';
import { fmtDay, fmtWhen } from './format.ts';

const STATE_TEXT: Record<MarketState['state'], string> = {
  pre_open: 'Pre-open',
  open: 'Market open',
  break: 'Friday break',
  closed: 'Market closed',
};
/** The state is asked again this long after its next change was due (the clocks may differ a little). */
const AFTER_CHANGE_MS = 2_000;
/** A view that has not said the market state by then has it asked for. */
const UNSAID_MS = 5_000;
/** After a failed ask: again this much later. */
const FAILED_AGAIN_MS = 60_000;

export type LiveState = 'live' | 'delayed';

let liveEl: HTMLElement;
let stateEl: HTMLElement | undefined;
let poll: ReturnType<typeof setTimeout> | undefined;
let known = false;

export function startStatus(): void {
  stateEl = document.getElementById('market-state') as HTMLElement;
  const asOfEl = document.getElementById('as-of') as HTMLElement;
  liveEl = document.getElementById('live') as HTMLElement;

  onAsOf((asOf, stale, pastDay) => {
    if (pastDay !== null) {
      // A past day's close: the day in full, and no Live/Delayed (nothing about it moves).
      asOfEl.textContent = `Data as of ${fmtDay(pastDay)}, close`;
      asOfEl.dataset.asOf = pastDay;
      liveEl.hidden = true;
      return;
    }
    liveEl.hidden = false;
    asOfEl.textContent = asOf ? `Data as of ${fmtWhen(asOf)}${stale ? ' (saved copy)' : ''}` : 'Data as of —';
    asOfEl.dataset.asOf = asOf ?? '';
  });
  setLive('delayed');
  // Any other view that brings no state: asked once, after its own requests had their turn.
  setTimeout(askMarketState, UNSAID_MS);
}

/** For a view whose requests do not bring the market state: asks for it when nothing has said it. */
export function askMarketState(): void {
  if (!known && poll === undefined) void refresh();
}

function schedule(ms: number): void {
  clearTimeout(poll);
  // Timers cannot wait longer than about 24.8 days; a state changes well before.
  poll = setTimeout(() => void refresh(), Math.min(Math.max(ms, 1_000), 2 ** 31 - 1));
}

async function refresh(): Promise<void> {
  try {
    noteMarketState((await marketStatus()).data);
  } catch {
    if (stateEl) {
      stateEl.dataset.state = 'unknown';
      stateEl.textContent = 'Market state unknown';
    }
    schedule(FAILED_AGAIN_MS);
  }
}

/** The market state an answer carried; the header shows it, and asks again only when it changes. */
export function noteMarketState(data: MarketState): void {
  known = true;
  const open = data.state === 'open' || data.state === 'pre_open';
  const changesAt = Date.parse((open ? (data.session?.close ?? data.next_close) : data.next_open) ?? '');
  clearTimeout(poll);
  poll = undefined;
  // Without the exchange's timetable (clock_followed false) the state never changes by itself.
  if (data.clock_followed && !Number.isNaN(changesAt)) schedule(changesAt - Date.now() + AFTER_CHANGE_MS);
  if (!stateEl) return;
  stateEl.dataset.state = data.state;
  stateEl.textContent = STATE_TEXT[data.state];
  const next = !data.clock_followed
    ? 'open around the clock'
    : open
      ? `closes ${fmtWhen(data.session?.close ?? data.next_close)}`
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
