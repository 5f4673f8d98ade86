// "As of" for the header: the oldest data time among the answers the current view shows, so the
// header never claims the page is fresher than its stalest number.
type Listener = (asOf: string | null, stale: boolean) => void;

let oldest: string | null = null;
let anyStale = false;
let listener: Listener | undefined;

export function onAsOf(l: Listener): void {
  listener = l;
}

/** A new view: forget what the previous one showed. */
export function resetAsOf(): void {
  oldest = null;
  anyStale = false;
  listener?.(null, false);
}

export function noteAsOf(asOf: string | null, stale: boolean): void {
  if (asOf !== null && (oldest === null || Date.parse(asOf) < Date.parse(oldest))) oldest = asOf;
  anyStale ||= stale;
  listener?.(oldest, anyStale);
}
