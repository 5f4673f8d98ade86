// "Data as of" for the header: when the prices on the page were read. Every view's prices come
// from the one market-watch page (quotes, movers, breadth) and the live stream, so the header says
// the same on every view: the newest price time the page has seen, and whether it was a saved copy.
// A past day's market (the date picker) says that day's close instead, until the view is left.
type Listener = (asOf: string | null, stale: boolean, pastDay: string | null) => void;

let newest: string | null = null;
let stale = false;
let pastDay: string | null = null;
let listener: Listener | undefined;

export function onAsOf(l: Listener): void {
  listener = l;
  l(newest, stale, pastDay);
}

/** A price time the page shows (an answer's or a streamed quote's `as_of`). */
export function noteAsOf(asOf: string | null | undefined, fromSavedCopy = false): void {
  if (!asOf || Number.isNaN(Date.parse(asOf))) return;
  if (newest !== null && Date.parse(asOf) < Date.parse(newest)) return;
  newest = asOf;
  stale = fromSavedCopy;
  if (pastDay === null) listener?.(newest, stale, null);
}

/**
 * The page shows a past day's closing prices (`asOf`: that day's close, ISO 8601), or again the
 * live prices (null).
 */
export function showPastDay(asOf: string | null): void {
  pastDay = asOf;
  listener?.(pastDay ?? newest, pastDay === null && stale, pastDay);
}
