// A fetch for the SDK's StreamableHTTPClientTransport that gives each request its own abort signal.
// The transport passes its one AbortSignal to every fetch, and Node's fetch leaves an abort listener
// on it per request until that request is garbage-collected (nodejs/node#52635,
// nodejs/undici#3157): a bridge that lives for a whole agent session would walk thousands of them
// on every later call (docs/mcp.md, "Calling from Node with the SDK's client").

/** Like `fetch`, but the caller's signal is followed through a signal of the request's own. */
export const isolatingFetch: typeof fetch = (url, init) => {
  const shared = init?.signal;
  if (shared == null) return fetch(url, init);
  if (shared.aborted) return fetch(url, init);
  const own = new AbortController();
  const onAbort = (): void => own.abort(shared.reason);
  shared.addEventListener('abort', onAbort, { once: true });
  const release = (): void => shared.removeEventListener('abort', onAbort);
  return fetch(url, { ...init, signal: own.signal }).then(
    (res) => {
      // An event stream is read long after its headers: closing the transport must still end it.
      if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) release();
      return res;
    },
    (err: unknown) => {
      release();
      throw err;
    },
  );
};
