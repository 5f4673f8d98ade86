// Every failure the service can name is one of these classes. Each carries the HTTP status and the
// envelope code; src/http/error-handler.ts is the one place that turns them into responses.
import type { PageKind } from './exchange/types.ts';

export abstract class ServiceError extends Error {
  abstract readonly statusCode: number;
  abstract readonly code: string;
  /** Seconds, sent as Retry-After when set. */
  retryAfter?: number;
}

export class BadRequestError extends ServiceError {
  readonly statusCode = 400;
  readonly code = 'bad_request';
  override name = 'BadRequestError';
}

export class ValidationError extends ServiceError {
  readonly statusCode = 422;
  readonly code = 'bad_request';
  override name = 'ValidationError';
}

export class NotFoundError extends ServiceError {
  readonly statusCode = 404;
  readonly code = 'not_found';
  override name = 'NotFoundError';
}

export class RateLimitedError extends ServiceError {
  readonly statusCode = 429;
  readonly code = 'rate_limited';
  override name = 'RateLimitedError';
  constructor(message: string, retryAfter: number) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** The portal could not be reached, refused us, or our own budget forbids contacting it now. */
export class ExchangeUnavailableError extends ServiceError {
  readonly statusCode = 503;
  readonly code = 'exchange_unavailable';
  override name = 'ExchangeUnavailableError';
  constructor(
    message: string,
    retryAfter = 60,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** The portal answered, but the page no longer has the structure its parser expects. */
export class UpstreamDataError extends ServiceError {
  readonly statusCode = 502;
  readonly code = 'upstream_data_error';
  override name = 'UpstreamDataError';
  constructor(
    readonly pageKind: PageKind,
    detail: string,
  ) {
    super(`the exchange's ${pageKind} page could not be read: ${detail}`);
  }
}

/** A caller-supplied proxy (X-Exchange-Proxy) could not be used. */
export class ProxyUnreachableError extends ServiceError {
  readonly statusCode = 502;
  readonly code = 'proxy_unreachable';
  override name = 'ProxyUnreachableError';
}

export class InternalError extends ServiceError {
  readonly statusCode = 500;
  readonly code = 'internal_error';
  override name = 'InternalError';
}
