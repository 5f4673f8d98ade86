// Live prices: one EventSource on /stream/quotes for the symbols the current view shows. Every
// element marked data-live="SYM" data-field="price|change|change_pct|volume" is updated in place,
// so views only mark their cells. Without the stream (an older service, or the market closed and
// the service not streaming) the header says "Delayed" and nothing else changes.
import { quoteStreamUrl, streamAvailable, type FullQuote } from './data.ts';
import { direction, fmtPct, fmtPrice, fmtSigned, fmtWhole } from './format.ts';
import { setLive } from './status.ts';

type Field = 'price' | 'change' | 'change_pct' | 'volume';
const FORMAT: Record<Field, (v: number | null | undefined) => string> = {
  price: fmtPrice,
  change: fmtSigned,
  change_pct: fmtPct,
  volume: fmtWhole,
};

let source: EventSource | undefined;

/** Streams `symbols` until the returned function is called (the view's cleanup). */
export function streamQuotes(symbols: string[], onQuote?: (q: FullQuote) => void): () => void {
  stop();
  const unique = [...new Set(symbols)].slice(0, 50);
  if (unique.length === 0 || typeof EventSource === 'undefined') return stop;
  let stopped = false;
  void streamAvailable().then(
    () => {
      if (!stopped) open(unique, onQuote);
    },
    () => undefined, // no stream on this service: prices stay as loaded, marked "Delayed"
  );
  return () => {
    stopped = true;
    stop();
  };
}

function open(unique: string[], onQuote?: (q: FullQuote) => void): void {
  const es = new EventSource(quoteStreamUrl(unique));
  source = es;
  es.addEventListener('open', () => setLive('live'));
  es.addEventListener('error', () => {
    // CLOSED: the service refused the stream (no such endpoint, or over the limit); it does not
    // reconnect by itself. CONNECTING: a dropped connection the browser is re-opening.
    setLive('delayed');
  });
  es.addEventListener('quote', (e) => {
    setLive('live');
    let q: FullQuote;
    try {
      q = JSON.parse((e as MessageEvent<string>).data) as FullQuote;
    } catch {
      return;
    }
    apply(q);
    onQuote?.(q);
  });
}

function stop(): void {
  source?.close();
  source = undefined;
  setLive('delayed');
}

function apply(q: FullQuote): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-live="${CSS.escape(q.symbol)}"]`)) {
    const field = el.dataset.field as Field | undefined;
    if (!field || !(field in FORMAT)) continue;
    const value = q[field];
    if (value === undefined) continue;
    const text = FORMAT[field](value);
    if (el.textContent === text) continue;
    el.textContent = text;
    if (field !== 'volume') {
      el.classList.remove('up', 'down', 'flat');
      el.classList.add(direction(field === 'price' ? q.change : value));
    }
    // A brief highlight so a change is noticed; reduced-motion users get none (styles.css).
    el.classList.remove('tick');
    void el.offsetWidth;
    el.classList.add('tick');
  }
}
