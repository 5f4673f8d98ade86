// The portal's request token: every HTML page carries window.__ps._k, which data
// requests must echo as X-Req-Id. It rotates about every five minutes and may be tied to the client
// IP, so tokens are kept per route ("scope": direct, or one per caller proxy).
import type { Dispatcher } from 'undici';

export interface TokenFetcher {
  /** Loads the portal's home page through `dispatcher` and extracts the token; null when absent. */
  (dispatcher: Dispatcher | undefined): Promise<string | null>;
}

interface ScopeState {
  token: string | null;
  fetchedAt: number;
  inflight: Promise<string | null> | null;
}

export class TokenStore {
  private readonly scopes = new Map<string, ScopeState>();

  constructor(
    private readonly fetchToken: TokenFetcher,
    private readonly maxAgeMs: number,
    private readonly now: () => number,
    private readonly onRefresh: (scope: string, ok: boolean) => void = () => {},
    private readonly retryFailedAfterMs = 5_000,
  ) {}

  /** The current token for a scope, refreshed first when it is missing or older than maxAgeMs. */
  async get(scope: string, dispatcher?: Dispatcher): Promise<string | null> {
    const state = this.scopes.get(scope);
    if (state && !state.inflight && this.now() - state.fetchedAt < this.maxAgeMs) return state.token;
    return this.refresh(scope, state?.token ?? null, dispatcher);
  }

  /**
   * Replace `staleToken`. Concurrent callers holding the same stale token share one fetch, and a
   * caller whose token was already replaced gets the new one without a fetch: N concurrent 403s
   * cost one token request.
   */
  refresh(scope: string, staleToken: string | null, dispatcher?: Dispatcher): Promise<string | null> {
    let state = this.scopes.get(scope);
    if (!state) {
      state = { token: null, fetchedAt: 0, inflight: null };
      this.scopes.set(scope, state);
    }
    if (state.inflight) return state.inflight;
    if (state.token !== null && state.token !== staleToken) return Promise.resolve(state.token);
    const current = state;
    current.inflight = this.fetchToken(dispatcher)
      .catch(() => null)
      .then((token) => {
        current.token = token;
        // A failed fetch is remembered briefly too, so a portal without tokens is not asked on every
        // request; the data request then goes out without X-Req-Id (fail open).
        current.fetchedAt =
          token === null ? this.now() - this.maxAgeMs + this.retryFailedAfterMs : this.now();
        current.inflight = null;
        this.onRefresh(scope, token !== null);
        return token;
      });
    return current.inflight;
  }

  forget(scope: string): void {
    this.scopes.delete(scope);
  }
}
