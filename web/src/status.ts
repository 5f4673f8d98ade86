// The header's status line: the market state from the service's clock (/market/status), the
// as-of time of what the page shows, and whether prices are arriving live.
import { onAsOf } from './asof.ts';
import { marketStatus, type MarketStatus } from './data.ts';
import { fmtWhen } from './format.ts';

const STATE_TEXT: Record<MarketStatus['state'], string> = {
  pre_open: 'Pre-open',
  open: 'Market open',
  break: 'Friday break',
  closed: 'Market closed',
};
const POLL_MS = 60_000;

export type LiveState = 'live' | 'delayed';

let liveEl: HTMLElement;

export function startStatus(): void {
  const stateEl = document.getElementById('market-state') as HTMLElement;
  const asOfEl = document.getElementById('as-of') as HTMLElement;
  liveEl = document.getElementById('live') as HTMLElement;

  onAsOf((asOf, stale) => {
    asOfEl.textContent = asOf ? `Data as of ${fmtWhen(asOf)}${stale ? ' (saved copy)' : ''}` : 'Data as of —';
    asOfEl.dataset.asOf = asOf ?? '';
  });

  const refresh = async (): Promise<void> => {
    try {
      const { data } = await marketStatus();
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
    } catch {
      stateEl.dataset.state = 'unknown';
      stateEl.textContent = 'Market state unknown';
    }
  };
  void refresh();
  setInterval(() => void refresh(), POLL_MS);
  setLive('delayed');
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
