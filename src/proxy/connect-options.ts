// Connection settings shared by both dialers.
import type { LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';

/** Trust anchors for the target's certificate; verification itself cannot be configured off. */
export type TargetTrust = Pick<ConnectionOptions, 'ca'>;

/**
 * The proxy address is already pinned; a host name reaching this lookup would mean a second
 * resolution, which is exactly what pinning forbids. Node calls it only for names, so with a
 * pinned IP it never runs: it is a tripwire, not a code path.
 */
export const refuseSecondLookup: LookupFunction = (hostname, _options, callback) => {
  callback(new Error(`refusing to resolve ${hostname}: the proxy address must be pinned`), '', 4);
};
