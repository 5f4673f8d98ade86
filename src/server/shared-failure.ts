// A failure of the portal fetch that a request led, kept with its response so that the requests
// held behind it below the router (src/server/hit-replay.ts) get the same answer. Through the
// routes they would all have waited on that one fetch (single flight) and shared its failure;
// sent to the routes only after it failed, they would start a second fetch of a page the portal
// has just refused, and wait for it too.
import type { ServerResponse } from 'node:http';

export interface SharedFailure {
  status: number;
  /** The error envelope, which names nothing of the request that got it. */
  body: string;
  retryAfter?: number;
  /** The route template, for metrics. */
  route: string;
}

const failures = new WeakMap<ServerResponse, SharedFailure>();

/** Called by the error handler for failures of the portal fetch. */
export function recordSharedFailure(res: ServerResponse, failure: SharedFailure): void {
  failures.set(res, failure);
}

export function sharedFailureOf(res: ServerResponse): SharedFailure | undefined {
  return failures.get(res);
}
