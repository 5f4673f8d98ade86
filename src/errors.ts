// Every failure the service can name, in one table (in the style of Fastify's createError and
// undici's error classes): its envelope code, HTTP status, default message, and whether a cached
// copy may answer in its place (stale-if-error). src/http/pipeline/error-handler.ts is the one place that
// turns them into responses; the OpenAPI document lists the codes from here.
import type { PageKind } from './exchange/types.ts';

export interface ErrorKind {
  readonly code: string;
  readonly status: number;
  /** Used when a failure is raised without a message of its own. */
  readonly message: string;
  /**
   * True when an old cached copy is a better answer than this failure: the portal (or the way to
   * it) failed, not the request.
   */
  readonly staleServable: boolean;
}

export const ERROR_KINDS = {
  badRequest: {
    code: 'bad_request',
    status: 400,
    message: 'the request is not valid',
    staleServable: false,
  },
  notFound: { code: 'not_found', status: 404, message: 'not found', staleServable: false },
  methodNotAllowed: {
    code: 'method_not_allowed',
    status: 405,
    message: 'only GET and HEAD are supported',
    staleServable: false,
  },
  requestTimeout: {
    code: 'request_timeout',
    status: 408,
    message: 'the request was not received in time',
    staleServable: false,
  },
  payloadTooLarge: {
    code: 'payload_too_large',
    status: 413,
    message: 'this API takes no request body',
    staleServable: false,
  },
  unsupportedMediaType: {
    code: 'unsupported_media_type',
    status: 415,
    message: 'this API takes no request body',
    staleServable: false,
  },
  // The spec's 422: request validation failed, with the spec's code.
  validation: {
    code: 'bad_request',
    status: 422,
    message: 'request validation failed',
    staleServable: false,
  },
  rateLimited: {
    code: 'rate_limited',
    status: 429,
    message: 'rate limit exceeded',
    staleServable: true,
  },
  headersTooLarge: {
    code: 'headers_too_large',
    status: 431,
    message: 'the request line and headers exceed the server limit',
    staleServable: false,
  },
  internal: { code: 'internal_error', status: 500, message: 'internal server error', staleServable: false },
  upstreamData: {
    code: 'upstream_data_error',
    status: 502,
    message: "the exchange's page could not be read",
    staleServable: true,
  },
  proxyUnreachable: {
    code: 'proxy_unreachable',
    status: 502,
    message: 'the caller proxy could not be used',
    staleServable: true,
  },
  exchangeUnavailable: {
    code: 'exchange_unavailable',
    status: 503,
    message: 'the exchange could not be reached',
    staleServable: true,
  },
  notReady: {
    code: 'not_ready',
    status: 503,
    message: 'not ready',
    staleServable: false,
  },
} as const satisfies Record<string, ErrorKind>;

/** Every code a client can meet in `error.code`. */
export const ERROR_CODES: readonly string[] = [...new Set(Object.values(ERROR_KINDS).map((k) => k.code))];

export abstract class ServiceError extends Error {
  abstract readonly kind: ErrorKind;
  /** Seconds, sent as Retry-After when set. */
  retryAfter?: number;

  get statusCode(): number {
    return this.kind.status;
  }

  get code(): string {
    return this.kind.code;
  }

  get staleServable(): boolean {
    return this.kind.staleServable;
  }
}

export class BadRequestError extends ServiceError {
  readonly kind = ERROR_KINDS.badRequest;
  override name = 'BadRequestError';
}

export class ValidationError extends ServiceError {
  readonly kind = ERROR_KINDS.validation;
  override name = 'ValidationError';
}

export class NotFoundError extends ServiceError {
  readonly kind = ERROR_KINDS.notFound;
  override name = 'NotFoundError';
}

export class MethodNotAllowedError extends ServiceError {
  readonly kind = ERROR_KINDS.methodNotAllowed;
  override name = 'MethodNotAllowedError';
  constructor(message: string = ERROR_KINDS.methodNotAllowed.message) {
    super(message);
  }
}

export class NotReadyError extends ServiceError {
  readonly kind = ERROR_KINDS.notReady;
  override name = 'NotReadyError';
}

export class RateLimitedError extends ServiceError {
  readonly kind = ERROR_KINDS.rateLimited;
  override name = 'RateLimitedError';
  constructor(message: string, retryAfter: number) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/** The portal could not be reached, refused us, or our own budget forbids contacting it now. */
export class ExchangeUnavailableError extends ServiceError {
  readonly kind = ERROR_KINDS.exchangeUnavailable;
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
  readonly kind = ERROR_KINDS.upstreamData;
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
  readonly kind = ERROR_KINDS.proxyUnreachable;
  override name = 'ProxyUnreachableError';
}

export class InternalError extends ServiceError {
  readonly kind = ERROR_KINDS.internal;
  override name = 'InternalError';
}

/**
 * A failure of the HTTP layer itself (Fastify's or Node's), by kind: a 413, a 431, a timeout. The
 * message is written by the layer that saw it, never copied from the framework (which may echo the
 * request).
 */
export class HttpError extends ServiceError {
  override name = 'HttpError';
  constructor(
    readonly kind: ErrorKind,
    message: string = kind.message,
  ) {
    super(message);
  }
}

/**
 * Client input repeated in a message: a plain token (a symbol, an index code) as it is; anything
 * else as a JSON string of at most `max` characters, so a message never carries control
 * characters or a long echo of what was sent.
 */
export function clientText(input: string, max = 32): string {
  if (PLAIN_TOKEN.test(input) && input.length <= max) return input;
  const prefix = [...input].slice(0, max).join('');
  return JSON.stringify(prefix.length < input.length ? `${prefix}…` : prefix);
}

const PLAIN_TOKEN = /^[A-Za-z0-9][A-Za-z0-9._&-]*$/;

/**
 * Client input quoted in a message: always a JSON string (escaped, so its quotes stay balanced)
 * of at most `max` characters, with `…` when cut.
 */
export function quotedInput(input: string, max = 32): string {
  const prefix = [...input].slice(0, max).join('');
  return JSON.stringify(prefix.length < input.length ? `${prefix}…` : prefix);
}

// Bad query input, one rule for every parameter of every endpoint (docs/api.md, "400 or 422"):
// the parameters as a set are wrong (one the endpoint does not take, one given empty or twice,
// two that contradict each other) → 400 invalid query; one parameter's value is wrong (not an
// accepted value, the wrong type or form, out of range) or a required one is missing → 422
// validation failed. Every message names the parameter first, in one style:
// `order must be asc or desc (got "up")`.

/** 422: `name must be <expected> (got "value")`. */
export function invalidValue(name: string, expected: string, value?: unknown): ValidationError {
  const got = typeof value === 'string' ? ` (got ${quotedInput(value)})` : '';
  return new ValidationError(`${name} must be ${expected}${got}`);
}

/** 422: a required parameter is missing; `what` says what to give, with an example. */
export function missingParameter(name: string, what: string): ValidationError {
  return new ValidationError(`${name} is required: ${what}`);
}

/** 400: a parameter given with no value. */
export function emptyParameter(name: string, hint?: string): BadRequestError {
  return new BadRequestError(`${name} must not be empty${hint ? `: ${hint}` : ''}`);
}

/** 400: a parameter given more than once. */
export function repeatedParameter(name: string): BadRequestError {
  return new BadRequestError(`${name} may be given only once`);
}

/** 400: a parameter the endpoint does not take; `taken` are the ones it does. */
export function unknownParameter(where: string, name: string, taken: readonly string[]): BadRequestError {
  const takes = taken.length > 0 ? `this endpoint takes ${taken.join(', ')}` : 'this endpoint takes none';
  return new BadRequestError(`unknown ${where} ${quotedInput(name)}; ${takes}`);
}

/** 400: parameters that are each well formed but contradict each other. */
export function conflictingParameters(message: string): BadRequestError {
  return new BadRequestError(message);
}

/** `a, b or c`. */
export function orList(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
