// Answers that join several portal pages degrade instead of failing whole: when a secondary page
// cannot be had (the portal unreachable, answering an error, or sending a page that no longer
// parses) and no copy of it is cached, the answer is served from the pages it has, and
// `meta.missing` names each part left out and why. The primary page still decides: without it
// there is nothing to serve. A refusal the client caused (its fetch budget spent) or a bug still
// fails the answer: serving less would hide it.
import type { Cached, Provenance } from '../cache/types.ts';
import {
  ExchangeUnavailableError,
  ProxyUnreachableError,
  ServiceError,
  UpstreamDataError,
} from '../errors.ts';

/** One entry of `meta.missing`: what the answer lacks and why (documented in docs/api.md). */
export interface MissingPart {
  /** What the client loses, in the answer's words: `dividends`, `capital_changes`, `extras`… */
  part: string;
  /** Why, in words: the portal's failure for that page. */
  reason: string;
}

/** A secondary page that could not be had: the part it would have given, and the failure. */
export class Missing implements MissingPart {
  constructor(
    readonly part: string,
    readonly error: ServiceError,
  ) {}

  get reason(): string {
    return this.error.message;
  }
}

/** How long an answer missing a part is kept before its pages are asked for again. */
export const RETRY_MISSING_MS = 60_000;

/** True for the failures of a page, as opposed to the request's (a budget) or a bug. */
export function isPageFailure(err: unknown): err is ServiceError {
  return (
    err instanceof ExchangeUnavailableError ||
    err instanceof UpstreamDataError ||
    err instanceof ProxyUnreachableError
  );
}

/** A secondary page: its value, or `Missing` when the page failed (any other error is thrown). */
export async function secondary<T>(part: string, read: Promise<Cached<T>>): Promise<Cached<T> | Missing> {
  try {
    return await read;
  } catch (err) {
    if (isPageFailure(err)) return new Missing(part, err);
    throw err;
  }
}

/** The pages an answer was made from (the provenance of those it has). */
export function had(parts: readonly (Provenance | Missing)[]): Provenance[] {
  return parts.filter((p): p is Provenance => !(p instanceof Missing));
}

/** The parts an answer lacks. */
export function lacking(parts: readonly (Provenance | Missing | null)[]): Missing[] {
  return parts.filter((p): p is Missing => p instanceof Missing);
}

/** `meta.missing` as the client sees it; undefined when nothing is missing (the key is left out). */
export function missingMeta(parts: readonly (Missing | MissingPart)[]): MissingPart[] | undefined {
  if (parts.length === 0) return undefined;
  return parts.map(({ part, reason }) => ({ part, reason }));
}

/**
 * The provenance of an answer missing `parts`: asked for again within RETRY_MISSING_MS rather than
 * served without them for the whole freshness window, and a version (so an ETag) of its own.
 */
export function degraded(provenance: Provenance, parts: readonly MissingPart[]): Provenance {
  if (parts.length === 0) return provenance;
  return {
    ...provenance,
    freshUntil: Math.min(provenance.freshUntil, provenance.fetchedAt + RETRY_MISSING_MS),
    version: `${provenance.version}-missing:${parts.map((p) => p.part).join(',')}`,
  };
}
