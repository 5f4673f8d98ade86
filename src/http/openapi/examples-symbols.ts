// Error requests many operations share: an unlisted or malformed symbol, too many symbols.
import type { ErrorSource } from './example-types.ts';

/** The errors of a /stocks/{symbol}/… path: an unlisted symbol (404) and a malformed one (422). */
export function symbolErrors(tail: string): { 404: ErrorSource[]; 422: ErrorSource[] } {
  return { 404: [{ request: `/stocks/NOSUCH${tail}` }], 422: [{ request: `/stocks/EN%20GRO${tail}` }] };
}

/** A list of 101 symbols: one more than a request may name. */
export const TOO_MANY_SYMBOLS = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',');
