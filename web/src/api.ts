// The dashboard talks to the service it was served by, through the project's own typed client.
import { ApiError, createClient } from 'psx-market-data-client';

export const api = createClient({ baseUrl: window.location.origin });

export { unwrap } from 'psx-market-data-client';

/** What the page says when a call fails: the service's own message when it gave one. */
export function describeError(err: unknown): { message: string; detail: string } {
  if (err instanceof ApiError) return { message: err.message, detail: `${err.code} · HTTP ${err.status}` };
  if (err instanceof TypeError) {
    return { message: 'The service could not be reached.', detail: 'check that it is running' };
  }
  return { message: err instanceof Error ? err.message : String(err), detail: 'unexpected error' };
}
