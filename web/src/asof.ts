// "Data as of" for the header: when the prices on the page were read. Every view's prices come
// from the one market-watch page (quotes, movers, breadth) and the live stream, so the header says
// the same on every view: the newest price time the page has seen, and whether it was a saved copy.
type Listener = (asOf: string | null, stale: boolean) => void;

let newest: string | null = null;
let stale = false;
let listener: Listener | undefined;

export function onAsOf(l: Listener): void {
  listener = l;
  l(newest, stale);
}

/** A price time the page shows (an answer's or a streamed quote's `as_of`). */
export function noteAsOf(asOf: string | null | undefined, fromSavedCopy = false): void {
  if (!asOf || Number.isNaN(Date.parse(asOf))) return;
  if (newest !== null && Date.parse(asOf) < Date.parse(newest)) return;
  newest = asOf;
  stale = fromSavedCopy;
  listener?.(newest, stale);
}
