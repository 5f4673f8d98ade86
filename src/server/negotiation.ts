// Which representation a request asks for: `?format=` when given, else its Accept header read as
// RFC 9110 §12.5.1 says (media types case-insensitive, `q=0` refuses one, the highest q wins, and
// a tie goes to JSON, the API's own form). An Accept naming neither (text/html) still gets JSON:
// errors and the default are JSON, and a browser's Accept should not turn into a 406.
import Negotiator from 'negotiator';

export type Representation = 'json' | 'csv';

const OFFERED = ['application/json', 'text/csv'];

// Clients send few distinct Accept values, so each is parsed once; the bound keeps arbitrary
// values from growing the map.
const seen = new Map<string, Representation>();
const SEEN_MAX = 256;

/** What the Accept header alone chooses. */
export function representationByAccept(accept: string | undefined): Representation {
  if (accept === undefined || accept === '') return 'json';
  let chosen = seen.get(accept);
  if (chosen === undefined) {
    const preferred = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
    chosen = preferred === 'text/csv' ? 'csv' : 'json';
    if (seen.size >= SEEN_MAX) seen.clear();
    seen.set(accept, chosen);
  }
  return chosen;
}

/** `?format=csv|json` wins over Accept. */
export function representationOf(format: unknown, accept: string | undefined): Representation {
  if (format === 'csv' || format === 'json') return format;
  return representationByAccept(accept);
}
