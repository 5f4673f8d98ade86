// Live prices: ONE EventSource on /stream/quotes for the whole page, whichever view is shown. Views
// say which symbols they show (`watch`); the stream covers the most recent of them and is
// re-opened only when a shown symbol is not covered yet, once the reader has settled on a view
// (moving quickly between symbols costs no stream per symbol). Every element marked
// data-live="SYM" data-field="price|change|change_pct|volume" is updated in place in its own
// format (data-format) and keeps its arrow (data-arrow), so views only mark their cells.
import { noteAsOf } from './asof.ts';
import { quoteStreamUrl, streamAvailable, type FullQuote } from './data.ts';
import { arrow, direction, fmtCompact, fmtPct, fmtPrice, fmtSigned, fmtWhole } from './format.ts';
import { setLive } from './status.ts';

type Field = 'price' | 'change' | 'change_pct' | 'volume';
const FIELDS = new Set<string>(['price', 'change', 'change_pct', 'volume']);
const FORMATS: Record<string, (v: number | null | undefined) => string> = {
  price: fmtPrice,
  signed: fmtSigned,
  pct: fmtPct,
  whole: fmtWhole,
  compact: fmtCompact,
  /** The ▲/▼/■ beside a change (its words are in a screen-reader-only span). */
  arrow: (v) => `${arrow(v)} `,
};
const DEFAULT_FORMAT: Record<Field, string> = {
  price: 'price',
  change: 'signed',
  change_pct: 'pct',
  volume: 'whole',
};

/** Symbols one stream covers (the service takes up to 100). */
const COVERED_MAX = 60;
/** A view must be shown this long before the stream is re-opened for it. */
const SETTLE_MS = 1_200;
/** After the service refused the stream, ask again after this: the request limit's window. */
const REOPEN_MS = 60_000;

let recent: string[] = [];
let covered = new Set<string>();
let source: EventSource | undefined;
let pending: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<(q: FullQuote) => void>();

/** The symbols the current view shows; the stream covers them once the view has settled. */
export function watch(symbols: string[]): void {
  const shown = [...new Set(symbols)];
  recent = [...shown, ...recent.filter((s) => !shown.includes(s))].slice(0, COVERED_MAX);
  if (shown.every((s) => covered.has(s)) && source) return;
  if (typeof EventSource === 'undefined') return;
  clearTimeout(pending);
  pending = setTimeout(() => void retarget(), SETTLE_MS);
}

/** Streamed quotes for whoever shows more than marked cells (until the returned function is called). */
export function onQuote(fn: (q: FullQuote) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

async function retarget(): Promise<void> {
  try {
    await streamAvailable();
  } catch {
    return; // no stream on this service: prices stay as loaded, marked "Delayed"
  }
  const wanted = recent.slice(0, COVERED_MAX);
  if (wanted.length === 0) return;
  const previous = source;
  const es = new EventSource(quoteStreamUrl(wanted));
  source = es;
  covered = new Set(wanted);
  // The old stream is closed only once the new one is open, so prices never stop in between.
  es.addEventListener('open', () => {
    if (previous && previous !== es) previous.close();
    setLive('live');
  });
  es.addEventListener('error', () => {
    if (source !== es) return;
    setLive('delayed');
    // CLOSED: the service refused the stream (over a limit); the browser does not retry that by
    // itself. CONNECTING: a dropped connection the browser is re-opening.
    if (es.readyState === EventSource.CLOSED) {
      previous?.close();
      source = undefined;
      covered = new Set();
      clearTimeout(pending);
      pending = setTimeout(() => void retarget(), REOPEN_MS);
    }
  });
  es.addEventListener('quote', (e) => {
    if (source !== es) return;
    setLive('live');
    let q: FullQuote;
    try {
      q = JSON.parse((e as MessageEvent<string>).data) as FullQuote;
    } catch {
      return;
    }
    noteAsOf(q.as_of);
    apply(q);
    for (const fn of listeners) fn(q);
  });
}

function apply(q: FullQuote): void {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-live="${CSS.escape(q.symbol)}"]`)) {
    const field = el.dataset.field;
    if (!field || !FIELDS.has(field)) continue;
    const value = q[field as Field];
    if (value === undefined) continue;
    const format = FORMATS[el.dataset.format ?? DEFAULT_FORMAT[field as Field]] ?? fmtPrice;
    const text = format(value);
    if (el.dataset.shown === text || (el.dataset.shown === undefined && el.textContent === text)) continue;
    el.dataset.shown = text;
    const dir = direction(field === 'price' || field === 'volume' ? q.change : value);
    if (el.dataset.arrow !== undefined) {
      const mark = document.createElement('span');
      mark.setAttribute('aria-hidden', 'true');
      mark.textContent = `${arrow(field === 'price' || field === 'volume' ? q.change : value)} `;
      el.replaceChildren(mark, text);
    } else {
      el.textContent = text;
    }
    if (field !== 'volume' && el.dataset.plain === undefined) {
      el.classList.remove('up', 'down', 'flat');
      el.classList.add(dir);
    }
    // A brief highlight so a change is noticed; reduced-motion users get none (styles.css). Two
    // classes with the same animation take turns, so a repeated tick restarts it without forcing
    // a layout per cell (a stream's first snapshot changes dozens at once).
    const again = el.classList.contains('tick');
    el.classList.remove(again ? 'tick' : 'tick-again');
    el.classList.add(again ? 'tick-again' : 'tick');
  }
}
